/**
 * The load generator the MCP HTTP benchmarks share ([T-3], [T-5]): the real CLI started as a
 * server (`main.ts mcp --http …` with the warden's flags) on 127.0.0.1, the SDK's Streamable
 * HTTP clients, a warm-up, and C clients × N calls alternating `skill_view` (by
 * `category/name` path) and `skills_list`, timed per tool, with errors counted and the CPU
 * time per call of the server processes and of the clients (Linux: from /proc).
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

/** The checkout whose `main.ts` is served (`$SKILLRT_REPO`, else this one). */
export const REPO = Deno.env.get("SKILLRT_REPO") ??
  new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** A home of `skills` skills made by `$SKILLRT_BENCH/gen_tree.py` in a temporary folder. */
export function generateHome(skills: number): string {
  const home = Deno.makeTempDirSync({ prefix: "skillrt-load-" });
  const bench = Deno.env.get("SKILLRT_BENCH") ?? `${REPO}/../shared/bench`;
  const out = new Deno.Command("python3", {
    args: [`${bench}/gen_tree.py`, home, String(skills)],
  }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return home;
}

/** A port free on 127.0.0.1 now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A child process the benchmark started, and how to stop it by its PID. */
export interface Started {
  /** Its PID. */
  pid: number;
  /** Stops it (the signal, then SIGKILL after `ms`) and waits for it. */
  stop(): Promise<void>;
}

/** Sends `signal` to `child`; SIGKILL if it has not ended within `ms`. */
export async function stopChild(
  child: Deno.ChildProcess,
  signal: Deno.Signal = "SIGTERM",
  ms = 10_000,
): Promise<void> {
  try {
    child.kill(signal);
  } catch {
    return; // already ended
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), ms)));
  if (await Promise.race([child.status, late]) === "late") {
    try {
      child.kill("SIGKILL");
    } catch { /* ended meanwhile */ }
    await child.status;
  }
  clearTimeout(timer);
}

/** A running `mcp --http` server. */
export interface Server extends Started {
  /** Its endpoint. */
  url: URL;
  /** Its port. */
  port: number;
  /** How many lines it wrote to stderr so far (one per request). */
  logLines(): number;
}

/** Starts `main.ts --home HOME mcp --http --port PORT …extra` and waits (at most 60 s) until it listens. */
export async function startServer(
  home: string,
  port: number,
  extra: string[] = [],
): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp", "--http"]
      .concat(["--port", `${port}`, ...extra]),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let lines = 0;
  let tail = "";
  const listening = new Promise<boolean>((resolve) => {
    setTimeout(() => resolve(false), 60_000);
    (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
        if (chunk.includes("listening on")) resolve(true);
        lines += chunk.split("\n").length - 1;
        tail = (tail + chunk).slice(-400);
      }
      resolve(false);
    })();
  });
  const server: Server = {
    pid: child.pid,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    logLines: () => lines,
    stop: () => stopChild(child),
  };
  if (!await listening) {
    await server.stop();
    throw new Error(`the server on port ${port} did not start: ${tail}`);
  }
  return server;
}

/** The SDK's client connected to `url`, with the bearer token when given. */
export async function connectClient(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: "skillrt-load", version: "1" });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  return client;
}

type Text = { content: { text: string }[]; isError?: boolean };

/** The JSON document of a tool's answer (its first text). */
export async function callJson(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args })) as Text;
  if (r.isError) throw new Error(`${name}: ${r.content[0].text.slice(0, 200)}`);
  return JSON.parse(r.content[0].text);
}

/** Every visible skill as `category/name` (a plugin's `ns:name` left out), in one page. */
export async function skillPaths(client: Client): Promise<string[]> {
  const listed = await callJson(client, "skills_list", { limit: 1_000_000 }) as {
    skills: { name: string; category: string | null }[];
  };
  return listed.skills.filter((s) => !s.name.includes(":")).map((s) =>
    s.category ? `${s.category}/${s.name}` : s.name
  );
}

/** `skills_list` calls by one client for `ms` milliseconds (no views: first views are timed); how many. */
export async function warmUp(client: Client, ms: number): Promise<number> {
  let calls = 0;
  for (const until = performance.now() + ms; performance.now() < until; calls++) {
    await client.callTool({ name: "skills_list", arguments: {} });
  }
  return calls;
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux). */
export function cpuMs(pid: number | "self"): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

/** The p-th percentile of `xs`. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** What one load run is. */
export interface Load {
  /** The endpoint the clients call. */
  url: URL;
  /** The bearer token, when the server wants one. */
  token?: string;
  /** Concurrent clients. */
  clients: number;
  /** Calls each. */
  calls: number;
  /** One tool only, else `skill_view` and `skills_list` alternating. */
  only?: string;
  /** The skills `skill_view` names, in turn. */
  paths: string[];
  /** The server processes whose CPU time is counted. */
  serverPids: () => number[];
}

/** What one load run measured. */
export interface LoadResult {
  /** Latencies per tool, in milliseconds. */
  times: Record<string, number[]>;
  /** Calls that failed or answered `isError`. */
  errors: number;
  /** The first few errors. */
  errorSamples: string[];
  /** Wall time of the timed calls, in seconds. */
  seconds: number;
  /** Calls made. */
  total: number;
  /** CPU time per call, in milliseconds: the servers' and the clients'. */
  cpuPerCall: { server: number; clients: number };
}

/** One client's calls; its latencies go into `times`, its failures into `result`. */
async function clientCalls(load: Load, client: Client, id: number, result: LoadResult) {
  for (let i = 0; i < load.calls; i++) {
    const tool = load.only ?? (i % 2 === 0 ? "skill_view" : "skills_list");
    const args = tool === "skill_view"
      ? { name: load.paths[(id * load.calls + i) % load.paths.length] }
      : {};
    const t = performance.now();
    try {
      const r = (await client.callTool({ name: tool, arguments: args })) as Text;
      if (r.isError) throw new Error(r.content[0].text);
    } catch (error) {
      result.errors++;
      if (result.errorSamples.length < 3) result.errorSamples.push(String(error).slice(0, 200));
    }
    (result.times[tool] ??= []).push(performance.now() - t);
  }
  await client.close();
}

/** Connects every client (before the clock starts), then times their calls. */
export async function runLoad(load: Load): Promise<LoadResult> {
  const clients = await Promise.all(
    Array.from({ length: load.clients }, () => connectClient(load.url, load.token)),
  );
  const result: LoadResult = {
    times: {},
    errors: 0,
    errorSamples: [],
    seconds: 0,
    total: 0,
    cpuPerCall: { server: 0, clients: 0 },
  };
  const serverCpu = () => load.serverPids().reduce((sum, pid) => sum + cpuMs(pid), 0);
  const before = { server: serverCpu(), clients: cpuMs("self") };
  const start = performance.now();
  await Promise.all(
    clients.map((client: Client, i: number) => clientCalls(load, client, i, result)),
  );
  result.seconds = (performance.now() - start) / 1000;
  result.total = Object.values(result.times).reduce((n, xs) => n + xs.length, 0);
  const perCall = (ms: number) => Number((ms / result.total).toFixed(2));
  result.cpuPerCall = {
    server: perCall(serverCpu() - before.server),
    clients: perCall(cpuMs("self") - before.clients),
  };
  return result;
}

/** The numeric flags every load benchmark takes, and their defaults. */
const LOAD_NUMBERS = { "--skills": 1000, "--clients": 32, "--calls": 200, "--warmup-ms": 5000 };

/** A load benchmark's command line. */
export interface LoadArgs {
  /** `--skills` of the generated home, `--clients`, `--calls` each, `--warmup-ms`. */
  skills: number;
  clients: number;
  calls: number;
  warmupMs: number;
  /** Every numeric flag's value, by its name (`--timeout-s`), the four above too. */
  numbers: Record<string, number>;
  /** `--only TOOL`. */
  only?: string;
  /** `--markdown`. */
  markdown: boolean;
  /** The HOME given, if any. */
  home?: string;
}

/** Reads a load benchmark's command line; `numbers` adds numeric flags or other defaults. */
export function loadArgs(argv: string[], numbers: Record<string, number> = {}): LoadArgs {
  const args = [...argv];
  const take = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args.splice(i, 2)[1];
  };
  const values: Record<string, number> = {};
  for (const [name, fallback] of Object.entries({ ...LOAD_NUMBERS, ...numbers })) {
    const given = take(name);
    values[name] = given === undefined ? fallback : Number(given);
  }
  const only = take("--only");
  return {
    skills: values["--skills"],
    clients: values["--clients"],
    calls: values["--calls"],
    warmupMs: values["--warmup-ms"],
    numbers: values,
    only,
    markdown: args.includes("--markdown"),
    home: args.find((a) => !a.startsWith("--")),
  };
}
