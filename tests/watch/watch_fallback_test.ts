import { deepEqual, equal, match, notEqual } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { run as doctor } from "../../src/cli/commands/doctor.ts";
import { planFor } from "../../src/cli/plan_for.ts";
import { watchInThread, type WatchOpener } from "../../src/scan/watch_source.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";

const LIMIT = 'OS file watch limit reached. about ["/x"]';

/** Watches every root but `refused`, which fails as with an exhausted inotify limit. */
function refusing(refused: string): WatchOpener {
  return (paths) => paths[0] === refused ? Promise.reject(new Error(LIMIT)) : watchInThread(paths);
}

/** Sets every file and folder below `dir` an hour back, so their stamps can prove something. */
function backdate(dir: string): void {
  const past = new Date(Date.now() - 3600_000);
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) backdate(path);
    Deno.utimeSync(path, past, past);
  }
  Deno.utimeSync(dir, past, past);
}

function home(): string {
  const h = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "ext/tools/c/SKILL.md": skill("c", "C0"),
    "ext/tools/d/SKILL.md": skill("d", "D"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  backdate(h);
  return h;
}

const description = async (rt: SkillRuntime, name: string) =>
  (await rt.list({ catalog: await rt.currentCatalog() })).skills.find((s) => s.name === name)
    ?.description;

Deno.test("[PERF-5] a root no watcher can cover is re-validated by modification times, alone", async () => {
  const h = home();
  const ext = `${Deno.realPathSync(h)}/ext`;
  const rt = new SkillRuntime({
    home: h,
    host: testHost(h),
    watch: true,
    watchOpener: refusing(ext),
  });
  try {
    await rt.currentCatalog(); // the first answer: a fresh scan; the watchers open after it
    deepEqual((await rt.watchStatus()).map((s) => [s.state, s.reason]), [
      ["watched", undefined],
      ["fallback", LIMIT],
    ]);
    const first = (await rt.currentCatalog()).index();
    const walks = rt.scanCount;
    // Unchanged: neither root is walked again, and the records are the very same.
    for (let i = 0; i < 3; i++) {
      const again = (await rt.currentCatalog()).index();
      equal(again.records.find((r) => r.name === "c"), first.records.find((r) => r.name === "c"));
    }
    equal(rt.scanCount, walks);
    // An edit in place (no folder changes): seen at once, by reading that one SKILL.md again.
    Deno.writeTextFileSync(`${h}/ext/tools/c/SKILL.md`, skill("c", "C1"));
    equal(await description(rt, "c"), "C1");
    equal(rt.scanCount, walks);
    const now = (await rt.currentCatalog()).index();
    equal(now.records.find((r) => r.name === "d"), first.records.find((r) => r.name === "d"));
    // A new skill changes a folder: that root alone is walked again.
    Deno.mkdirSync(`${h}/ext/tools/e`);
    Deno.writeTextFileSync(`${h}/ext/tools/e/SKILL.md`, skill("e", "E"));
    equal(await description(rt, "e"), "E");
    equal(rt.scanCount, walks + 1);
    const after = (await rt.currentCatalog()).index();
    equal(after.records.find((r) => r.name === "a"), first.records.find((r) => r.name === "a"));
    // A removed skill is gone on the next call.
    Deno.removeSync(`${h}/ext/tools/d`, { recursive: true });
    equal(await description(rt, "d"), undefined);
  } finally {
    rt.close();
    removeTrees(h);
  }
});

Deno.test("[PERF-5] with no watcher at all every root is validated by modification times", async () => {
  const h = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  backdate(h);
  const rt = new SkillRuntime({
    home: h,
    host: testHost(h),
    watch: true,
    watchOpener: () => Promise.reject(new Error("Too many open files (os error 24)")),
  });
  try {
    await rt.currentCatalog();
    deepEqual((await rt.watchStatus()).filter((s) => s.state !== "fallback"), []);
    equal(await description(rt, "a"), "A");
    const walks = rt.scanCount;
    equal(await description(rt, "a"), "A");
    equal(rt.scanCount, walks);
    Deno.writeTextFileSync(`${h}/skills/dev/a/SKILL.md`, skill("a", "A2"));
    equal(await description(rt, "a"), "A2");
    Deno.mkdirSync(`${h}/skills/new/b`, { recursive: true });
    Deno.writeTextFileSync(`${h}/skills/new/b/SKILL.md`, skill("b", "B"));
    equal(await description(rt, "b"), "B");
    equal(rt.scanCount, walks + 1);
  } finally {
    rt.close();
    removeTrees(h);
  }
});

Deno.test("[PERF-5][C-4] doctor names each root no watcher can cover, with the reason, in text and JSON", async () => {
  const h = home();
  const real = Deno.realPathSync(h);
  const watchOpener = refusing(`${real}/ext`);
  const rt = new SkillRuntime({ home: h, host: testHost(h), watchOpener });
  const request = (json: boolean) => ({
    command: "doctor",
    args: [],
    options: {},
    global: { json, color: false },
  });
  const ctx = { setup: rt.setup, plan: planFor("doctor", rt.setup) };
  try {
    const json = JSON.parse((await doctor(rt, request(true), ctx)).stdout);
    deepEqual(json.diagnostics, [{
      severity: "warning",
      code: "watch.fallback",
      message:
        `Changes in this root cannot be watched (${LIMIT}); the MCP server and watching library runtimes re-check its folders' modification times on every call instead.`,
      path: `${real}/ext`,
    }]);
    equal(json.success, true);
    const text = (await doctor(rt, request(false), ctx)).stdout;
    match(
      text,
      new RegExp(
        `\\n  warning watch\\.fallback  Changes in this root cannot be watched \\(OS file watch limit reached\\. about \\[".x"\\]\\); .* on every call instead\\.  \\(${real}/ext\\)\\n`,
      ),
    );
    // Every root watchable: no such finding.
    const fine = new SkillRuntime({ home: h, host: testHost(h) });
    const clean = JSON.parse((await doctor(fine, request(true), ctx)).stdout);
    notEqual(clean.diagnostics.length, 1);
    deepEqual(clean.diagnostics, []);
  } finally {
    removeTrees(h);
  }
});
