/**
 * [T-3] load: C concurrent MCP clients (the SDK's Streamable HTTP client) × N calls each,
 * alternating `skills_list` and `skill_view` (by `category/name` path), against
 * `skillrt mcp --http` run as a real CLI process on 127.0.0.1 with a generated home.
 * Reports p50/p99 latency per tool, throughput, errors, and the CPU time per call of the
 * server process and of the clients' (Linux: from /proc). The load itself is
 * `bench/mcp_load.ts`, shared with `bench/mcp_nginx.ts`.
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
import {
  connectClient,
  freePort,
  generateHome,
  loadArgs,
  pct,
  runLoad,
  skillPaths,
  startServer,
  warmUp,
} from "./mcp_load.ts";

const { skills, clients, calls, warmupMs, only, markdown, home: given } = loadArgs(Deno.args);

const home = given ?? generateHome(skills);
const server = await startServer(home, freePort());
const first = await connectClient(server.url);
// Every skill, paged in one page (over the budget a bare skills_list answers the category map).
const paths = await skillPaths(first);
const warmupCalls = await warmUp(first, warmupMs);
await first.close();
// Every client has its session before the clock starts: the timed calls are calls only.
const run = await runLoad({
  url: server.url,
  clients,
  calls,
  only,
  paths,
  serverPids: () => [server.pid],
});
await server.stop();
if (!given) Deno.removeSync(home, { recursive: true });

const { times, total, errors, cpuPerCall: cpu } = run;
const wall = run.seconds;
const logLines = server.logLines();
const rows = Object.entries(times).map(([tool, xs]) =>
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
      `warm-up ${warmupCalls} calls in ${warmupMs} ms.`,
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
        error_samples: run.errorSamples,
        cpu_ms_per_call: cpu,
        warmup: { ms: warmupMs, calls: warmupCalls },
        latency_ms: Object.fromEntries(
          Object.entries(times).map(([tool, xs]) => [tool, {
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
