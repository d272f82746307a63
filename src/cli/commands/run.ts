/**
 * `run NAME PATH [--workdir DIR] [--timeout S] [--yes] [-- ARGS…]` ([RUN-1..4]): one script
 * of a skill in its sandbox. Its stdout and stderr are the command's (text mode, control
 * characters made visible as for all skill content), its exit code the command's; stdin
 * is passed through. With `--json`, one document carries them. `sandbox run NAME PATH`
 * comes here too (`show`): the exact line, run nothing.
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import type { ExecuteContext } from "../context.ts";
import { jsonText, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";
import { grantSummary, type RunResult } from "../../run/run_skill.ts";
import { shellQuote } from "../../run/shell_quote.ts";

function showText(doc: RunResult): string {
  return [
    `Sandbox for '${doc.script}' of skill '${doc.name}' (${doc.sandbox}):`,
    `  grant: ${grantSummary({ grant: doc.grant }, doc.sandbox)}`,
    ...doc.notes.map((n) => `  note: ${n}`),
    "",
    "Command line:",
    `  ${doc.commandLine.map(shellQuote).join(" ")}`,
  ].join("\n");
}

/** Runs `run` (or shows its line). */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const [name, path, ...args] = request.args;
  const o = request.options;
  const show = o.show === true;
  const doc = await runtime.run(name, path, {
    workdir: typeof o.workdir === "string" ? o.workdir : undefined,
    timeoutSeconds: typeof o.timeout === "string" ? o.timeout : undefined,
    args,
    yes: o.yes === true,
    confirm: ctx.confirm,
    stdin: "inherit",
    envValues: ctx.envValues,
    groups: ctx.processGroups,
    dryRun: show,
  });
  if (show) {
    const shown = { ...doc, plan: ctx.plan };
    return respond(request.global, shown, () => showText(doc));
  }
  const exitCode = doc.exitCode ?? 1;
  if (request.global.json) return { exitCode, stdout: jsonText(doc), stderr: "" };
  const notes = doc.notes.map((n) => `skillrt: note: ${n}\n`).join("");
  return { exitCode, stdout: doc.stdout ?? "", stderr: (doc.stderr ?? "") + notes };
}
