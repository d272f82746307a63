/**
 * Runs one parsed command against a setup and turns every error into an outcome of
 * [C-3]: one line, the right exit code, never a stack trace. This is what runs inside
 * the sandbox Worker; each command's code (its module in the command table) is loaded
 * only when that command runs.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { SkillRuntime } from "../runtime.ts";
import { outcomeOfError } from "./render.ts";
import { terminalOutcome } from "./terminal_text.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";
import type { ExecuteContext } from "./context.ts";
import { COMMAND_MODULES, type WorkerCommandName } from "./command_table.ts";

/** Runs a request: builds the runtime from the setup and calls the command. */
export async function executeCommand(
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  try {
    const load = Object.hasOwn(COMMAND_MODULES, request.command)
      ? COMMAND_MODULES[request.command as WorkerCommandName]
      : undefined;
    if (!load) throw new UsageError(`Unknown command '${request.command}'.`);
    const runtime = new SkillRuntime({
      setup: ctx.setup,
      platform: request.global.platform,
      sessionId: request.global.sessionId,
      toolsets: request.global.toolsets,
      tools: request.global.tools,
      env: () => undefined,
      envValues: ctx.envValues ?? (() => Promise.resolve({})),
      scanHelper: ctx.scanHelper,
      watchHelper: ctx.watchHelper,
      processGroups: ctx.processGroups,
      readiness: ctx.readiness,
    });
    const targetsOf = async (command: string) =>
      Object.hasOwn(COMMAND_MODULES, command)
        ? (await COMMAND_MODULES[command as WorkerCommandName]()).targets
        : undefined;
    const outcome = await (await load()).run(runtime, request, { ...ctx, targetsOf });
    return terminalOutcome(outcome, request.global);
  } catch (error) {
    return terminalOutcome(outcomeOfError(error, request.global, ctx.plan), request.global);
  }
}
