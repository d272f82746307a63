/**
 * MCP over Streamable HTTP ([T-3]): the same server as stdio, one SDK server and
 * web-standard transport per session, served with `Deno.serve` from inside the sandbox
 * Worker (whose only `net` grant is the listening address). Every request is checked
 * before the SDK sees it: the bearer token when one is set (compared in constant time;
 * 401 and nothing else), the Host and Origin headers on a tokenless loopback bind (no
 * DNS rebinding from a browser), the path (`/mcp`), the body size (413). Sessions expire
 * when idle and are freed when the client deletes them; one line per request goes to
 * stderr (method, JSON-RPC method and tool, status, milliseconds).
 *
 * With `stateless` ([T-5]) no session is kept: each POST gets an SDK server of its own (a
 * closed one reused) on a fresh stateless transport (no `mcp-session-id`), all of them reading the process's one runtime,
 * so replicas behind a load balancer answer alike; GET and DELETE get 405 (no server push).
 * The same checks come first.
 *
 * @module
 */
import {
  isInitializeRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "../deps/mcp.ts";
import { UsageError } from "../errors.ts";
import { sha256Hex } from "../hash/sha256.ts";
import { createSkillServer, type SkillServerOptions } from "./server.ts";

/** How the HTTP server is set up. */
export interface HttpServeOptions extends SkillServerOptions {
  /** The address to listen on. */
  host: string;
  /** The port to listen on. */
  port: number;
  /** The bearer token clients must send, when set. */
  token?: string;
  /** Idle sessions are closed after this many milliseconds. */
  sessionTtlMs?: number;
  /** The largest request body, in bytes. */
  maxBodyBytes?: number;
  /** The most sessions open at once. */
  maxSessions?: number;
  /** Where the request log lines go (stderr by default). */
  log?: (line: string) => void;
  /** [T-5] No sessions: every request is answered on its own by a fresh SDK server. */
  stateless?: boolean;
}

/** Defaults of {@linkcode HttpServeOptions}. */
export const HTTP_DEFAULTS = {
  sessionTtlMs: 15 * 60_000,
  maxBodyBytes: 1024 * 1024,
  maxSessions: 256,
};

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  seen: number;
}

/** Compares a presented token with the expected one in time that does not depend on where they differ. */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = sha256Hex(presented);
  const b = sha256Hex(expected);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function jsonError(status: number, message: string, extra: HeadersInit = {}): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...extra } },
  );
}

/** Reads a body up to `limit` bytes; undefined when it is larger. */
async function readBody(req: Request, limit: number): Promise<string | undefined> {
  const length = req.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > limit) {
    await req.body?.cancel();
    return undefined;
  }
  // A declared length bounds the body (the server never reads past it): read it at once.
  if (length !== null && /^\d+$/.test(length)) return await req.text();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of req.body ?? []) {
    total += chunk.length;
    if (total > limit) return undefined;
    chunks.push(chunk);
  }
  return new TextDecoder().decode(await new Blob(chunks.map((c) => c.slice())).arrayBuffer());
}

/** What a JSON-RPC body asks, for the log: `tools/call skill_view`, `initialize`, … */
function describe(body: unknown): string {
  const one = Array.isArray(body) ? body[0] : body;
  if (typeof one !== "object" || one === null) return "-";
  const m = one as { method?: unknown; params?: { name?: unknown } };
  if (typeof m.method !== "string") return "response";
  const tool = m.method === "tools/call" && typeof m.params?.name === "string"
    ? ` ${m.params.name}`
    : "";
  return `${m.method}${tool}`.replace(/[^\x20-\x7e]/g, "?").slice(0, 120);
}

/** The hosts a tokenless loopback server answers to (Host and Origin checks). */
function localNames(host: string, port: number): Set<string> {
  const names = new Set<string>();
  for (const h of ["127.0.0.1", "localhost", "[::1]", host.includes(":") ? `[${host}]` : host]) {
    names.add(`${h}:${port}`);
  }
  return names;
}

/** One running server: its options, limits and open sessions. */
interface Served {
  options: HttpServeOptions;
  /** The largest request body, in bytes. */
  limit: number;
  /** The most sessions open at once. */
  maxSessions: number;
  /** The `host:port` names a tokenless loopback server answers to. */
  local: Set<string>;
  /** Open sessions by id. */
  sessions: Map<string, Session>;
  /** Stateless servers between requests ([T-5]). */
  idle: Server[];
}

/** Closes sessions idle longer than `ttl` milliseconds, every so often; returns the timer. */
function sweepIdle(
  sessions: Map<string, Session>,
  ttl: number,
): ReturnType<typeof setInterval> {
  return setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) {
      if (now - s.seen > ttl) {
        sessions.delete(id);
        void s.transport.close();
      }
    }
  }, Math.max(50, Math.min(ttl / 2, 30_000)));
}

/** A new session: its own SDK server on its own transport, kept until closed. */
async function openSession(served: Served): Promise<WebStandardStreamableHTTPServerTransport> {
  const { sessions } = served;
  const transport: WebStandardStreamableHTTPServerTransport =
    new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: served.limit,
      onsessioninitialized: (id: string) => void sessions.set(id, { transport, seen: Date.now() }),
      onsessionclosed: (id: string) => void sessions.delete(id),
    });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await createSkillServer(served.options).connect(transport);
  return transport;
}

/** The answer to a request refused before the SDK sees it (token, Host/Origin, path), or undefined. */
function refusal(req: Request, served: Served): Response | undefined {
  const { token } = served.options;
  if (token !== undefined) {
    const m = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "");
    if (!m || !tokenMatches(m[1], token)) {
      return new Response("Unauthorized\n", {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="skillrt"' },
      });
    }
  } else {
    const origin = req.headers.get("origin");
    const originHost = origin ? URL.parse(origin)?.host : undefined;
    const local = served.local;
    if (!local.has(req.headers.get("host") ?? "") || (origin && !local.has(originHost ?? ""))) {
      return jsonError(403, "Forbidden: this server answers only to its local address.");
    }
  }
  if (new URL(req.url).pathname !== "/mcp") {
    return jsonError(404, "Not found: the MCP endpoint is /mcp.");
  }
  return undefined;
}

/** Answers one request: refused, answered on its own (stateless), or through its session. */
async function handle(req: Request, served: Served): Promise<Response> {
  const refused = refusal(req, served);
  if (refused) {
    await req.body?.cancel();
    return refused;
  }
  if (served.options.stateless === true) return await answerStateless(req, served);
  const id = req.headers.get("mcp-session-id");
  const session = id ? served.sessions.get(id) : undefined;
  if (id && !session) {
    await req.body?.cancel();
    return jsonError(404, "Session not found (it expired or was closed).");
  }
  if (session) session.seen = Date.now();
  if (req.method !== "POST") {
    if (!session) return jsonError(400, "Bad request: no session.");
    return await session.transport.handleRequest(req);
  }
  const read = await jsonBody(req, served.limit);
  if (read instanceof Response) return read;
  if (session) return await session.transport.handleRequest(req, { parsedBody: read.body });
  return await openingSession(req, served, read.body);
}

/** A POST's JSON-RPC body, read within the limit and named for the log line; else the refusal. */
async function jsonBody(req: Request, limit: number): Promise<{ body: unknown } | Response> {
  const text = await readBody(req, limit);
  if (text === undefined) return jsonError(413, `Request body over ${limit} bytes.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonError(400, "Parse error: the body is not JSON.");
  }
  (req as Request & { skillrt?: string }).skillrt = describe(body);
  return { body };
}

/** A POST with no session: an `initialize` opens one (within the most sessions open at once). */
async function openingSession(req: Request, served: Served, body: unknown): Promise<Response> {
  const init = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
  if (!init) return jsonError(400, "Bad request: no session; send initialize first.");
  if (served.sessions.size >= served.maxSessions) {
    return jsonError(503, "Too many sessions; try later.");
  }
  return await (await openSession(served)).handleRequest(req, { parsedBody: body });
}

/** The one-line answer of a stateless server to GET and DELETE ([T-5]). */
export const STATELESS_METHOD =
  "Method not allowed: this server is stateless (no sessions, no server push); POST JSON-RPC to /mcp.";

/** The most idle stateless servers kept for the next requests. */
const IDLE_SERVERS = 64;

/**
 * [T-5] One request, one SDK server on a fresh stateless transport (the SDK's pattern:
 * `sessionIdGenerator: undefined`), closed once it is answered; the runtime, and so the
 * watched catalog, is the process's one. Nothing is pushed: GET and DELETE get 405. A
 * closed server answers one later request at a time (making one costs more than the call):
 * its handlers hold nothing of a client — no session, no logging level, no capabilities read.
 */
async function answerStateless(req: Request, served: Served): Promise<Response> {
  if (req.method !== "POST") {
    await req.body?.cancel();
    return jsonError(405, STATELESS_METHOD, { allow: "POST" });
  }
  const read = await jsonBody(req, served.limit);
  if (read instanceof Response) return read;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: served.limit,
  });
  const server = served.idle.pop() ?? createSkillServer({ ...served.options, stateless: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody: read.body });
  } finally {
    await server.close();
    if (served.idle.length < IDLE_SERVERS) served.idle.push(server);
  }
}

/**
 * Binds the server; a port another program holds is the user's to change, said in one line.
 * @throws {UsageError} when the port is in use (exit 2).
 */
function listenOn(options: HttpServeOptions, serve: () => Deno.HttpServer): Deno.HttpServer {
  try {
    return serve();
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    throw new UsageError(
      `Port ${options.port} on ${options.host} is already in use by another program; pick a free one with --port N.`,
    );
  }
}

/** Starts the HTTP server; resolves when it stops (on `signal`). */
export async function serveHttp(options: HttpServeOptions, signal?: AbortSignal): Promise<void> {
  const log = options.log ??
    ((line: string) => Deno.stderr.writeSync(new TextEncoder().encode(line + "\n")));
  const served: Served = {
    options,
    limit: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    maxSessions: options.maxSessions ?? HTTP_DEFAULTS.maxSessions,
    local: localNames(options.host, options.port),
    sessions: new Map(),
    idle: [],
  };
  const server = listenOn(options, () =>
    Deno.serve({
      hostname: options.host,
      port: options.port,
      signal,
      onListen: ({ port }) => log(`skillrt mcp: listening on http://${options.host}:${port}/mcp`),
    }, async (req) => {
      const start = performance.now();
      let status = 500;
      try {
        const response = await handle(req, served);
        status = response.status;
        return response;
      } catch {
        return jsonError(500, "Internal error.");
      } finally {
        const what = (req as Request & { skillrt?: string }).skillrt ?? "-";
        log(
          `skillrt mcp: ${req.method} ${what} ${status} ${
            (performance.now() - start).toFixed(1)
          }ms`,
        );
      }
    }));
  const sweep = options.stateless === true
    ? undefined
    : sweepIdle(served.sessions, options.sessionTtlMs ?? HTTP_DEFAULTS.sessionTtlMs);
  await server.finished;
  clearInterval(sweep);
  for (const s of served.sessions.values()) await s.transport.close();
}
