/**
 * [T-3] load: C concurrent MCP clients (the SDK's Streamable HTTP client) × N calls each,
 * alternating `skills_list` and `skill_view` (by `category/name` path), against
 * `skillrt mcp --http` run as a real CLI process on 127.0.0.1 with a generated home.
 * Reports p50/p99 latency per tool, throughput, errors, and the CPU time per call of the
 * server process and of the clients' (Linux: from /proc).
 *
 * The server opens its file watchers after its first answer, in a helper thread; until
 * they are open, every call validates the roots by modification times. `--warmup-ms`
 * (default 5000) of `skills_list` calls by one client come first, not counted, so that the
 * timed calls measure a server that has settled (no `skill_view` in the warm-up: the
 * skills' views are first read by the timed calls). `--warmup-ms 0` times a cold start.
 * The clients open their sessions before the clock starts.
 *
 * usage: deno run -A bench/mcp_http_load.ts [HOME] [--skills 1000] [--clients 32] [--calls 200]
 *        [--only skills_list|skill_view] [--warmup-ms 5000] [--markdown]
 *   $SKILLRT_REPO runs another checkout's `main.ts` as the server (a before/after pair).
 *   Without HOME, a home of --skills skills is generated with $SKILLRT_BENCH/gen_tree.py
 *   (default ../shared/bench) in a temporary folder, removed afterwards.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { WARDEN_FLAGS } from "../src/sandbox/warden_flags.ts";

const REPO = Deno.env.get("SKILLRT_REPO") ??
  new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const args = [...Deno.args];
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  if (i === -1) return fallback;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const skills = flag("--skills", 1000);
const clients = flag("--clients", 32);
const calls = flag("--calls", 200);
const warmupMs = flag("--warmup-ms", 5000);
const markdown = args.includes("--markdown");
const onlyAt = args.indexOf("--only");
const only = onlyAt === -1 ? undefined : args.splice(onlyAt, 2)[1];
const given = args.find((a) => !a.startsWith("--"));

function generate(): string {
  const home = Deno.makeTempDirSync({ prefix: "skillrt-load-" });
  const bench = Deno.env.get("SKILLRT_BENCH") ?? `${REPO}/../shared/bench`;
  const out = new Deno.Command("python3", {
    args: [`${bench}/gen_tree.py`, home, String(skills)],
  }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return home;
}

const home = given ?? generate();
const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
const port = (listener.addr as Deno.NetAddr).port;
listener.close();
const server = new Deno.Command(Deno.execPath(), {
  args: ["run", "--allow-read=/tmp,/work/main", "--allow-write=/tmp", "--allow-net=127.0.0.1", "--allow-env", "--cpu-prof", "--cpu-prof-dir=/tmp/sprof", "/tmp/srv.ts", home, `${port}`],
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
let logLines = 0;
const listening = new Promise<void>((resolve) => {
  (async () => {
    for await (const chunk of server.stderr.pipeThrough(new TextDecoderStream())) {
      if (chunk.includes("listening on")) resolve();
      logLines += chunk.split("\n").length - 1;
    }
    resolve();
  })();
});
await listening;
const url = new URL(`http://127.0.0.1:${port}/mcp`);

type Text = { content: { text: string }[]; isError?: boolean };
async function connect(): Promise<Client> {
  const client = new Client({ name: "skillrt-load", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

const first = await connect();
const listed = JSON.parse(
  // Every skill, paged in one page (over the budget a bare skills_list answers the category map).
  ((await first.callTool({ name: "skills_list", arguments: { limit: 1_000_000 } })) as Text)
    .content[0].text,
) as { skills: { name: string; category: string | null }[] };
const warmup: number[] = [];
for (const until = performance.now() + warmupMs; performance.now() < until;) {
  const t = performance.now();
  await first.callTool({ name: "skills_list", arguments: {} });
  warmup.push(performance.now() - t);
}
await first.close();
const paths = listed.skills.filter((s) => !s.name.includes(":")).map((s) =>
  s.category ? `${s.category}/${s.name}` : s.name
);

const times: Record<string, number[]> = { skills_list: [], skill_view: [] };
let errors = 0;
let start = 0;
const timeline: [number, number][] = [];
const errorSamples: string[] = [];
async function worker(client: Client, id: number): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const tool = only ?? (i % 2 === 0 ? "skill_view" : "skills_list");
    const params = tool === "skill_view" ? { name: paths[(id * calls + i) % paths.length] } : {};
    const t = performance.now();
    try {
      const r = (await client.callTool({ name: tool, arguments: params })) as Text;
      if (r.isError) {
        errors++;
        if (errorSamples.length < 3) errorSamples.push(r.content[0].text.slice(0, 200));
      }
    } catch (error) {
      errors++;
      if (errorSamples.length < 3) errorSamples.push(String(error).slice(0, 200));
    }
    times[tool].push(performance.now() - t);
    timeline.push([t - start, performance.now() - t]);
  }
  await client.close();
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux). */
function cpuMs(pid: number | "self"): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

// Every client has its session before the clock starts: the timed calls are calls only.
const sessions = await Promise.all(Array.from({ length: clients }, () => connect()));
start = performance.now();
const cpuBefore = { server: cpuMs(server.pid), clients: cpuMs("self") };
await Promise.all(sessions.map((client, i) => worker(client, i)));
const wall = (performance.now() - start) / 1000;
const cpuPerCall = (ms: number) => Number((ms / (clients * calls)).toFixed(2));
const cpu = {
  server: cpuPerCall(cpuMs(server.pid) - cpuBefore.server),
  clients: cpuPerCall(cpuMs("self") - cpuBefore.clients),
};
Deno.writeTextFileSync("/tmp/timeline.json", JSON.stringify(timeline));
server.kill("SIGTERM");
await server.status;
if (!given) Deno.removeSync(home, { recursive: true });

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const total = times.skills_list.length + times.skill_view.length;
const rows = Object.entries(times).filter(([, xs]) => xs.length > 0).map(([tool, xs]) =>
  `| \`${tool}\` | ${xs.length} | ${pct(xs, 50).toFixed(1)} ms | ${pct(xs, 99).toFixed(1)} ms |`
);
if (markdown) {
  console.log(
    [
      `${clients} clients × ${calls} calls, ${paths.length} visible skills, ${total} calls in ${
        wall.toFixed(1)
      } s: **${
        (total / wall).toFixed(0)
      } calls/s**, **${errors} errors**, ${logLines} log lines; ` +
      `CPU per call: server ${cpu.server} ms, clients ${cpu.clients} ms; ` +
      `warm-up ${warmup.length} calls in ${warmupMs} ms.`,
      "",
      "| tool | calls | p50 | p99 |",
      "|---|---:|---:|---:|",
      ...rows,
    ].join("\n"),
  );
} else {
  console.log(
    JSON.stringify(
      {
        clients,
        calls,
        skills: paths.length,
        total,
        seconds: Number(wall.toFixed(2)),
        throughput: Number((total / wall).toFixed(1)),
        errors,
        error_samples: errorSamples,
        cpu_ms_per_call: cpu,
        warmup: { ms: warmupMs, calls: warmup.length },
        latency_ms: Object.fromEntries(
          Object.entries(times).filter(([, xs]) => xs.length > 0).map(([tool, xs]) => [tool, {
            p50: Number(pct(xs, 50).toFixed(2)),
            p99: Number(pct(xs, 99).toFixed(2)),
          }]),
        ),
      },
      null,
      2,
    ),
  );
}
