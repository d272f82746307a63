/**
 * `create`, `edit`, `patch`, `delete`, `write-file`, `remove-file` ([M-1..4]), staged
 * for approval when `skills.write_approval` is on ([A-1]).
 *
 * @module
 */
import { SkillManager } from "../../manage/manager.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { actionOf } from "../manage_args.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs a management command. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const result = await new SkillManager(runtime.setup).run(actionOf(request));
  return respond(
    request.global,
    result,
    () =>
      "staged" in result
        ? `${result.message}\nPending id: ${result.pending_id} — ${result.gist}`
        : result.message,
  );
}
