import { JSON_NAMES, toJsonDocument } from "../../src/json_document.ts";
import { deepEqual, equal, ok } from "node:assert/strict";
import type { PluginRoot, Root } from "../../src/home/layout.ts";
import { scanRoot } from "../../src/scan/scan_root.ts";
import { walksRoot } from "../../src/resolve/resolve.ts";
import {
  helperResult,
  helperUnitsWalked,
  type ScanHelper,
  scanWithHelper,
  slimRecord,
  survivesJson,
  type ToHelper,
  unitOf,
} from "../../src/scan/parallel.ts";
import { planRoot, type UnitTask, walkUnit } from "../../src/scan/walk_shared.ts";
import { DEFAULT_WALK_LIMITS } from "../../src/scan/walk.ts";
import { cli, makeTree, skill } from "../helpers.ts";

/** Two roots and a plugin with the cases that make a scan interesting; `bulk` more skills in root a. */
function tree(bulk = 0): { dir: string; roots: (Root | PluginRoot)[] } {
  const files: Record<string, string> = {};
  for (let i = 0; i < bulk; i++) files[`a/bulk/b-${i}/SKILL.md`] = skill(`b-${i}`, `bulk ${i}`);
  for (let c = 0; c < 6; c++) {
    for (let k = 0; k < 8; k++) {
      files[`a/cat-${c}/s-${c}-${k}/SKILL.md`] = skill(`s-${c}-${k}`, "x");
    }
  }
  Object.assign(files, {
    "a/odd/SKILL.md": skill("odd", "numbers JSON cannot carry", "weight: .nan\nfloor: -.inf\n"),
    "a/broken/SKILL.md": "---\nname: broken\ndescription: never closed\n",
    "a/plain/SKILL.md": "# Plain\n\nFirst prose line is the description.\n",
    "a/outer/SKILL.md": skill("outer", "holds a nested skill"),
    "a/outer/inner/SKILL.md": skill("inner", "inside another skill"),
    "a/outer/references/ref/SKILL.md": skill("ref", "in a support folder: not a skill"),
    "a/legacy.md": "# Legacy\n\nA flat skill.\n",
    "b/s-0-0/SKILL.md": skill("s-0-0", "shadowed by root a"),
    "b/only-b/SKILL.md": skill("only-b", "external"),
    "p/tool/SKILL.md": skill("tool", "a plugin skill"),
  });
  const dir = makeTree(files);
  Deno.symlinkSync(`${dir}/a/cat-0/s-0-1`, `${dir}/a/zz-link`);
  return {
    dir,
    roots: [
      { path: `${dir}/a`, source: "local" },
      { path: `${dir}/b`, source: "external" },
      { namespace: "plug", path: `${dir}/p` },
    ],
  };
}

/** The units a scan of these roots makes: one per folder at the top of each root. */
function unitsOf(roots: (Root | PluginRoot)[]): UnitTask[] {
  return roots.flatMap((root) => planRoot(root, DEFAULT_WALK_LIMITS, [root.path], false).tasks);
}

/**
 * A real scan helper Worker reading only `dir`, ready once its first answer comes back.
 * It takes every unit left once it is asked for (`takesAll`), so the test sees its records.
 */
async function readyHelper(
  dir: string,
  roots: (Root | PluginRoot)[],
): Promise<{ helper: ScanHelper; worker: Worker }> {
  const worker = new Worker(new URL("../../src/scan/scan_helper.ts", import.meta.url), {
    type: "module",
    deno: { permissions: { read: [dir] } },
  });
  const channel = new MessageChannel();
  worker.postMessage({ port: channel.port2 }, [channel.port2]);
  const claims = new Int32Array(new SharedArrayBuffer(4));
  const tasks = unitsOf(roots).slice(0, 1);
  channel.port1.postMessage({ kind: "units", claims, tasks } satisfies ToHelper);
  await new Promise((resolve) => (channel.port1.onmessage = resolve));
  channel.port1.onmessage = null;
  return { helper: { port: channel.port1, takesAll: true }, worker };
}

Deno.test("[PERF-1][S-2] a walk shared with a helper Worker equals the one-thread scan, record for record", async () => {
  const { dir, roots } = tree(400);
  const expected = roots.map((root) => scanRoot(root, DEFAULT_WALK_LIMITS));
  const { helper, worker } = await readyHelper(dir, roots);
  const before = helperUnitsWalked();
  const scan = await scanWithHelper(roots, DEFAULT_WALK_LIMITS, () => helper, 4);
  worker.terminate();
  deepEqual(scan.roots, expected);
  // Root a's units in name order: broken, bulk (400 skills: the batch of 4 is found), then
  // the helper is asked for and walks every unit left.
  const units = unitsOf(roots);
  equal(units[1].top.rel, "bulk");
  equal(scan.units, units.length);
  equal(scan.helped, units.length - 2, "the helper walked every unit after bulk");
  equal(helperUnitsWalked() - before, scan.helped);
  const odd = expected[0].records.find((r) => r.name === "odd")!;
  ok(Number.isNaN(odd.frontmatter.weight) && odd.frontmatter.floor === -Infinity);
  // A unit with such a record goes by structured clone, which keeps NaN and -Infinity.
  const oddUnit = units.find((u) => u.top.rel === "odd")!;
  const oddDone = walkUnit(oddUnit);
  deepEqual(helperResult(7, oddDone), { id: 7, done: oddDone });
  // The rest as JSON, which gives back the whole unit.
  const plainUnit = units.find((u) => u.root === roots[1].path)!;
  const plainDone = walkUnit(plainUnit);
  const sent = helperResult(8, plainDone) as { id: number; json: string };
  equal(typeof sent.json, "string");
  deepEqual(unitOf(plainUnit, sent), plainDone);
  deepEqual(plainDone.records.map(slimRecord), JSON.parse(sent.json)[1]);
  ok(expected[0].records.some((r) => r.name === "inner"));
  ok(!expected[0].records.some((r) => r.name === "ref"));
});

Deno.test("[PERF-1] a helper that answers nothing, or has failed, leaves every unit to this thread", async () => {
  const { roots } = tree();
  const expected = roots.map((root) => scanRoot(root, DEFAULT_WALK_LIMITS));
  const silent = new MessageChannel();
  const quiet = await scanWithHelper(roots, DEFAULT_WALK_LIMITS, () => ({ port: silent.port1 }), 2);
  deepEqual(quiet.roots, expected);
  equal(quiet.helped, 0);
  silent.port1.close();
  // A helper that is left every unit, claims one and then dies: all are walked here.
  const dead = new MessageChannel();
  let fail = () => {};
  const failed = new Promise<void>((resolve) => (fail = resolve));
  let claimed = -1;
  dead.port2.onmessage = (event: MessageEvent<ToHelper>) => {
    const data = event.data;
    if (data.kind !== "units") return;
    claimed = Atomics.add(data.claims, 0, 1);
    fail();
  };
  const recovered = await scanWithHelper(
    roots,
    DEFAULT_WALK_LIMITS,
    () => ({ port: dead.port1, failed, takesAll: true }),
    2,
  );
  deepEqual(recovered.roots, expected);
  equal(recovered.helped, 0);
  ok(claimed > 0, "the dead helper had claimed a unit");
  dead.port1.close();
  dead.port2.close();
});

Deno.test("[PERF-1] a helper is asked for once, and only when a batch of skills is found", async () => {
  const { roots } = tree();
  const expected = roots.map((root) => scanRoot(root, DEFAULT_WALK_LIMITS));
  const skills = expected.reduce((n, r) => n + r.records.length, 0);
  let asked = 0;
  const none = () => {
    asked++;
    return undefined;
  };
  const small = await scanWithHelper(roots, DEFAULT_WALK_LIMITS, none, skills + 1);
  deepEqual(small.roots, expected);
  equal(asked, 0, "a scan smaller than one batch never asks");
  const big = await scanWithHelper(roots, DEFAULT_WALK_LIMITS, none, 3);
  deepEqual(big.roots, expected);
  equal(asked, 1, "asked once, then scanned alone when no helper came");
  equal(big.helped, 0);
});

Deno.test("[PERF-1] units posted before the helper is up wait in its port and are walked", async () => {
  const { dir, roots } = tree();
  const channel = new MessageChannel();
  const claims = new Int32Array(new SharedArrayBuffer(4));
  const tasks = unitsOf(roots);
  Atomics.store(claims, 0, tasks.length - 1); // this thread took all but the last
  channel.port1.postMessage({ kind: "units", claims, tasks } satisfies ToHelper);
  // Only now is the helper started and given the other end, as the warden does.
  const worker = new Worker(new URL("../../src/scan/scan_helper.ts", import.meta.url), {
    type: "module",
    deno: { permissions: { read: [dir] } },
  });
  worker.postMessage({ port: channel.port2 }, [channel.port2]);
  const answer = await new Promise<MessageEvent>((resolve) => (channel.port1.onmessage = resolve));
  worker.terminate();
  channel.port1.close();
  equal(answer.data.id, tasks.length - 1);
  ok(Atomics.load(claims, 0) >= tasks.length, "the helper claimed the last unit");
  const last = tasks[tasks.length - 1];
  deepEqual(unitOf(last, answer.data), walkUnit(last));
  equal(walkUnit(last).records[0].name, "plug:tool");
});

Deno.test("[PERF-1] records go as JSON only when JSON gives them back exactly", () => {
  ok(survivesJson({ a: [1, "x", true, null, { b: -1.5 }] }));
  for (
    const value of [
      { d: new Date(0) },
      [undefined],
      { u: undefined },
      { n: Number.NaN },
      { i: Infinity },
      { z: -0 },
      { m: new Map() },
      { b: new Uint8Array(1) },
      Object.create(null),
    ]
  ) {
    equal(survivesJson(value), false, String(Object.keys(value)));
  }
});

Deno.test("[PERF-1][X-1] the CLI's list, search and prompt with the helper match the library's one-thread answers", async () => {
  const { dir } = tree(600); // more than two batches: the helper is asked for
  const home = makeTree({ "config.yaml": `skills:\n  external_dirs: [${dir}/b]\n` });
  Deno.renameSync(`${dir}/a`, `${home}/skills`);
  const { SkillRuntime } = await import("../../src/runtime.ts");
  const runtime = new SkillRuntime({ home, env: () => undefined });
  // SKILLRT_SCAN_TRACE=1: the helper takes every batch and the CLI says how many it parsed.
  const env = { SKILLRT_SCAN_TRACE: "1" };
  const roots = [...runtime.setup.roots, ...runtime.setup.plugins];
  // The home has more than 8 folders at the top, so the warden starts the helper with the
  // Worker, and it is handed every unit from the start (takesAll: it walks them all).
  const units = unitsOf(roots);
  // 11 at the top of the home (zz-link points into the tree's old place: it leads nowhere).
  equal(units.length, 13, "the home's 11 folders at the top, the external root's 2");
  const traced = `skillrt: scan helper walked ${units.length} folders\n`;
  const list = await cli(["--home", home, "list", "--json"], { env });
  equal(list.code, 0, list.stderr);
  // The tree holds two skills without a description: `list` says so first ([L0-1], issue 26).
  const problems = "skillrt: 2 skills have problems (missing frontmatter or description, " +
    "repaired YAML, …); see 'skillrt doctor' or 'skillrt validate NAME'.\n";
  equal(list.stderr, problems + traced);
  deepEqual(JSON.parse(list.stdout), toJsonDocument(await runtime.list()));
  const search = await cli(["--home", home, "search", "s-1", "--json"], { env });
  equal(search.stderr, traced);
  deepEqual(JSON.parse(search.stdout), toJsonDocument(await runtime.search("s-1")));
  const prompt = await cli(["--home", home, "prompt", "--format", "json", "--json"], { env });
  equal(prompt.stderr, traced);
  deepEqual(JSON.parse(prompt.stdout), toJsonDocument(await runtime.prompt({ format: "json" })));
});

Deno.test("[PERF-2][R-2] walksRoot: only a bare name with no folder or flat file at the top walks the root", () => {
  const { dir } = tree();
  const root: Root = { path: `${dir}/a`, source: "local" };
  equal(walksRoot(root, "s-1-3"), true, "lives in a category: the root is walked");
  equal(walksRoot(root, "outer"), false, "a folder at the top is read directly");
  equal(walksRoot(root, "legacy"), false, "a flat file at the top is read directly");
  equal(walksRoot(root, "cat-1/s-1-3"), false, "a path is never walked for");
  equal(walksRoot(root, "plug:tool"), false, "a namespaced name looks in its plugin");
  equal(walksRoot(root, "../etc"), false, "an invalid name is refused before any walk");
});

Deno.test("[PERF-2][X-1] a bare-name view through the CLI (helper on) loads what the library loads", async () => {
  const { dir } = tree(600);
  const home = makeTree({});
  Deno.renameSync(`${dir}/a`, `${home}/skills`);
  const { SkillRuntime } = await import("../../src/runtime.ts");
  const expected = await new SkillRuntime({ home, env: () => undefined }).view("s-4-6");
  const out = await cli(["--home", home, "view", "s-4-6", "--json"], {
    env: { SKILLRT_SCAN_TRACE: "1" },
  });
  equal(out.code, 0, out.stderr);
  // Only the first root is walked for a bare name; the helper, started with the Worker, all of it.
  const units = unitsOf([{ path: `${home}/skills`, source: "local" }]);
  equal(units.length, 11);
  equal(out.stderr, `skillrt: scan helper walked ${units.length} folders\n`);
  const doc = JSON.parse(out.stdout);
  for (const key of ["name", "path", "skillDir", "content", "description"] as const) {
    deepEqual(doc[JSON_NAMES[key] ?? key], expected[key], key);
  }
  const missing = await cli(["--home", home, "view", "no-such-skill", "--json"]);
  equal(missing.code, 1);
  equal(JSON.parse(missing.stdout).error, "Skill 'no-such-skill' not found.");
});

Deno.test("[PERF-1] the warden starts a helper early only for a whole-root walk of a root with many folders", async () => {
  const { resolveHomeLayout } = await import("../../src/home/layout.ts");
  const { startsHelperEarly } = await import("../../src/warden/run_worker.ts");
  const { walksRoots } = await import("../../src/cli/command_table.ts");
  const files: Record<string, string> = {};
  for (let i = 0; i < 9; i++) files[`skills/c${i}/s${i}/SKILL.md`] = skill(`s${i}`, "x");
  const big = resolveHomeLayout({ home: makeTree(files) });
  const small = resolveHomeLayout({ home: makeTree({ "skills/c/s/SKILL.md": skill("s", "x") }) });
  const request = (command: string, args: string[] = [], options = {}) => ({
    command,
    args,
    options,
    global: { json: false, color: false },
  });
  for (
    const [req, expected] of [
      [request("list"), true],
      [request("search", ["x"]), true],
      [request("prompt"), true],
      [request("view", ["s1"]), true],
      [request("invoke", ["s1", "do", "it"]), true],
      [request("list", [], { categories: true }), false],
      [request("view", ["c1/s1"]), false],
      [request("view", ["s1", "references/a.md"]), false],
      [request("view", ["plug:s1"]), false],
      [request("doctor"), false],
    ] as const
  ) {
    equal(
      startsHelperEarly(walksRoots(req), big),
      expected,
      `${req.command} ${req.args.join(" ")}`,
    );
    equal(startsHelperEarly(walksRoots(req), small), false, `small home: ${req.command}`);
  }
});
