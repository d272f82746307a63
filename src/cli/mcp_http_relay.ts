/**
 * The warden's side of `mcp --http` ([T-3]): checks the listen address and the token
 * file, reads the token (the user's own file), and runs the MCP HTTP server in a sandbox
 * Worker whose `net` grant is exactly that address. A bind that is not loopback needs a
 * token file. SIGINT or SIGTERM stops the server cleanly.
 *
 * @module
 */
import { runWorkDir } from "./work_dir.ts";
import { UsageError } from "../errors.ts";
import { resolvePath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { isLoopback } from "../mcp/loopback.ts";
import { shellQuote } from "../warden/plan.ts";
import { startWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "./worker_host.ts";
import { mcpPlan } from "./mcp_relay.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";

/** The listen address of `mcp --http`: host, port and the `net` grant (`host:port`). */
export interface Listen {
  /** The address. */
  host: string;
  /** The port. */
  port: number;
  /** The Deno `net` grant for it. */
  grant: string;
}

/**
 * Checks the options of `mcp` that go only with others: `--stateless` needs `--http`, and
 * keeps no session for `--session-ttl` to close ([T-5]).
 * @throws {UsageError} for such an option alone.
 */
export function checkMcpOptions(options: CommandRequest["options"]): void {
  if (options.http === true && options.allowRun === true && typeof options.tokenFile !== "string") {
    // Loopback is every local user's: no one else may run this user's skills' scripts ([RUN-3]).
    throw new UsageError(
      "--allow-run over --http needs --token-file FILE: without a token every local user of this machine could run your skills' scripts.",
    );
  }
  if (options.stateless !== true) return;
  if (options.http !== true) {
    throw new UsageError("--stateless goes with --http: only the HTTP server can be stateless.");
  }
  if (options.sessionTtl !== undefined) {
    throw new UsageError("--session-ttl does not go with --stateless: it keeps no sessions.");
  }
}

/** The default listen address of `mcp --http`. */
export const DEFAULT_LISTEN = { host: "127.0.0.1", port: 8765 };

/**
 * The listen address of a request (`--host`, `--port`).
 * @throws {UsageError} for a bad port or host, or a non-loopback bind without `--token-file`.
 */
export function listenOf(options: CommandRequest["options"]): Listen {
  checkMcpOptions(options);
  const host = typeof options.host === "string" ? options.host : DEFAULT_LISTEN.host;
  const rawPort = options.port === undefined ? String(DEFAULT_LISTEN.port) : String(options.port);
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535) {
    throw new UsageError(`--port '${rawPort}' is not a port number (1–65535).`);
  }
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) throw new UsageError(`--host '${host}' is not an address.`);
  if (!isLoopback(host) && typeof options.tokenFile !== "string") {
    throw new UsageError(
      `Serving on '${host}' (not loopback) needs --token-file FILE: clients must send its token.`,
    );
  }
  const ttl = options.sessionTtl;
  if (ttl !== undefined && !/^[1-9]\d{0,6}$/.test(String(ttl))) {
    throw new UsageError(`--session-ttl '${ttl}' is not a number of seconds.`);
  }
  const port = Number(rawPort);
  return { host, port, grant: host.includes(":") ? `[${host}]:${port}` : `${host}:${port}` };
}

/**
 * This process's user id, or null when it cannot be told: `Deno.uid()` needs a `sys`
 * grant the warden does not hold, so it is the owner of a temporary file made for it.
 */
function ownUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    try {
      const probe = Deno.makeTempFileSync({ prefix: "skillrt-uid-" });
      try {
        return Deno.statSync(probe).uid;
      } finally {
        Deno.removeSync(probe);
      }
    } catch {
      return null;
    }
  }
}

/**
 * Refuses a token file others could read or swap, as ssh refuses a private key: a link, not
 * a regular file (looked at before it is opened: a FIFO would hold the open), not the
 * user's own, or open to the group or others — proved on the opened handle (the same
 * device and inode as the file looked at).
 * @throws {UsageError} one line, with the `chmod` that fixes a mode.
 */
function openTokenFile(path: string): Deno.FsFile {
  const seen = Deno.lstatSync(path);
  if (seen.isSymlink) {
    throw new UsageError(`The token file '${path}' is a symbolic link; name the file itself.`);
  }
  const notPlain = new UsageError(`The token file '${path}' is not a regular file.`);
  if (!seen.isFile) throw notPlain;
  const file = Deno.openSync(path, { read: true });
  try {
    const held = file.statSync();
    if (!held.isFile || held.ino !== seen.ino || held.dev !== seen.dev) throw notPlain;
    const uid = ownUid();
    if (uid !== null && held.uid !== null && held.uid !== uid) {
      throw new UsageError(`The token file '${path}' is owned by another user.`);
    }
    const mode = (held.mode ?? 0) & 0o777;
    if ((mode & 0o077) !== 0) {
      const shown = mode.toString(8).padStart(4, "0");
      throw new UsageError(
        `The token file '${path}' is open to other users (mode ${shown}); run: chmod 600 ${
          shellQuote(path)
        }`,
      );
    }
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/** The first 4 KiB of a file (a token is its first line). */
function readHead(file: Deno.FsFile): Uint8Array {
  const buf = new Uint8Array(4096);
  let n = 0;
  while (n < buf.length) {
    const got = file.readSync(buf.subarray(n));
    if (got === null || got === 0) break;
    n += got;
  }
  return buf.subarray(0, n);
}

/**
 * Reads the bearer token of `--token-file` (its first line, trimmed; at least 16
 * characters), from a file only its owner can read ({@linkcode openTokenFile}).
 */
export function readToken(setup: HomeLayout, file: string): string {
  const path = resolvePath(setup.host.cwd, file);
  let text: string;
  try {
    using opened = openTokenFile(path);
    text = new TextDecoder().decode(readHead(opened));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the token file '${path}': ${(error as Error).name}.`);
  }
  const token = text.split("\n")[0].trim();
  if (token.length < 16 || /[^\x21-\x7e]/.test(token)) {
    throw new UsageError(
      `The token file '${path}' must hold one token of at least 16 printable characters.`,
    );
  }
  return token;
}

/** Serves MCP over HTTP until the process is interrupted. */
export async function serveMcpHttp(
  request: CommandRequest,
  setup: HomeLayout,
  version: string,
): Promise<Outcome> {
  const listen = listenOf(request.options);
  const token = typeof request.options.tokenFile === "string"
    ? readToken(setup, request.options.tokenFile)
    : undefined;
  const allowWrites = request.options.allowWrites === true;
  const sentinel = Deno.makeTempDirSync({ prefix: "skillrt-mcp-" });
  const options = {
    ...request.options,
    version,
    sentinel,
    host: listen.host,
    port: listen.port,
    tokenFile: undefined,
    ...(token ? { token } : {}),
  };
  const worker = startWorker({
    request: { ...request, options },
    setup,
    mcp: true,
    plan: mcpPlan(
      setup,
      allowWrites,
      sentinel,
      listen.grant,
      runWorkDir(request.options, setup.host.cwd),
    ),
  }, CLI_HOST);
  const stop = () => worker.post({ kind: "mcp-close" });
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  try {
    return await worker.done;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, stop);
    Deno.removeSync(sentinel, { recursive: true });
  }
}
