/**
 * `validate [PATH…] [--profile hermes|agentskills|claude]` ([M-5]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { type Profile, PROFILES } from "../../validate/rules.ts";
import { validateFiles, validatePaths } from "../../validate/validate.ts";
import { paint, plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs `validate`; exits 1 when any finding is an error. */
export function run(runtime: SkillRuntime, request: CommandRequest): Outcome {
  const profile = (request.options.profile ?? "hermes") as Profile;
  if (!PROFILES.includes(profile)) {
    throw new UsageError(`Unknown profile '${profile}'; use ${PROFILES.join(", ")}.`);
  }
  const doc = request.args.length
    ? validatePaths(request.args, runtime.setup.host.cwd, profile)
    : validateFiles(runtime.catalog().index().records.map((r) => r.file), profile);
  const { global } = request;
  return respond(global, doc, () => {
    const lines = doc.findings.map((f) =>
      `${f.file}${f.line ? `:${f.line}` : ""}  ${
        paint(global.color, f.severity === "error" ? "red" : "yellow", f.severity)
      }  ${f.rule}  ${f.message}`
    );
    lines.push(
      `Checked ${plural(doc.checked, "skill")} (${profile}): ${plural(doc.errors, "error")}, ${
        plural(doc.warnings, "warning")
      }.`,
    );
    return lines.join("\n");
  }, doc.success ? 0 : 1);
}
