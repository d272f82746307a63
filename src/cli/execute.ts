/**
 * Runs one parsed command against a setup and turns every error into an outcome of
 * [C-3]: one line, the right exit code, never a stack trace. This is what runs inside
 * the sandbox Worker; each command's code is loaded only when that command runs.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { SkillRuntime } from "../runtime.ts";
import { outcomeOfError } from "./render.ts";
import { terminalOutcome } from "./terminal_text.ts";
import type { CommandRequest, Outcome } from "./request.ts";
import type { ExecuteContext } from "./context.ts";

/** One command's implementation. */
export interface CommandModule {
  /** Runs the command and returns what to print. */
  run(
    runtime: SkillRuntime,
    request: CommandRequest,
    ctx: ExecuteContext,
  ): Outcome | Promise<Outcome>;
}

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  list: () => import("./commands/list.ts"),
  search: () => import("./commands/search.ts"),
  view: () => import("./commands/view.ts"),
  invoke: () => import("./commands/invoke.ts"),
  prompt: () => import("./commands/prompt.ts"),
  validate: () => import("./commands/validate.ts"),
  doctor: () => import("./commands/doctor.ts"),
  probe: () => import("./commands/probe.ts"),
  bundle: () => import("./commands/bundle.ts"),
  graph: () => import("./commands/graph.ts"),
  hub: () => import("./commands/hub.ts"),
  sync: () => import("./commands/sync.ts"),
  mcp: () => import("./commands/mcp.ts"),
  targets: () => import("./commands/targets.ts"),
  create: () => import("./commands/manage.ts"),
  edit: () => import("./commands/manage.ts"),
  patch: () => import("./commands/manage.ts"),
  delete: () => import("./commands/manage.ts"),
  "write-file": () => import("./commands/manage.ts"),
  "remove-file": () => import("./commands/manage.ts"),
  init: () => import("./commands/manage.ts"),
  enable: () => import("./commands/toggle.ts"),
  disable: () => import("./commands/toggle.ts"),
  setup: () => import("./commands/setup.ts"),
  pending: () => import("./commands/pending.ts"),
  curator: () => import("./commands/curator.ts"),
};

/** Runs a request: builds the runtime from the setup and calls the command. */
export async function executeCommand(
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  try {
    const load = COMMANDS[request.command];
    if (!load) throw new SkillrtError(`Unknown command '${request.command}'.`, {}, 2);
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
    return terminalOutcome(await (await load()).run(runtime, request, ctx), request.global);
  } catch (error) {
    return terminalOutcome(outcomeOfError(error, request, ctx.plan), request.global);
  }
}
