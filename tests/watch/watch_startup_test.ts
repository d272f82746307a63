/**
 * [PERF-6] The calls that come while the watchers open: the first call's scan serves them
 * (proved unchanged by stamps taken after it), so the second call does not walk the home
 * again; a view's usage write in the local root is no reason to walk it again; every edit
 * is still seen at the next call. The watchers here never open (an opener that never
 * answers): the opening window, held open.
 */
import { deepEqual, equal, notEqual } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import type { FsWatch } from "../../src/scan/watch_source.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";
import { age } from "./watch_helpers.ts";
import { assertExcludes, assertIncludes } from "../asserts.ts";

/** A watching runtime whose watchers stay opening (`asked` counts the opens), scanning as the server does. */
function opening(home: string): { rt: SkillRuntime; asked: string[] } {
  const asked: string[] = [];
  const rt = new SkillRuntime({
    home,
    host: testHost(home),
    watch: true,
    scanHelper: () => undefined, // the helped scan's path, read on this thread
    watchOpener: (paths) => {
      asked.push(paths[0]);
      return new Promise<FsWatch>(() => {});
    },
  });
  return { rt, asked };
}

Deno.test("[PERF-6] while the watchers open, the first call's scan serves the next calls, and each edit is seen", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
  });
  age(home);
  const { rt, asked } = opening(home);
  const listed = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) =>
      `${s.name}: ${s.description}`
    );
  try {
    deepEqual(await listed(), ["a: A", "b: B"]);
    equal(rt.scanCount, 1);
    deepEqual(await listed(), ["a: A", "b: B"]);
    equal(rt.scanCount, 1, "the second call walks nothing");
    deepEqual(asked, [`${home}/skills`], "asked for with the first call, never opened");
    // The usage counters are written in the local root (as a view's counts are, atomically):
    // its times change, its entries do not — no walk for that.
    Deno.writeTextFileSync(`${home}/skills/.usage.json.tmp`, "{}");
    Deno.renameSync(`${home}/skills/.usage.json.tmp`, `${home}/skills/.usage.json`);
    deepEqual(await listed(), ["a: A", "b: B"]);
    equal(rt.scanCount, 1, "a usage write is no reason to walk");
    // An edit in place: that skill is read again, nothing walked.
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B2"));
    deepEqual(await listed(), ["a: A", "b: B2"]);
    equal(rt.scanCount, 1);
    // A new category in the root: walked again, listed.
    Deno.mkdirSync(`${home}/skills/ops/n`, { recursive: true });
    Deno.writeTextFileSync(`${home}/skills/ops/n/SKILL.md`, skill("n", "N"));
    deepEqual(await listed(), ["a: A", "b: B2", "n: N"]);
    equal(rt.scanCount, 2);
    // A skill removed.
    Deno.removeSync(`${home}/skills/dev/a`, { recursive: true });
    deepEqual(await listed(), ["b: B2", "n: N"]);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-6] a file changed just before the first scan is read again at the next call (its stamp proves nothing)", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  age(home);
  // Changed now: its time is too recent to prove that the scan read what is there.
  Deno.writeTextFileSync(`${home}/skills/dev/a/SKILL.md`, skill("a", "A1"));
  const { rt } = opening(home);
  try {
    const first = (await rt.currentCatalog()).index().records[0];
    equal(first.description, "A1");
    const second = (await rt.currentCatalog()).index().records[0];
    equal(second.description, "A1");
    notEqual(second, first, "read again: its stamp was racy");
    equal(rt.scanCount, 1);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-6] a category made in the root while the first scan walks is listed at the next call", async () => {
  const tree: Record<string, string> = {};
  // Enough skills that the walk asks for a scan helper half-way (a batch is found in dev,
  // and zz is still to walk), after it has read the root: that is when the category is made.
  for (let i = 0; i < 300; i++) tree[`skills/dev/s${i}/SKILL.md`] = skill(`s${i}`, "S");
  tree["skills/zz/z/SKILL.md"] = skill("z", "Z");
  const home = makeTree(tree);
  age(home);
  let asked = 0;
  const rt = new SkillRuntime({
    home,
    host: testHost(home),
    watch: true,
    scanHelper: () => {
      if (asked++ === 0) {
        Deno.mkdirSync(`${home}/skills/ops/n`, { recursive: true });
        Deno.writeTextFileSync(`${home}/skills/ops/n/SKILL.md`, skill("n", "N"));
      }
      return undefined;
    },
    watchOpener: () => new Promise<FsWatch>(() => {}),
  });
  const names = async () => (await rt.currentCatalog()).index().records.map((r) => r.name);
  try {
    assertExcludes(await names(), "n"); // the walk had read the root already
    equal(asked > 0, true);
    assertIncludes(await names(), "n", "the root's listing, taken after, proves nothing");
  } finally {
    rt.close();
    removeTrees(home);
  }
});
