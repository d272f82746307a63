/**
 * `validate [PATH…] [--profile hermes|agentskills|claude]` ([M-5]).
 *
 * @module
 */
import { unknownChoice } from "../command_grammar.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { existsHere, resolvePath } from "../../home/paths.ts";
import { resolveSkill } from "../../resolve/resolve.ts";
import { type Finding, type Profile, PROFILES } from "../../validate/rules.ts";
import { validateFiles, validatePaths } from "../../validate/validate.ts";
import { paint, plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Over more skills than this, info notes are counted by rule instead of listed. */
export const MAX_LISTED_NOTES = 3;

const COLOURS = { error: "red", warning: "yellow", info: "cyan" } as const;

function noteSummary(findings: Finding[]): string {
  const byRule = new Map<string, number>();
  for (const f of findings) {
    if (f.severity === "info") byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
  }
  const counts = [...byRule].map(([rule, n]) => `${rule} ×${n}`).join(", ");
  return `Notes (info, not errors): ${counts}; --json lists each.`;
}

/**
 * What `validate ARG` checks: the path ARG when there is one here, else the skill of that
 * name (`validate pr-review`); else ARG, reported as unreadable.
 */
function pathOrSkill(runtime: SkillRuntime, arg: string, cwd: string): string {
  if (existsHere(resolvePath(cwd, arg))) return arg;
  try {
    return resolveSkill(arg, runtime.catalog()).record.skillDir;
  } catch {
    return arg;
  }
}

/** Runs `validate`; exits 1 when any finding is an error. */
export function run(runtime: SkillRuntime, request: CommandRequest): Outcome {
  const profile = (request.options.profile ?? "hermes") as Profile;
  if (!PROFILES.includes(profile)) {
    throw unknownChoice("profile", profile, PROFILES);
  }
  const cwd = runtime.setup.host.cwd;
  const doc = request.args.length
    ? validatePaths(request.args.map((arg) => pathOrSkill(runtime, arg, cwd)), cwd, profile)
    : validateFiles(runtime.catalog().index().records.map((r) => r.file), profile);
  const { global } = request;
  return respond(global, doc, () => {
    // Info notes are listed for a few skills; over many they are counted, not listed.
    const listInfos = doc.checked <= MAX_LISTED_NOTES;
    const lines = doc.findings.filter((f) => listInfos || f.severity !== "info").map((f) =>
      `${f.file}${f.line ? `:${f.line}` : ""}  ${
        paint(global.color, COLOURS[f.severity], f.severity)
      }  ${f.rule}  ${f.message}`
    );
    if (!listInfos && doc.infos > 0) lines.push(noteSummary(doc.findings));
    const notes = doc.infos ? `, ${plural(doc.infos, "note")}` : "";
    lines.push(
      `Checked ${plural(doc.checked, "skill")} (${profile}): ${plural(doc.errors, "error")}, ${
        plural(doc.warnings, "warning")
      }${notes}.`,
    );
    return lines.join("\n");
  }, doc.success ? 0 : 1);
}
