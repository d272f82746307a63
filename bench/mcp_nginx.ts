/**
 * [T-5] replicas behind the real nginx: `skillrt mcp --http --stateless` replicas on
 * 127.0.0.1, round-robin behind Debian's nginx (`/usr/sbin/nginx`, or `$NGINX`) started
 * with a config of its own in a temporary folder (listening on 127.0.0.1 only, its pid file,
 * logs and temporary paths in that folder), against one stateless replica (direct and
 * behind nginx) and today's stateful server, all in the same run, one after the other, each
 * started fresh: C SDK clients × N calls (`bench/mcp_load.ts`, the load of
 * `bench/mcp_http_load.ts`), p50/p99 and calls/s, errors (zero expected), CPU per call of the
 * server processes (nginx's included). Then an edit on disk is looked for through both
 * replicas and twice through nginx on the next call (restored afterwards). Every server
 * has `--token-file` (the clients send the token, nginx passes it on), so the loopback
 * Host check does not depend on the port nginx picks. Bounded by `--timeout-s`; every
 * process it started is stopped by its PID (nginx by its pid file with SIGQUIT, the
 * replicas with SIGTERM; SIGKILL after 10 s) also on failure or Ctrl-C.
 *
 * usage: deno run -A bench/mcp_nginx.ts [HOME] [--skills 1000] [--clients 32] [--calls 200]
 *        [--only skill_view|skills_list] [--warmup-ms 3000] [--timeout-s 600] [--markdown]
 *   Exits 1 on any error, an edit not seen, or the time bound.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  callJson,
  connectClient,
  freePort,
  generateHome,
  loadArgs,
  type LoadResult,
  pct,
  runLoad,
  type Server,
  skillPaths,
  type Started,
  startServer,
  stopChild,
  warmUp,
} from "./mcp_load.ts";

const { skills, clients, calls, warmupMs, only, markdown, home: given, numbers } = loadArgs(
  Deno.args,
  { "--warmup-ms": 3000, "--timeout-s": 600 },
);
const timeoutS = numbers["--timeout-s"];
const NGINX = Deno.env.get("NGINX") ?? "/usr/sbin/nginx";

/** What the benchmark started and has not stopped yet, newest last. */
const started = new Set<Started>();
const tmp = Deno.makeTempDirSync({ prefix: "skillrt-nginx-" });
Deno.chmodSync(tmp, 0o711); // nginx's workers (another user under root) reach its folders
const token = crypto.randomUUID() + crypto.randomUUID();
const tokenFile = `${tmp}/token`;
Deno.writeTextFileSync(tokenFile, token + "\n", { mode: 0o600 });

/** The `upstream` block of `ports` round-robin (docs/mcp.md, "Serve behind a proxy"). */
function upstreamBlock(name: string, ports: number[]): string {
  const servers = ports.map((p) => `    server 127.0.0.1:${p};`).join("\n");
  return `upstream ${name} {\n${servers}\n    keepalive 32;\n}`;
}

/** The `location` block that passes `/mcp` to the upstream `name`. */
function locationBlock(name: string): string {
  return [
    "location /mcp {",
    `    proxy_pass http://${name};`,
    "    proxy_http_version 1.1;",
    '    proxy_set_header Connection "";',
    "    proxy_buffering off;",
    "}",
  ].join("\n");
}

/** nginx's whole config: in the foreground, everything it writes under `dir`, 127.0.0.1 only. */
function nginxConf(dir: string, port: number, ports: number[]): string {
  const indent = (text: string, by: string) => text.replace(/^/gm, by);
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
lock_file ${dir}/nginx.lock;
error_log ${dir}/error.log warn;
worker_shutdown_timeout 3s;
events { worker_connections 1024; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${indent(upstreamBlock("skillrt", ports), "    ")}
    server {
        listen 127.0.0.1:${port};
${indent(locationBlock("skillrt"), "        ")}
    }
}
`;
}

/** A running nginx: its endpoint, and its master's and workers' PIDs. */
interface Nginx extends Started {
  url: URL;
  pids(): number[];
}

/** Waits (at most 10 s) until something accepts on 127.0.0.1:`port`; false if not. */
async function accepting(port: number, child: Deno.ChildProcess): Promise<boolean> {
  let ended = false;
  child.status.then(() => (ended = true));
  for (let i = 0; i < 100 && !ended; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

/** Starts nginx in front of `ports`; stopped by its pid file's PID with SIGQUIT (graceful). */
async function startNginx(ports: number[]): Promise<Nginx> {
  const dir = Deno.makeTempDirSync({ dir: tmp, prefix: "nginx-" });
  Deno.chmodSync(dir, 0o711);
  const port = freePort();
  Deno.writeTextFileSync(`${dir}/nginx.conf`, nginxConf(dir, port, ports));
  const child = new Deno.Command(NGINX, {
    args: ["-p", `${dir}/`, "-e", `${dir}/error.log`, "-c", `${dir}/nginx.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const master = () => {
    try {
      return Number(Deno.readTextFileSync(`${dir}/nginx.pid`).trim()) || child.pid;
    } catch {
      return child.pid;
    }
  };
  const nginx: Nginx = {
    pid: child.pid,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    pids: () => [master(), ...childrenOf(master())],
    stop: async () => {
      const pid = master();
      const workers = childrenOf(pid);
      const t = performance.now();
      try {
        if (pid !== child.pid) throw new Error(`nginx's pid file names ${pid}, not ${child.pid}`);
        await stopChild(child, "SIGQUIT");
      } finally {
        for (const w of workers.filter(running)) Deno.kill(w, "SIGKILL"); // a master killed late
      }
      console.error(`skillrt bench: nginx stopped in ${(performance.now() - t).toFixed(0)} ms`);
    },
  };
  started.add(nginx);
  if (!await accepting(port, child)) {
    throw new Error(`nginx did not start: ${Deno.readTextFileSync(`${dir}/error.log`)}`);
  }
  return nginx;
}

/** True while `pid` is a process that has not ended (Linux). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** The PIDs of a process's children (Linux). */
function childrenOf(pid: number): number[] {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim();
    return text === "" ? [] : text.split(" ").map(Number);
  } catch {
    return [];
  }
}

/** Stops what was started, newest first; nothing thrown. */
async function stopAll(): Promise<void> {
  for (const s of [...started].reverse()) {
    started.delete(s);
    await s.stop().catch((e) => console.error(`skillrt bench: stopping ${s.pid}: ${e}`));
  }
}

/** Runs `fn` with `count` fresh servers of `extra` options (with the token) on free ports. */
async function withServers<T>(
  home: string,
  count: number,
  extra: string[],
  fn: (servers: Server[]) => Promise<T>,
): Promise<T> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = await startServer(home, freePort(), [...extra, "--token-file", tokenFile]);
      started.add(s);
      servers.push(s);
    }
    return await fn(servers);
  } finally {
    await stopAll();
  }
}

/** One measured configuration. */
interface Row {
  name: string;
  run: LoadResult;
  warmupCalls: number;
  visible: number;
}

/** Warms the endpoint up, then runs the load through it. */
async function measure(name: string, url: URL, pids: () => number[]): Promise<Row> {
  const first = await connectClient(url, token);
  const paths = await skillPaths(first);
  const warmupCalls = await warmUp(first, warmupMs);
  await first.close();
  const run = await runLoad({ url, token, clients, calls, only, paths, serverPids: pids });
  return { name, run, warmupCalls, visible: paths.length };
}

/** A skill's description edited on disk: what each of `clients` sees on its next call. */
async function editSeen(clients: Client[], probe: Client): Promise<boolean> {
  const [path] = await skillPaths(probe);
  const view = await callJson(probe, "skill_view", { name: path });
  const file = `${view.skill_dir}/SKILL.md`;
  // Each has read the skill before the edit: what it remembers must not be what it answers.
  for (const c of clients) await callJson(c, "skill_view", { name: path });
  const original = Deno.readTextFileSync(file);
  const marker = `Edited at ${Date.now()}, seen by every replica.`;
  Deno.writeTextFileSync(file, original.replace(/^description: .*$/m, `description: ${marker}`));
  try {
    const seen: unknown[] = [];
    for (const c of clients) {
      seen.push((await callJson(c, "skill_view", { name: path })).description);
    }
    console.error(`skillrt bench: after the edit, ${JSON.stringify(seen)}`);
    return seen.every((d) => d === marker);
  } finally {
    Deno.writeTextFileSync(file, original);
  }
}

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

/** Every configuration, one after the other, and the edit through both replicas. */
async function runAll(home: string): Promise<{ rows: Row[]; edit: boolean }> {
  const rows: Row[] = [];
  const stateless = ["--stateless"];
  rows.push(
    await withServers(home, 1, [], ([s]) => measure("stateful, direct", s.url, () => [s.pid])),
  );
  rows.push(
    await withServers(
      home,
      1,
      stateless,
      ([r]) => measure("stateless, 1 replica, direct", r.url, () => [r.pid]),
    ),
  );
  rows.push(
    await withServers(home, 1, stateless, async ([r]) => {
      const nginx = await startNginx([r.port]);
      return await measure("stateless, 1 replica behind nginx", nginx.url, () => [
        r.pid,
        ...nginx.pids(),
      ]);
    }),
  );
  let edit = false;
  rows.push(
    await withServers(home, 2, stateless, async (rs) => {
      const nginx = await startNginx(rs.map((r) => r.port));
      const row = await measure("stateless, 2 replicas behind nginx", nginx.url, () => [
        ...rs.map((r) => r.pid),
        ...nginx.pids(),
      ]);
      const through = await Promise.all(
        [rs[0].url, rs[1].url, nginx.url, nginx.url].map((u) => connectClient(u, token)),
      );
      edit = await editSeen(through, through[0]);
      for (const c of through) await c.close();
      return row;
    }),
  );
  return { rows, edit };
}

function report(rows: Row[], edit: boolean, loads: string[]): void {
  const ms = (xs: number[], p: number) => `${pct(xs, p).toFixed(1)} ms`;
  const lines = rows.map(({ name, run }) => {
    const all = Object.values(run.times).flat();
    const perTool = Object.entries(run.times).map(([t, xs]) =>
      `${t} ${ms(xs, 50)} / ${ms(xs, 99)}`
    );
    return `| ${name} | ${(run.total / run.seconds).toFixed(0)} | ${run.errors} | ${
      ms(all, 50)
    } | ${ms(all, 99)} | ${perTool.join("; ")} | ${run.cpuPerCall.server} ms |`;
  });
  const summary = `${clients} clients × ${calls} calls${only ? ` (${only} only)` : " (mixed)"}, ${
    rows[0]?.visible
  } visible skills; load average ${loads[0]} before, ${
    loads[1]
  } after; edit seen through both replicas and nginx: ${edit}`;
  if (!markdown) {
    console.log(
      JSON.stringify(
        { clients, calls, only, loads, edit, rows },
        (k, v) => k === "times" ? undefined : v,
        2,
      ),
    );
    return;
  }
  console.log([
    summary,
    "",
    "| configuration | calls/s | errors | p50 | p99 | per tool p50 / p99 | server CPU per call |",
    "| --- | ---: | ---: | ---: | ---: | --- | ---: |",
    ...lines,
  ].join("\n"));
}

const watchdog = setTimeout(async () => {
  console.error(`skillrt bench: over ${timeoutS} s; stopping everything`);
  await stopAll();
  Deno.exit(1);
}, timeoutS * 1000);
const interrupted = async () => {
  await stopAll();
  Deno.exit(130);
};
Deno.addSignalListener("SIGINT", interrupted);
const home = given ?? generateHome(skills);
let failed = true;
try {
  const before = load();
  const { rows, edit } = await runAll(home);
  report(rows, edit, [before, load()]);
  failed = !edit || rows.some((r) => r.run.errors > 0);
  for (const r of rows) for (const s of r.run.errorSamples) console.error(`${r.name}: ${s}`);
} finally {
  await stopAll();
  clearTimeout(watchdog);
  Deno.removeSignalListener("SIGINT", interrupted);
  Deno.removeSync(tmp, { recursive: true });
  if (!given) Deno.removeSync(home, { recursive: true });
}
Deno.exit(failed ? 1 : 0);
