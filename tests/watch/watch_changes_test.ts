/**
 * [PERF-5][PERF-6] What a root's watcher must see: an edit deep in a skill, a new skill in a
 * new category, a removed skill made again — and what it must not cost: a change inside
 * node_modules, .venv or .git is no reason to scan again.
 */
import { deepEqual, equal } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";

/** A watching runtime over `home`, its watchers open, and what a call sees. */
async function watching(home: string) {
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  await rt.currentCatalog(); // the first answer
  deepEqual((await rt.watchStatus()).map((s) => s.state), ["watched"]);
  const listed = async () =>
    (await rt.list({ catalog: await rt.currentCatalog() })).skills.map((s) =>
      `${s.name}: ${s.description}`
    );
  const view = async (name: string) => await rt.view(name, { catalog: await rt.currentCatalog() });
  return { rt, listed, view };
}

Deno.test("[PERF-6][V-2] an edit deep in a skill's folder is seen by the next view", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/a/templates/deep/er/one.md": "# One\n",
  });
  const { rt, view } = await watching(home);
  try {
    deepEqual((await view("a")).linkedFiles?.templates, ["templates/deep/er/one.md"]);
    Deno.writeTextFileSync(`${home}/skills/dev/a/templates/deep/er/two.md`, "# Two\n");
    deepEqual((await view("a")).linkedFiles?.templates, [
      "templates/deep/er/one.md",
      "templates/deep/er/two.md",
    ]);
    Deno.writeTextFileSync(`${home}/skills/dev/a/templates/deep/er/one.md`, "# Uno\n");
    const titles = (await view("a")).fileSummaries.map((s) => `${s.path}: ${s.title}`);
    deepEqual(titles, ["templates/deep/er/one.md: Uno", "templates/deep/er/two.md: Two"]);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-6] a new skill in a new category is listed, and its later edits and new folders are seen", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  const { rt, listed, view } = await watching(home);
  try {
    Deno.mkdirSync(`${home}/skills/ops/n`, { recursive: true });
    Deno.writeTextFileSync(`${home}/skills/ops/n/SKILL.md`, skill("n", "N1"));
    deepEqual(await listed(), ["a: A", "n: N1"]);
    // Its folder got a watcher of its own: an edit in it is seen.
    Deno.writeTextFileSync(`${home}/skills/ops/n/SKILL.md`, skill("n", "N2"));
    deepEqual(await listed(), ["a: A", "n: N2"]);
    // And a folder made in it later too (made after its parent's watcher opened).
    equal((await view("n")).linkedFiles, null);
    Deno.mkdirSync(`${home}/skills/ops/n/templates/more`, { recursive: true });
    Deno.writeTextFileSync(`${home}/skills/ops/n/templates/more/r.md`, "# R\n");
    deepEqual((await view("n")).linkedFiles?.templates, ["templates/more/r.md"]);
    Deno.writeTextFileSync(`${home}/skills/ops/n/templates/more/s.md`, "# S\n");
    deepEqual((await view("n")).linkedFiles?.templates, [
      "templates/more/r.md",
      "templates/more/s.md",
    ]);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-6] a removed skill is unlisted, and one made again in its place is watched again", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
  });
  const { rt, listed } = await watching(home);
  try {
    Deno.removeSync(`${home}/skills/dev/b`, { recursive: true });
    deepEqual(await listed(), ["a: A"]);
    Deno.mkdirSync(`${home}/skills/dev/b`);
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B2"));
    deepEqual(await listed(), ["a: A", "b: B2"]);
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B3"));
    deepEqual(await listed(), ["a: A", "b: B3"]);
  } finally {
    rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-6] a change inside node_modules, .venv or .git costs no rescan", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/a/node_modules/p/index.js": "",
    "skills/dev/.venv/lib/x.py": "",
    "skills/.git/HEAD": "",
  });
  const { rt, listed } = await watching(home);
  try {
    deepEqual(await listed(), ["a: A"]);
    const scans = rt.scanCount;
    Deno.writeTextFileSync(`${home}/skills/dev/a/node_modules/p/index.js`, "changed");
    Deno.mkdirSync(`${home}/skills/dev/a/node_modules/q/r`, { recursive: true });
    Deno.writeTextFileSync(`${home}/skills/dev/a/node_modules/q/r/SKILL.md`, skill("q", "Q"));
    Deno.writeTextFileSync(`${home}/skills/dev/.venv/lib/x.py`, "changed");
    Deno.writeTextFileSync(`${home}/skills/.git/HEAD`, "changed");
    deepEqual(await listed(), ["a: A"]);
    equal(rt.scanCount, scans);
    // A real change after them is still seen (the watcher is alive).
    Deno.writeTextFileSync(`${home}/skills/dev/a/SKILL.md`, skill("a", "A2"));
    deepEqual(await listed(), ["a: A2"]);
    equal(rt.scanCount, scans + 1);
  } finally {
    rt.close();
    removeTrees(home);
  }
});
