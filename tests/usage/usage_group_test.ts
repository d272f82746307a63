import { deepEqual, equal, match } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { flushUsage, groupUpdateUsage } from "../../src/usage/group_commit.ts";
import { connectStdio } from "../mcp/mcp_helpers.ts";
import { bumpPatch } from "../../src/usage/usage.ts";
import { makeTree, removeTrees, skill } from "../helpers.ts";

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

Deno.test("[U-1][PERF-5] a watching runtime counts views without waiting, and close() writes them", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A") });
  const rt = new SkillRuntime({ home, watch: true });
  try {
    for (let i = 0; i < 5; i++) await rt.view("a");
    await rt.close();
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.a.view_count, usage.a.use_count], [5, 5]);
    // A counter file that does not parse is left alone, and the next view says so.
    Deno.writeTextFileSync(`${home}/skills/.usage.json`, "{bad");
    const again = new SkillRuntime({ home, watch: true });
    await again.view("a");
    await flushUsage(`${home}/skills`);
    const notes = (await again.view("a")).notes ?? [];
    await again.close();
    equal(notes.length, 1);
    match(notes[0], /^Usage file '.*\.usage\.json' does not parse \(.*\); it was left as it is\.$/);
    equal(Deno.readTextFileSync(`${home}/skills/.usage.json`), "{bad");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[U-1][PERF-5] the MCP server writes every count before it exits", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A") });
  const client = await connectStdio(home);
  try {
    for (let i = 0; i < 3; i++) {
      await client.callTool({ name: "skill_view", arguments: { name: "a" } });
    }
  } finally {
    await client.close();
  }
  try {
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.a.view_count, usage.a.use_count], [3, 3]);
  } finally {
    removeTrees(home);
  }
});
