/**
 * `mcp [--allow-writes] [--http [--stateless] …]` ([MCP-1], [T-3], [T-5]): serves the runtime over MCP from
 * inside the sandbox Worker; the warden relays stdio, or the Worker listens on HTTP
 * itself. Ends when the client closes its input (stdio) or the warden is interrupted.
 *
 * @module
 */
import { SkillrtError } from "../../errors.ts";
import { ChannelTransport } from "../../mcp/channel_transport.ts";
import { createSkillServer } from "../../mcp/server.ts";
import { serveHttp } from "../../mcp/http.ts";
import { SkillRuntime } from "../../runtime.ts";
import type { ExecuteContext } from "../context.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

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
  const serverOptions = {
    runtime: watching,
    allowWrites: request.options.allowWrites === true,
    allowRun: request.options.allowRun === true,
    runWorkDir: typeof request.options.workdir === "string" ? request.options.workdir : undefined,
    version: String(request.options.version ?? "0"),
  };
  if (request.options.http === true) {
    // [T-3]: served from here; the warden's close signal (SIGINT, SIGTERM) stops it.
    const stop = new AbortController();
    ctx.channel.listen(() => {}, () => stop.abort());
    const { host, port, token, sessionTtl, stateless } = request.options;
    await serveHttp({
      ...serverOptions,
      stateless: stateless === true,
      host: String(host),
      port: Number(port),
      token: typeof token === "string" ? token : undefined,
      sessionTtlMs: typeof sessionTtl === "string" ? Number(sessionTtl) * 1000 : undefined,
    }, stop.signal);
    await watching.close(); // the usage counts still waiting are written before the end
    return { exitCode: 0, stdout: "", stderr: "" };
  }
  const server = createSkillServer(serverOptions);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new ChannelTransport(ctx.channel));
  await closed;
  await watching.close(); // the usage counts still waiting are written before the end
  return { exitCode: 0, stdout: "", stderr: "" };
}
