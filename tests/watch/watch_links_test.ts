/**
 * Attacks on what a long-lived runtime (`watch: true`, the MCP server) now
 * remembers per catalog ([PERF-5]): the hub lock, a skill's text, its file listing and
 * summaries (read on the watch helper's thread), and names given as paths resolved from
 * the scan the catalog holds. A file watcher does not see every change: Deno drops the
 * event of a path that resolves outside the watched folder (a link made there, or moved
 * in over a file), and a hard link written through its other name changes nothing the
 * watcher looks at. Each attack makes such a change below a watched root and checks that
 * the very next call tells what a fresh command tells (the real CLI, where it refuses).
 */
import { deepEqual, equal, notEqual, rejects } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { SETTLED_MS, settledStamp, stampHolds, watcherSees } from "../../src/scan/watcher_sees.ts";
import { cli, makeCanary, makeTree, removeTrees, skill, testHost } from "../helpers.ts";
import { assertExcludes, assertIncludes, assertStartsWith } from "../asserts.ts";

/** A lock that installed `helper` (folder `helper` of the local root) with `trust`. */
const lock = (trust: string) =>
  JSON.stringify({
    version: 1,
    installed: {
      helper: { source: "https://x.example/h.tgz", trust_level: trust, install_path: "helper" },
    },
  });

/**
 * A watching runtime over `home`, its watchers open (after the first answer) and every
 * root scanned once under them (as a list does): a name given as a path then resolves
 * from the scan the catalog holds.
 */
async function watching(home: string): Promise<SkillRuntime> {
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  await rt.currentCatalog();
  deepEqual((await rt.watchStatus()).filter((s) => s.state !== "watched"), []);
  await rt.list({ catalog: await rt.currentCatalog() });
  return rt;
}

const viewOf = async (rt: SkillRuntime, name: string) =>
  await rt.view(name, { catalog: await rt.currentCatalog() });

/**
 * The hub skill `helper` (its body holds a zero-width space, which [V-10] removes) viewed
 * once under the lock as `arrange` left it (no banner), then again after `attack` made the
 * lock on disk say `community`: sanitised, under its banner, in the view and in a file read.
 */
async function lockAttack(
  arrange: (home: string) => void,
  attack: (home: string) => void,
): Promise<void> {
  const home = makeTree({
    "skills/helper/SKILL.md": skill("helper", "Helps.", "", "# helper\n\nUse it\u200B.\n"),
    "skills/helper/references/notes.md": "# Notes\n\nRead\u200B me.\n",
    "elsewhere/lock.json": lock("community"),
  });
  arrange(home);
  // Settled (see SETTLED_MS): what the first view reads may be remembered, and is.
  await new Promise((resolve) => setTimeout(resolve, SETTLED_MS * 2));
  const rt = await watching(home);
  const banner =
    "[Untrusted skill 'helper': installed from https://x.example/h.tgz with community trust.";
  try {
    const before = await viewOf(rt, "helper");
    assertStartsWith(before.content, "---\nname: helper");
    assertIncludes(before.content, "\u200B");
    attack(home);
    const after = await viewOf(rt, "helper");
    assertStartsWith(after.content, banner, after.content.slice(0, 80));
    assertExcludes(after.content, "\u200B");
    const file = await rt.readFile("helper", "references/notes.md", {
      catalog: await rt.currentCatalog(),
    });
    assertStartsWith(file.result.content, banner);
    assertExcludes(file.result.content, "\u200B");
  } finally {
    await rt.close();
    removeTrees(home);
  }
}

Deno.test("[V-10][PERF-5] a .hub made a link (to a community lock) after the watchers opened: sanitised under its banner at the very next view", async () => {
  await lockAttack(
    () => {},
    (home) => Deno.symlinkSync(`${home}/elsewhere`, `${home}/skills/.hub`),
  );
});

Deno.test("[V-10][PERF-5] a lock.json made a link in .hub after the watchers opened: sanitised under its banner at the very next view", async () => {
  await lockAttack(
    (home) => Deno.mkdirSync(`${home}/skills/.hub`),
    (home) => Deno.symlinkSync(`${home}/elsewhere/lock.json`, `${home}/skills/.hub/lock.json`),
  );
});

Deno.test("[V-10][PERF-5] a trusted lock.json replaced by a link moved in from outside the roots: sanitised under its banner at the very next view", async () => {
  await lockAttack(
    (home) => makeTree({ "skills/.hub/lock.json": lock("trusted") }, home),
    (home) => {
      Deno.symlinkSync(`${home}/elsewhere/lock.json`, `${home}/elsewhere/tmp`);
      Deno.renameSync(`${home}/elsewhere/tmp`, `${home}/skills/.hub/lock.json`);
    },
  );
});

Deno.test("[V-10][PERF-5] a trusted lock.json hard-linked outside the roots and rewritten there: sanitised under its banner at the very next view", async () => {
  await lockAttack(
    (home) => {
      makeTree({ "skills/.hub/lock.json": lock("trusted") }, home);
      Deno.removeSync(`${home}/elsewhere/lock.json`);
      Deno.linkSync(`${home}/skills/.hub/lock.json`, `${home}/elsewhere/lock.json`);
    },
    (home) => Deno.writeTextFileSync(`${home}/elsewhere/lock.json`, lock("community")),
  );
});

Deno.test("[V-10][PERF-5] a .hub that is a dangling link, whose target appears later with a community lock: sanitised under its banner at the very next view", async () => {
  await lockAttack(
    (home) => Deno.symlinkSync(`${home}/later`, `${home}/skills/.hub`),
    (home) => makeTree({ "later/lock.json": lock("community") }, home),
  );
});

Deno.test("[S-9][PERF-5] an external skill's SKILL.md replaced by a link leaving the roots (moved in from outside): refused at the very next view as the CLI refuses it; the canary is never served", async () => {
  const canary = makeCanary();
  const home = makeTree({
    "ext/e/SKILL.md": skill("e", "E", "", "# e\n\nThe first body.\n"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  makeTree({ "SKILL.md": skill("e", "E", "", `# e\n\n${canary.secret}\n`) }, canary.dir);
  const rt = await watching(home);
  try {
    assertIncludes((await viewOf(rt, "e")).content, "The first body.");
    Deno.symlinkSync(`${canary.dir}/SKILL.md`, `${canary.dir}/tmp`);
    Deno.renameSync(`${canary.dir}/tmp`, `${home}/ext/e/SKILL.md`);
    const refusal = `Refusing to follow a symbolic link that leaves the skill roots: '${
      Deno.realPathSync(home)
    }/ext/e/SKILL.md'.`;
    const fresh = await cli(["--home", home, "view", "e"]);
    equal(fresh.stderr, `skillrt: ${refusal}\n`);
    for (const name of ["e", "e/"]) {
      await rejects(() => viewOf(rt, name), (error: Error) => {
        equal(error.message, refusal);
        return true;
      });
    }
  } finally {
    await rt.close();
    removeTrees(home, canary.dir);
  }
});

Deno.test("[S-9][R-2][PERF-5] a name given as a path, resolved from the scan the catalog holds, is refused as the filesystem path refuses it once a link outside the roots on its way is retargeted out of them", async () => {
  const home = makeTree({
    "skills/x/SKILL.md": skill("x", "X", "", "# x\n\nInside the roots.\n"),
    "ext/.keep": "",
    "out/evil/.keep": "",
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const real = Deno.realPathSync(home);
  // ext/a → out/link → skills/x: a link into the roots, followed ([S-9]).
  Deno.symlinkSync(`${real}/skills/x`, `${home}/out/link`);
  Deno.symlinkSync(`${real}/out/link`, `${home}/ext/a`);
  // The folder it is retargeted to leaves the roots; its SKILL.md links back into them.
  Deno.symlinkSync(`${real}/skills/x/SKILL.md`, `${home}/out/evil/SKILL.md`);
  const rt = await watching(home);
  try {
    const first = await viewOf(rt, "a");
    assertIncludes(first.content, "Inside the roots.");
    Deno.removeSync(`${home}/out/link`);
    Deno.symlinkSync(`${real}/out/evil`, `${home}/out/link`);
    const refusal =
      `Refusing to follow a symbolic link that leaves the skill roots: '${real}/ext/a'.`;
    const fresh = await cli(["--home", home, "view", "a"]);
    equal(fresh.stderr, `skillrt: ${refusal}\n`);
    await rejects(() => viewOf(rt, "a"), (error: Error) => {
      equal(error.message, refusal);
      return true;
    });
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5][V-2] a local skill linked to a folder outside the roots: an edit there (its SKILL.md, a reference) is seen at the very next view", async () => {
  const home = makeTree({
    "out/t/SKILL.md": skill("a", "A", "", "# a\n\nThe first body.\n"),
    "out/t/references/r.md": "# First\n",
    "skills/.keep": "",
  });
  Deno.symlinkSync(`${home}/out/t`, `${home}/skills/a`);
  const rt = await watching(home);
  const seen = async () => {
    const view = await viewOf(rt, "a");
    return [view.content.split("\n").at(-2), ...view.fileSummaries.map((s) => s.title)];
  };
  try {
    deepEqual(await seen(), ["The first body.", "First"]);
    deepEqual(await seen(), ["The first body.", "First"]);
    Deno.writeTextFileSync(`${home}/out/t/SKILL.md`, skill("a", "A", "", "# a\n\nEdited.\n"));
    Deno.writeTextFileSync(`${home}/out/t/references/r.md`, "# Second\n");
    deepEqual(await seen(), ["Edited.", "Second"]);
    Deno.writeTextFileSync(`${home}/out/t/references/s.md`, "# Third\n");
    deepEqual(await seen(), ["Edited.", "Second", "Third"]);
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[V-2][F-1][PERF-5] a linked file replaced by a link leaving the skill (moved in from outside), or hard-linked and rewritten outside: its read is proved again (refused, or the new text), the canary never shows, and the listing is as a fresh runtime's at the next change the watcher reports", async () => {
  const canary = makeCanary();
  Deno.writeTextFileSync(canary.file, `# ${canary.secret}\n\n${canary.secret}\n`);
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/a/references/r.md": "# Old\n",
    "skills/a/references/h.md": "# Hard\n",
    "ext/e/SKILL.md": skill("e", "E"),
    "ext/e/references/r.md": "# Old e\n",
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  Deno.linkSync(`${home}/skills/a/references/h.md`, `${canary.dir}/h.md`);
  const rt = await watching(home);
  const fresh = new SkillRuntime({ home, host: testHost(home) });
  const files = async (runtime: SkillRuntime, name: string) => {
    const view = await runtime.view(name, { catalog: await runtime.currentCatalog() });
    return JSON.stringify([view.linkedFiles, view.fileSummaries]);
  };
  const watched = (name: string) => files(rt, name);
  const read = async (name: string, path: string) =>
    await rt.readFile(name, path, { catalog: await rt.currentCatalog() });
  try {
    assertIncludes(await watched("a"), '"title":"Hard"');
    assertIncludes(await watched("e"), '"title":"Old e"');
    for (const dir of ["skills/a", "ext/e"]) {
      Deno.symlinkSync(canary.file, `${canary.dir}/tmp`);
      Deno.renameSync(`${canary.dir}/tmp`, `${home}/${dir}/references/r.md`);
    }
    Deno.writeTextFileSync(`${canary.dir}/h.md`, "# Rewritten\n");
    // The watcher is not told: the listing may show what it showed, never the canary, and
    // every file read is proved again.
    for (const name of ["a", "e"]) {
      assertExcludes(await watched(name), canary.secret);
      await rejects(() => read(name, "references/r.md"), /Path escapes allowed directory/);
    }
    equal((await read("a", "references/h.md")).result.content, "# Rewritten\n");
    // A change it is told of: the next view lists as a fresh runtime does.
    for (const dir of ["skills/a", "ext/e"]) {
      Deno.writeTextFileSync(`${home}/${dir}/SKILL.md`, skill(dir.slice(-1), "Touched"));
    }
    for (const name of ["a", "e"]) {
      const seen = await watched(name);
      equal(seen, await files(fresh, name));
      assertExcludes(seen, "references/r.md");
      assertExcludes(seen, canary.secret);
    }
    assertIncludes(await watched("a"), '"title":"Rewritten"');
  } finally {
    await rt.close();
    removeTrees(home, canary.dir);
  }
});

Deno.test("[L0-6][PERF-5] a category's DESCRIPTION.md made a link, or replaced by one moved in from outside the roots: the next categories call shows what a fresh runtime shows", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/ops/b/SKILL.md": skill("b", "B"),
    "skills/ops/DESCRIPTION.md": "---\ndescription: Ops work\n---\n",
    "out/dev.md": "---\ndescription: Linked dev\n---\n",
    "out/ops.md": "---\ndescription: Linked ops\n---\n",
  });
  // Settled (see SETTLED_MS): the map the first call reads may be remembered, and is.
  await new Promise((resolve) => setTimeout(resolve, SETTLED_MS * 2));
  const rt = await watching(home);
  const fresh = new SkillRuntime({ home, host: testHost(home) });
  const categories = async (runtime: SkillRuntime) =>
    (await runtime.categories({ catalog: await runtime.currentCatalog() })).categories.map((c) =>
      `${c.category}: ${c.description}`
    );
  try {
    deepEqual(await categories(rt), ["dev: null", "ops: Ops work"]);
    Deno.symlinkSync(`${home}/out/dev.md`, `${home}/skills/dev/DESCRIPTION.md`);
    deepEqual(await categories(fresh), ["dev: Linked dev", "ops: Ops work"]);
    deepEqual(await categories(rt), ["dev: Linked dev", "ops: Ops work"]);
    Deno.symlinkSync(`${home}/out/ops.md`, `${home}/out/tmp`);
    Deno.renameSync(`${home}/out/tmp`, `${home}/skills/ops/DESCRIPTION.md`);
    deepEqual(await categories(fresh), ["dev: Linked dev", "ops: Linked ops"]);
    deepEqual(await categories(rt), ["dev: Linked dev", "ops: Linked ops"]);
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5][R-2] a watching runtime remembers the resolution of a name only in its one plain spelling: a client's endless spellings of a path (./a, a//, dev/./a) add nothing to what the catalog keeps", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  const rt = await watching(home);
  try {
    const spellings = ["dev/a", "./dev/a", "dev/./a", "dev//a", "dev/a/", "././dev/a"];
    const catalog = await rt.currentCatalog();
    for (const name of spellings) equal((await viewOf(rt, name)).name, "a");
    equal(await rt.currentCatalog(), catalog); // nothing changed: the same catalog
    const kept = spellings.filter((name) =>
      catalog.memo(`resolve\0${name}`, () => undefined) !== undefined
    );
    deepEqual(kept, ["dev/a"]);
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[V-2][PERF-5] a skill of endless empty folders cannot hold a view (on the helper's thread, or here should the helper give up): its listing reads at most 5000 folders", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/a/assets/zz/last.txt": "last",
  });
  // The skill's folder, assets/, 4998 empty folders: assets/zz would be the 5001st.
  for (let i = 0; i < 4998; i++) {
    Deno.mkdirSync(`${home}/skills/a/assets/d${String(i).padStart(4, "0")}`);
  }
  const rt = await watching(home);
  try {
    equal((await viewOf(rt, "a")).linkedFiles, null);
    Deno.removeSync(`${home}/skills/a/assets/d4997`);
    deepEqual((await viewOf(rt, "a")).linkedFiles?.assets, ["assets/zz/last.txt"]);
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[S-2][R-2][PERF-5] names given as paths into support and excluded folders, resolved while the catalog holds the scan, end as the CLI's do", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/a/references/b/SKILL.md": skill("b", "B"),
    "skills/a/evals/c/SKILL.md": skill("c", "C"),
    "skills/a/sub/n/SKILL.md": skill("n", "N"),
    "skills/.git/d/SKILL.md": skill("d", "D"),
    "skills/_deprecated/e/SKILL.md": skill("e", "E"),
  });
  const rt = await watching(home);
  try {
    const names = ["a/references/b", "a/evals/c", ".git/d", "_deprecated/e", "a/sub/n", "a"];
    const ends: string[] = [];
    for (const name of names) {
      const fresh = await cli(["--home", home, "view", name, "--json"]);
      const told = fresh.code === 0
        ? `${name} -> ${JSON.parse(fresh.stdout).path}`
        : `${name}: ${JSON.parse(fresh.stdout).error}`;
      ends.push(told);
      const watched = await viewOf(rt, name).then(
        (view) => `${name} -> ${view.path}`,
        (error: Error) => `${name}: ${error.message}`,
      );
      equal(watched, told);
    }
    deepEqual(ends, [
      "a/references/b: Skill 'a/references/b' not found.",
      "a/evals/c: Skill 'a/evals/c' not found.",
      ".git/d: Skill '.git/d' not found.",
      "_deprecated/e: Skill '_deprecated/e' not found.",
      "a/sub/n -> a/sub/n",
      "a -> a",
    ]);
  } finally {
    await rt.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5] watcherSees: what a root's watcher vouches for, looked at on the disk as it is now", () => {
  const base = Deno.realPathSync(makeTree({
    "root/cat/a/SKILL.md": "plain",
    "root/cat/b/SKILL.md": "hard",
    "out/a/SKILL.md": "outside",
  }));
  const root = `${base}/root`;
  try {
    Deno.linkSync(`${root}/cat/b/SKILL.md`, `${base}/out/hard`);
    Deno.symlinkSync(`${base}/out/a`, `${root}/cat/linked`);
    Deno.symlinkSync(`${base}/out/a/SKILL.md`, `${root}/cat/a/LINK.md`);
    Deno.symlinkSync(`${base}/out`, `${root}/out`);
    Deno.symlinkSync(`${base}/none`, `${root}/dangling`);
    const seen = (rel: string) => watcherSees(root, `${root}/${rel}`);
    deepEqual(
      [
        "cat/a/SKILL.md",
        "cat/a",
        "cat/missing/SKILL.md",
        "cat/a/missing.md",
        "cat/b/SKILL.md",
        "cat/linked/SKILL.md",
        "cat/linked",
        "cat/a/LINK.md",
        "out/missing/x.md",
        "dangling/lock.json",
        "cat/./a/SKILL.md",
        "cat/a/SKILL.md/x",
      ].map((rel) => `${rel}: ${seen(rel)}`),
      [
        "cat/a/SKILL.md: true",
        "cat/a: true",
        "cat/missing/SKILL.md: true",
        "cat/a/missing.md: true",
        "cat/b/SKILL.md: false",
        "cat/linked/SKILL.md: false",
        "cat/linked: false",
        "cat/a/LINK.md: false",
        "out/missing/x.md: false",
        "dangling/lock.json: false",
        "cat/./a/SKILL.md: false",
        "cat/a/SKILL.md/x: false",
      ],
    );
    equal(watcherSees(root, `${base}/out/a/SKILL.md`), false);
    equal(watcherSees(root, `${root}2/cat/a/SKILL.md`), false);
  } finally {
    removeTrees(base);
  }
});

Deno.test("[PERF-5] a folder's stamp vouches for its entries only once settled, and stops holding when an entry is made (a link too) or the folder is swapped", async () => {
  const base = Deno.realPathSync(makeTree({ "hub/keep": "", "out/lock.json": "{}" }));
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    Deno.mkdirSync(`${base}/fresh`);
    // "Just now" however slow this machine is between the two calls: stamped in the future.
    const soon = new Date(Date.now() + 60_000);
    Deno.utimeSync(`${base}/fresh`, soon, soon);
    equal(settledStamp(`${base}/fresh`), undefined, "changed just now: no stamp");
    equal(settledStamp(`${base}/none`), undefined);
    equal(settledStamp(`${base}/hub/keep`), undefined, "a file has no stamp");
    await wait(SETTLED_MS * 3);
    const stamp = settledStamp(`${base}/hub`);
    notEqual(stamp, undefined);
    equal(stampHolds(`${base}/hub`, stamp!), true);
    Deno.symlinkSync(`${base}/out/lock.json`, `${base}/hub/lock.json`);
    equal(stampHolds(`${base}/hub`, stamp!), false, "a link made in it");
    await wait(SETTLED_MS * 3);
    const again = settledStamp(`${base}/hub`)!;
    Deno.renameSync(`${base}/hub`, `${base}/old`);
    Deno.symlinkSync(`${base}/out`, `${base}/hub`);
    equal(stampHolds(`${base}/hub`, again), false, "the folder swapped for a link");
    equal(settledStamp(`${base}/hub`), undefined, "a link has no stamp");
  } finally {
    removeTrees(base);
  }
});
