/**
 * The warden's side of `mcp`: the server runs in a sandbox Worker; the warden reads
 * newline-delimited JSON-RPC from stdin, hands each message to the Worker, and writes
 * what the Worker sends to stdout. When stdin ends, the server closes.
 *
 * @module
 */
import { repositoryMarks } from "../run/kept_places.ts";
import type { JSONRPCMessage } from "../deps/mcp.ts";
import { joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { lockedWritePaths } from "../manage/mutex.ts";
import { pendingDir } from "../approval/pending.ts";
import { type PermissionPlan, runGrants } from "../warden/plan.ts";
import { planFor } from "./plan_for.ts";
import { runWorkDir } from "./work_dir.ts";
import { checkWrites } from "../warden/write_guard.ts";
import { startWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "./worker_host.ts";
import { readLine } from "../mcp/jsonrpc_line.ts";
import { writeAll } from "../worker/write_all.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";

/**
 * The plan of `mcp`: like `view`; with `--allow-writes`, the local root (or only the
 * pending queue under write approval); with `--http`, `net` for the listening address
 * `listen` (`host:port`) and nothing else ([T-3]); with `--allow-run`, what running
 * approved scripts needs ([RUN-3]): `deno` and `bwrap`, their work dir `runIn` (the
 * server's working directory, or `--workdir`) — and no approvals are ever written.
 */
export function mcpPlan(
  setup: HomeLayout,
  allowWrites: boolean,
  sentinel?: string,
  listen?: string,
  runIn?: string,
): PermissionPlan {
  let plan = mcpFilePlan(setup, allowWrites, sentinel);
  if (runIn !== undefined) {
    const grants = runGrants(plan, setup, false);
    plan = {
      ...plan,
      ...grants,
      read: [...new Set([...grants.read, runIn, ...repositoryMarks(runIn)])].sort(),
    };
  }
  return listen ? { ...plan, net: [listen] } : plan;
}

function mcpFilePlan(setup: HomeLayout, allowWrites: boolean, sentinel?: string): PermissionPlan {
  const own = sentinel ? [sentinel] : [];
  if (!allowWrites) return planFor("mcp", setup, own, own);
  const queue = [
    pendingDir(setup.home),
    ...lockedWritePaths(joinPath(pendingDir(setup.home), "queue")),
  ];
  // Skills, and the bundles of [B-3]; never config.yaml or `.env` (the user's own files).
  const writes = setup.config.write_approval
    ? queue
    : [setup.localRoot, joinPath(setup.home, "skill-bundles")];
  checkWrites("mcp", writes, setup, realPathOrUndefined);
  return planFor("mcp", setup, [joinPath(setup.home, "pending"), ...own], [...writes, ...own]);
}

function writeLine(message: JSONRPCMessage): void {
  writeAll(Deno.stdout, JSON.stringify(message) + "\n");
}

/** Serves MCP over this process's stdio until stdin ends and every request is answered. */
export async function serveMcp(
  request: CommandRequest,
  setup: HomeLayout,
  version: string,
): Promise<Outcome> {
  const allowWrites = request.options.allowWrites === true;
  // The Worker proves its cache fresh by writing in this folder (outside the home) and nowhere else.
  const sentinel = Deno.makeTempDirSync({ prefix: "skillrt-mcp-" });
  // Requests still waiting for an answer: input may end before the answers are out.
  const open = new Set<string | number>();
  let drained: (() => void) | undefined;
  const worker = startWorker(
    {
      request: { ...request, options: { ...request.options, version, sentinel } },
      setup,
      mcp: true,
      plan: mcpPlan(
        setup,
        allowWrites,
        sentinel,
        undefined,
        runWorkDir(request.options, setup.host.cwd),
      ),
    },
    CLI_HOST,
    (message) => {
      writeLine(message);
      if ("id" in message && !("method" in message)) open.delete(message.id);
      if (open.size === 0) drained?.();
    },
  );
  const decoder = new TextDecoder();
  let buffer = "";
  const feed = (text: string) => {
    buffer += text;
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line.trim() === "") continue;
      const verdict = readLine(line);
      if ("reply" in verdict) {
        writeLine(verdict.reply); // not a JSON-RPC message: an error back, and carry on
        continue;
      }
      const message = verdict.message;
      if ("id" in message && "method" in message) open.add(message.id);
      worker.post({ kind: "mcp", message });
    }
  };
  for await (const chunk of Deno.stdin.readable) feed(decoder.decode(chunk, { stream: true }));
  feed(decoder.decode() + "\n");
  if (open.size > 0) await new Promise<void>((resolve) => (drained = resolve));
  worker.post({ kind: "mcp-close" });
  try {
    return await worker.done;
  } finally {
    Deno.removeSync(sentinel, { recursive: true });
  }
}
