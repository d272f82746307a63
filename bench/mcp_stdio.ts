/**
 * [PERF-5] the long-lived path: the real MCP server over stdio (`main.ts mcp` with the
 * warden's flags, so every call runs in the sandbox Worker) on a generated home. Reports the
 * first response against a cold CLI `list`, warm `skill_view` by bare name and
 * `skills_list` by category (p50/p99), and the delay from an edit to the next call seeing
 * it. Then the same for the library with `watch: true`. Warm calls are measured after a
 * warm-up (`--warmup-ms` of `skill_view` calls over MCP; until the watchers are open for
 * the library): the watchers open after the first answer, in a helper thread.
 *
 * usage: deno run -A bench/mcp_stdio.ts [--skills 1000] [--calls 200] [--warmup-ms 5000]
 *   The home is made with $SKILLRT_BENCH/gen_tree.py (default ../shared/bench) in a
 *   temporary folder, removed afterwards (`--home DIR`: one made before, kept).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SkillRuntime } from "../src/runtime.ts";
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BENCH = Deno.env.get("SKILLRT_BENCH") ?? `${REPO}/../shared/bench`;
const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i === -1 ? fallback : Number(Deno.args[i + 1]);
};
const skills = arg("--skills", 1000);
const calls = arg("--calls", 200);
const WARMUP_MS = arg("--warmup-ms", 5000);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const given = Deno.args.indexOf("--home");
const home = given === -1
  ? Deno.makeTempDirSync({ prefix: "skillrt-mcp-bench-" })
  : Deno.args[given + 1];
if (given === -1) {
  const gen = new Deno.Command("python3", {
    args: [`${BENCH}/gen_tree.py`, home, String(skills)],
    stdout: "null",
  }).outputSync();
  if (!gen.success) throw new Error("gen_tree.py failed");
}

function coldList(): number {
  const t = performance.now();
  new Deno.Command(Deno.execPath(), {
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "list", "--json"],
    stdout: "null",
  }).outputSync();
  return performance.now() - t;
}

/** Names and categories to ask for: spread over the home. */
async function targets(): Promise<{ names: string[]; categories: string[] }> {
  const rt = new SkillRuntime({ home });
  const list = await rt.list();
  const step = Math.max(1, Math.floor(list.skills.length / 50));
  const names = list.skills.filter((s) => !s.ambiguous).filter((_, i) => i % step === 0)
    .map((s) => s.name);
  return { names, categories: list.categories };
}

async function overMcp(names: string[], categories: string[]) {
  const start = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp"],
    stderr: "pipe",
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  await client.callTool({ name: "skills_list", arguments: { category: categories[0] } });
  const first = performance.now() - start;
  // The watchers open after the first answer, in a helper thread; calls meanwhile are
  // validated by modification times. Warm means after that: calls for WARMUP_MS first.
  const warmup: number[] = [];
  for (const until = performance.now() + WARMUP_MS; performance.now() < until;) {
    const t = performance.now();
    await client.callTool({
      name: "skill_view",
      arguments: { name: names[warmup.length % names.length] },
    });
    warmup.push(performance.now() - t);
  }
  const view: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < calls; i++) {
    let t = performance.now();
    await client.callTool({ name: "skill_view", arguments: { name: names[i % names.length] } });
    view.push(performance.now() - t);
    t = performance.now();
    await client.callTool({
      name: "skills_list",
      arguments: { category: categories[i % categories.length] },
    });
    list.push(performance.now() - t);
  }
  const edit = await editDelay(async (name) => {
    const r = await client.callTool({ name: "skill_view", arguments: { name } });
    return JSON.stringify(r.content).includes("edited by the benchmark");
  }, names[0]);
  await client.close();
  return { first, warmup, view, list, edit };
}

/** Edits a skill's description and times until the next call sees it. */
async function editDelay(sees: (name: string) => Promise<boolean>, name: string) {
  const rt = new SkillRuntime({ home });
  const file = (await rt.resolve(name)).record.file;
  const original = Deno.readTextFileSync(file);
  const t = performance.now();
  Deno.writeTextFileSync(
    file,
    original.replace(/^description: .*$/m, "description: edited by the benchmark"),
  );
  const seen = await sees(name);
  const delay = performance.now() - t;
  Deno.writeTextFileSync(file, original);
  return { seen, delay };
}

async function library(names: string[], categories: string[]) {
  const rt = new SkillRuntime({ home, watch: true });
  let t = performance.now();
  await rt.list({ category: categories[0] });
  const first = performance.now() - t;
  const warmup: number[] = [];
  t = performance.now();
  await rt.watchStatus(); // the watchers are open
  warmup.push(performance.now() - t);
  const view: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < calls; i++) {
    t = performance.now();
    await rt.view(names[i % names.length]);
    view.push(performance.now() - t);
    t = performance.now();
    await rt.list({ category: categories[i % categories.length] });
    list.push(performance.now() - t);
  }
  const edit = await editDelay(
    async (name) => (await rt.view(name)).description === "edited by the benchmark",
    names[0],
  );
  await rt.close();
  return { first, warmup, view, list, edit };
}

try {
  const cold = [coldList(), coldList(), coldList()].sort((a, b) => a - b)[1];
  const { names, categories } = await targets();
  const mcp = await overMcp(names, categories);
  const lib = await library(names, categories);
  console.log(`home: ${skills} skills; ${calls} calls of each kind; cold CLI list ${ms(cold)}`);
  for (const [label, r] of [["MCP stdio", mcp], ["library watch", lib]] as const) {
    console.log(
      `${label}: first answer ${ms(r.first)} (${(r.first / cold).toFixed(2)}x cold list); ` +
        `warm-up ${r.warmup.length} calls, max ${ms(Math.max(...r.warmup))}; ` +
        `skill_view p50 ${ms(pct(r.view, 0.5))} p99 ${ms(pct(r.view, 0.99))}; ` +
        `skills_list(category) p50 ${ms(pct(r.list, 0.5))} p99 ${ms(pct(r.list, 0.99))}; ` +
        `edit seen by the next call: ${r.edit.seen} after ${ms(r.edit.delay)}`,
    );
  }
} finally {
  if (given === -1) Deno.removeSync(home, { recursive: true });
}
