/**
 * `mcp [--allow-writes]` ([MCP-1]): serves the runtime over MCP from inside the sandbox
 * Worker; the warden relays stdio. Ends when the client closes its input.
 *
 * @module
 */
import { SkillrtError } from "../../errors.ts";
import { ChannelTransport } from "../../mcp/channel_transport.ts";
import { createSkillServer } from "../../mcp/server.ts";
import { SkillRuntime } from "../../runtime.ts";
import type { ExecuteContext } from "../execute.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs the MCP server until the client goes away. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  if (!ctx.channel) {
    throw new SkillrtError("The MCP server runs through the skillrt CLI (skillrt mcp).");
  }
  // A long-lived process: keep scans between requests, proven fresh by the watcher ([PERF-3]).
  const watching = new SkillRuntime({
    ...runtime.options,
    watch: true,
    watchSentinel: typeof request.options.sentinel === "string"
      ? request.options.sentinel
      : undefined,
  });
  const server = createSkillServer({
    runtime: watching,
    allowWrites: request.options.allowWrites === true,
    version: String(request.options.version ?? "0"),
  });
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new ChannelTransport(ctx.channel));
  await closed;
  watching.close();
  return { exitCode: 0, stdout: "", stderr: "" };
}
