/**
 * [PERF-6] the server as an agent meets it: the real MCP server over stdio (`main.ts mcp`
 * with the warden's flags) is started on a generated home, asked for one category's list,
 * and from that first answer on — no warm-up — asked at once for views of skills not viewed
 * before, alternating with category lists, for `--seconds`. Every call's latency is kept
 * with its time since the first answer; the report gives the worst call, p50/p99 of each
 * kind in the first 5 s and after, and every call after the first 5 s that waited more than
 * 20 ms (what a periodic stall looks like from outside).
 *
 * usage: deno run -A bench/mcp_startup.ts [--skills 1000] [--seconds 15] [--home DIR] [--json]
 *   The home is made with $SKILLRT_BENCH/gen_tree.py (default ../shared/bench) in a
 *   temporary folder, removed afterwards (`--home DIR`: one made before, kept).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SkillRuntime } from "../src/runtime.ts";
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BENCH = Deno.env.get("SKILLRT_BENCH") ?? `${REPO}/../shared/bench`;
const arg = (name: string, fallback: string) => {
  const i = Deno.args.indexOf(name);
  return i === -1 ? fallback : Deno.args[i + 1];
};
const skills = Number(arg("--skills", "1000"));
const seconds = Number(arg("--seconds", "15"));
const EARLY_MS = 5000;
const STALL_MS = 20;

/** One call: its kind, when it started (ms since the first answer) and how long it took. */
interface Call {
  kind: "view" | "list";
  at: number;
  ms: number;
}

const pct = (xs: number[], p: number) =>
  xs.length
    ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
    : NaN;
const fmt = (x: number) => `${x.toFixed(1)} ms`;

function makeHome(): { home: string; made: boolean } {
  const given = arg("--home", "");
  if (given) return { home: given, made: false };
  const home = Deno.makeTempDirSync({ prefix: "skillrt-startup-bench-" });
  const gen = new Deno.Command("python3", {
    args: [`${BENCH}/gen_tree.py`, home, String(skills)],
    stdout: "null",
  }).outputSync();
  if (!gen.success) throw new Error("gen_tree.py failed");
  return { home, made: true };
}

/** Every skill's name (shuffled by a fixed stride) and the categories, read beforehand. */
async function targets(home: string): Promise<{ names: string[]; categories: string[] }> {
  const list = await new SkillRuntime({ home }).list();
  const names = list.skills.filter((s) => !s.ambiguous).map((s) => s.name);
  const stride = 7919 % Math.max(1, names.length) || 1;
  const spread = names.map((_, i) => names[(i * stride) % names.length]);
  return { names: [...new Set(spread)], categories: list.categories };
}

async function drive(home: string, names: string[], categories: string[]) {
  const start = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp"],
    stderr: "pipe",
  });
  const client = new Client({ name: "startup-bench", version: "1" });
  await client.connect(transport);
  await client.callTool({ name: "skills_list", arguments: { category: categories[0] } });
  const zero = performance.now();
  const calls: Call[] = [];
  for (let i = 0; performance.now() - zero < seconds * 1000; i++) {
    const kind = i % 2 === 0 ? "view" : "list";
    const args = kind === "view"
      ? { name: "skill_view", arguments: { name: names[(i / 2) % names.length] } }
      : { name: "skills_list", arguments: { category: categories[i % categories.length] } };
    const t = performance.now();
    const result = await client.callTool(args);
    if (result.isError) throw new Error(`${args.name} failed: ${JSON.stringify(result.content)}`);
    calls.push({ kind, at: t - zero, ms: performance.now() - t });
  }
  await client.close();
  return { first: zero - start, calls };
}

function summary(calls: Call[], kind: Call["kind"], from: number, to: number): string {
  const xs = calls.filter((c) => c.kind === kind && c.at >= from && c.at < to).map((c) => c.ms);
  return `${xs.length} calls, p50 ${fmt(pct(xs, 0.5))} p99 ${fmt(pct(xs, 0.99))} max ${
    fmt(xs.length ? Math.max(...xs) : NaN)
  }`;
}

function report(first: number, calls: Call[]): string {
  const worst = calls.reduce((a, b) => (b.ms > a.ms ? b : a));
  const late = calls.filter((c) => c.at >= EARLY_MS && c.ms > STALL_MS);
  return [
    `home: ${skills} skills; ${seconds} s of calls from the first answer (${
      fmt(first)
    } after start)`,
    `worst call: ${worst.kind} ${fmt(worst.ms)} at ${fmt(worst.at)}`,
    `first 5 s: skill_view (first views) ${summary(calls, "view", 0, EARLY_MS)}`,
    `first 5 s: skills_list(category) ${summary(calls, "list", 0, EARLY_MS)}`,
    `after 5 s: skill_view ${summary(calls, "view", EARLY_MS, Infinity)}`,
    `after 5 s: skills_list(category) ${summary(calls, "list", EARLY_MS, Infinity)}`,
    `after 5 s, calls over ${STALL_MS} ms: ${late.length}` +
    (late.length
      ? ` (${late.slice(0, 10).map((c) => `${c.kind} ${fmt(c.ms)} at ${fmt(c.at)}`).join(", ")})`
      : ""),
  ].join("\n");
}

const { home, made } = makeHome();
try {
  const { names, categories } = await targets(home);
  const { first, calls } = await drive(home, names, categories);
  console.log(
    Deno.args.includes("--json") ? JSON.stringify({ skills, first, calls }) : report(first, calls),
  );
} finally {
  if (made) Deno.removeSync(home, { recursive: true });
}
