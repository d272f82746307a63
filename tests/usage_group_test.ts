import { deepEqual } from "node:assert/strict";
import { SkillRuntime } from "../src/runtime.ts";
import { groupUpdateUsage } from "../src/usage/group_commit.ts";
import { bumpPatch } from "../src/usage/usage.ts";
import { makeTree, removeTrees, skill } from "./helpers.ts";

Deno.test("[U-1][T-3] concurrent views share usage writes and lose no count", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/b/SKILL.md": skill("b", "B"),
  });
  const rt = new SkillRuntime({ home });
  try {
    await Promise.all([
      ...Array.from({ length: 20 }, () => rt.view("a")),
      ...Array.from({ length: 7 }, () => rt.view("b")),
    ]);
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.a.view_count, usage.a.use_count, usage.b.view_count], [20, 20, 7]);
    // Every caller's change is on disk when its promise resolves.
    const results = await Promise.all(
      Array.from(
        { length: 5 },
        () => groupUpdateUsage(`${home}/skills`, (m) => bumpPatch(m, "a", new Date())),
      ),
    );
    deepEqual(results, ["updated", "updated", "updated", "updated", "updated"]);
    const after = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual(after.a.patch_count, 5);
  } finally {
    rt.close();
    removeTrees(home);
  }
});
