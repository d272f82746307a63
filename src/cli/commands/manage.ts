/**
 * `create`, `edit`, `patch`, `delete`, `write-file`, `remove-file` ([M-1..4]), `init`
 * ([M-6]) and `bundle create|edit|delete` ([B-3]), staged
 * for approval when `skills.write_approval` is on ([A-1]). What they write is scanned by
 * the guard scanner first: `dangerous` is refused unless `--force` ([HUB-4]).
 *
 * @module
 */
import { SkillManager } from "../../manage/manager.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { actionOf } from "../manage_args.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs a management command. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const result = await new SkillManager(runtime.setup).run(actionOf(request), new Date(), {
    force: request.options.force === true,
  });
  const warnings = (result.warnings ?? []).map((w) => `Warning: ${w}`);
  return respond(
    request.global,
    result,
    () =>
      [
        "staged" in result
          ? `${result.message}\nPending id: ${result.pendingId} — ${result.gist}${
            result.scanVerdict ? ` (scan: ${result.scanVerdict})` : ""
          }`
          : result.message,
        // `init` says where its skeleton is, and what comes next.
        ...(request.command === "init" && "path" in result
          ? [
            `Wrote ${result.path}/SKILL.md; replace its placeholders, then run 'skillrt validate ${result.name}'.`,
          ]
          : []),
        ...warnings,
      ].join("\n"),
  );
}

/** The write targets of a management command: what its action changes, or the approval queue. */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  return new SkillManager(runtime.setup).targets(actionOf(request));
}
