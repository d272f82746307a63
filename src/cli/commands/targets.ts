/**
 * The first step of every writing command ([X-1]): inside a Worker that may only read,
 * check the request and work out exactly which paths it will write — each command's own
 * module says (its `targets`). The warden then runs the command in a second Worker
 * granted write to those paths and nothing else.
 *
 * @module
 */
import type { ExecuteContext, Grants } from "../context.ts";
import type { SkillRuntime } from "../../runtime.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs the plan step for `--for COMMAND`: its typed result `{ success: true, paths, net, … }`. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const inner = { ...request, command: String(request.options.for) };
  const grants: Grants = { net: [], run: [], env: [], planWith: [] };
  const targets = await ctx.targetsOf?.(inner.command);
  const paths = [...new Set(targets ? await targets(runtime, inner, grants) : [])].sort();
  return { exitCode: 0, stdout: "", stderr: "", result: { success: true, paths, ...grants } };
}
