import { deepEqual, equal, match, notEqual } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { irrelevant } from "../../src/scan/watch_events.ts";
import { linkSignature, SWEEP_MS } from "../../src/scan/link_sweep.ts";
import { eventually, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

Deno.test("[PERF-3][S-4] a watching runtime reuses unchanged roots and shows every edit at once", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A0"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
    "ext/c/SKILL.md": skill("c", "C"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  try {
    await rt.currentCatalog(); // the first answer comes from a fresh scan; the watcher starts after it
    await rt.watchStatus(); // open (in a helper Worker): from now on the watcher keeps roots
    const first = (await rt.currentCatalog()).index();
    const again = (await rt.currentCatalog()).index();
    // Nothing changed: the very same records come back (no file was read again).
    equal(again.records[0], first.records[0]);
    // Reading a skill writes its usage counter: that is no change to the walk.
    await rt.view("a");
    equal((await rt.currentCatalog()).index().records[0], first.records[0]);
    for (let i = 1; i <= 20; i++) {
      Deno.writeTextFileSync(`${home}/skills/dev/a/SKILL.md`, skill("a", `A${i}`));
      const listed = await rt.list({ catalog: await rt.currentCatalog() });
      equal(listed.skills.find((s) => s.name === "a")!.description, `A${i}`, `edit ${i} not seen`);
    }
    Deno.mkdirSync(`${home}/skills/dev/new`);
    Deno.writeTextFileSync(`${home}/skills/dev/new/SKILL.md`, skill("new", "N"));
    deepEqual((await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) => s.name), [
      "c",
      "a",
      "b",
      "new",
    ]);
    Deno.removeSync(`${home}/skills/dev/b`, { recursive: true });
    Deno.renameSync(`${home}/ext/c`, `${home}/ext/renamed`);
    deepEqual((await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) => s.name), [
      "c",
      "a",
      "new",
    ]);
    // The external root changed, the local one did not: its records are reused.
    const before = (await rt.currentCatalog()).index().records.find((r) => r.name === "a");
    Deno.writeTextFileSync(`${home}/ext/renamed/SKILL.md`, skill("c", "C2"));
    const after = (await rt.currentCatalog()).index();
    equal(after.records.find((r) => r.name === "a"), before);
    equal(after.records.find((r) => r.name === "c")!.description, "C2");
  } finally {
    rt.close();
  }
});

Deno.test("[PERF-3] without watch, snapshot is a fresh catalog; changes the walk ignores do not invalidate", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A") });
  const rt = new SkillRuntime({ home, host: testHost(home) });
  notEqual(
    (await rt.currentCatalog()).index().records[0],
    (await rt.currentCatalog()).index().records[0],
  );
  equal(irrelevant("/h/skills/.usage.json"), true);
  equal(irrelevant("/h/skills/.usage.json.lock"), true);
  equal(irrelevant("/h/skills/x/node_modules/p/SKILL.md"), true);
  equal(irrelevant("/h/skills/x/SKILL.md"), false);
  // With its root: only the counters directly in it; a skill's own file of that name counts.
  equal(irrelevant("/h/skills/.usage.json", "/h/skills"), true);
  equal(irrelevant("/h/skills/x/assets/.usage.json", "/h/skills"), false);
  // The root's hub lock counts (a view reads the trust there); the rest of `.hub` does not.
  equal(irrelevant("/h/skills/.hub/lock.json", "/h/skills"), false);
  equal(irrelevant("/h/skills/.hub", "/h/skills"), false);
  equal(irrelevant("/h/skills/.hub/lock.json.lock", "/h/skills"), true);
  equal(irrelevant("/h/skills/.hub/audit.log", "/h/skills"), true);
  equal(irrelevant("/h/skills/x/.hub/lock.json", "/h/skills"), true);
});

Deno.test("[PERF-5][S-4] concurrent calls share the freshness proof, and each sees every edit made before it", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A0") });
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  const description = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills[0].description;
  try {
    await rt.currentCatalog();
    await rt.watchStatus();
    for (let round = 1; round <= 10; round++) {
      Deno.writeTextFileSync(`${home}/skills/dev/a/SKILL.md`, skill("a", `A${round}`));
      equal(await description(), `A${round}`); // kept by the cache from now on
      const early = description(); // its proof is under way…
      // …when this edit is made: the calls that start after it must see it.
      Deno.writeTextFileSync(`${home}/skills/dev/a/SKILL.md`, skill("a", `B${round}`));
      const late = Array.from({ length: 8 }, description);
      match(await early, new RegExp(`^[AB]${round}$`));
      deepEqual(await Promise.all(late), Array(8).fill(`B${round}`));
    }
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test(`[PERF-5][S-9] a skill linked into a root or a category while the watchers run is listed within ${SWEEP_MS} ms, and listeners are told`, async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "mine/x/SKILL.md": skill("x", "Developed elsewhere"),
    "mine/y/SKILL.md": skill("y", "Also elsewhere"),
  });
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  const names = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) => s.name).sort();
  let told = 0;
  const stop = rt.onChange(() => told++);
  try {
    await rt.currentCatalog();
    deepEqual((await rt.watchStatus()).filter((s) => s.state !== "watched"), []);
    deepEqual(await names(), ["a"]);
    const before = told;
    // The watcher drops these events (each path resolves outside the root).
    Deno.symlinkSync(`${home}/mine/x`, `${home}/skills/x`);
    Deno.symlinkSync(`${home}/mine/y`, `${home}/skills/dev/y`);
    // Within SWEEP_MS on an idle machine; waited for, not timed (a busy one is slower).
    await eventually(async () => (await names()).length === 3 && told > before);
    deepEqual(await names(), ["a", "x", "y"]);
    equal(told > before, true, "listeners are told");
  } finally {
    stop();
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5] the link sweep looks at a bounded number of entries, and a link retargeted changes what it sees", () => {
  const root = makeTree({ "cat/s/SKILL.md": skill("s", "S") });
  try {
    for (let i = 0; i < 5; i++) Deno.symlinkSync(`/nowhere/${i}`, `${root}/l${i}`);
    equal((JSON.parse(linkSignature(root)) as unknown[]).length, 5);
    equal((JSON.parse(linkSignature(root, 3)) as unknown[]).length < 5, true);
    Deno.symlinkSync("/t", `${root}/cat/l8`);
    const before = linkSignature(root);
    Deno.removeSync(`${root}/cat/l8`);
    Deno.symlinkSync("/u", `${root}/cat/l8`);
    notEqual(linkSignature(root), before);
  } finally {
    removeTrees(root);
  }
});
