import { deepEqual, equal, ok } from "node:assert/strict";
import type { Root } from "../../src/home/layout.ts";
import { scanRoot } from "../../src/scan/scan_root.ts";
import { scanWithHelper } from "../../src/scan/parallel.ts";
import { mergeRoot, planRoot, walkUnit } from "../../src/scan/walk_shared.ts";
import { DEFAULT_WALK_LIMITS, type WalkLimits } from "../../src/scan/walk.ts";
import { makeTree, skill } from "../helpers.ts";

/** A root with excluded folders, support folders, a duplicate name and links at the top. */
function tree(): { dir: string; root: Root } {
  const files: Record<string, string> = {
    "a/cat-0/deep/s-0-0/SKILL.md": skill("s-0-0", "deep in cat-0"),
    "a/cat-0/node_modules/x/SKILL.md": skill("x", "excluded"),
    "a/cat-0/.git/y/SKILL.md": skill("y", "excluded"),
    "a/cat-1/s-1-0/SKILL.md": skill("s-1-0", "first of the name"),
    "a/cat-1/s-1-0/references/r/SKILL.md": skill("r", "in a support folder"),
    "a/cat-2/s-2-0/SKILL.md": skill("s-2-0", "x"),
    "a/cat-2/s-2-1/SKILL.md": skill("s-2-1", "x"),
    "a/cat-3/s-1-0/SKILL.md": skill("s-1-0", "the same name again"),
    "a/cat-3/flat.md": "# Flat\n\nA legacy flat skill.\n",
  };
  const dir = makeTree(files);
  // Links at the top: to a folder at the top, and into a unit's tree; both are seen first.
  Deno.symlinkSync(`${dir}/a/cat-3`, `${dir}/a/top-link`);
  Deno.symlinkSync(`${dir}/a/cat-2/s-2-0`, `${dir}/a/aa-link`);
  return { dir, root: { path: `${dir}/a`, source: "local" } };
}

/** The root walked in units, each on its own, then merged (undefined: must walk alone). */
function merged(root: Root, limits: WalkLimits = DEFAULT_WALK_LIMITS) {
  const plan = planRoot(root, limits, [root.path], true);
  return mergeRoot(plan, plan.tasks.map(walkUnit));
}

Deno.test("[PERF-7][S-2] the units of a root, walked apart and merged, are the walk alone", () => {
  const { dir, root } = tree();
  try {
    const alone = scanRoot(root, DEFAULT_WALK_LIMITS, [root.path], true);
    deepEqual(merged(root), alone);
    const names = alone.records.map((r) => r.path);
    deepEqual(names, [
      "aa-link",
      "cat-0/deep/s-0-0",
      "cat-1/s-1-0",
      "cat-2/s-2-1",
      "cat-3/s-1-0",
    ]);
    equal(alone.flat.length, 1);
    // Bounds: the depth bound is noted once, as by the walk alone; past the dir bound the
    // root must be walked alone (it says where it stopped).
    const shallow = { maxDepth: 1, maxDirs: 50_000 };
    deepEqual(merged(root, shallow), scanRoot(root, shallow, [root.path], true));
    equal(
      merged(root, shallow)!.diagnostics.filter((d) => d.code === "walk.depth_limit").length,
      1,
    );
    equal(merged(root, { maxDepth: 8, maxDirs: 5 }), undefined);
    // The root a skill folder itself: its record first, nothing below it is flat.
    Deno.writeTextFileSync(`${dir}/a/SKILL.md`, skill("root-skill", "the root is a skill"));
    const rootSkill = scanRoot(root, DEFAULT_WALK_LIMITS, [root.path], true);
    deepEqual(merged(root), rootSkill);
    deepEqual([rootSkill.records[0].path, rootSkill.flat.length], ["", 0]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("[PERF-7][S-2] links that make units meet: the root is walked alone, and the scan is the same", async () => {
  const { dir, root } = tree();
  try {
    // A link in cat-1 into cat-2's tree: alone, cat-2 then skips s-2-1 (already entered);
    // apart, cat-2 would list it a second time. A variant: a link back into cat-0's tree.
    Deno.symlinkSync(`${dir}/a/cat-2/s-2-1`, `${dir}/a/cat-1/z-link`);
    equal(merged(root), undefined);
    const alone = scanRoot(root, DEFAULT_WALK_LIMITS, [root.path], true);
    ok(alone.records.some((r) => r.path === "cat-1/z-link"));
    ok(!alone.records.some((r) => r.path === "cat-2/s-2-1"));
    const none = () => undefined;
    deepEqual((await scanWithHelper([root], DEFAULT_WALK_LIMITS, none, 1, undefined, true)).roots, [
      alone,
    ]);
    Deno.removeSync(`${dir}/a/cat-1/z-link`);
    Deno.symlinkSync(`${dir}/a/cat-0/deep`, `${dir}/a/cat-3/back-link`);
    equal(merged(root), undefined);
    deepEqual((await scanWithHelper([root], DEFAULT_WALK_LIMITS, none, 1)).roots, [
      scanRoot(root, DEFAULT_WALK_LIMITS),
    ]);
    // A link to the folder above the root holds every unit: walked alone too.
    Deno.removeSync(`${dir}/a/cat-3/back-link`);
    Deno.symlinkSync(dir, `${dir}/a/cat-3/up-link`);
    equal(merged(root), undefined);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
