/**
 * [M-5][M-6][F-1][R-4] Small messages a new user meets: `validate NAME` checks the skill of
 * that name when no such path is here; a wrong Level-2 path suggests the closest files; the
 * CLI's not-found hint names `skillrt list`, not the MCP tool; `init` says where it wrote;
 * and its skeleton's placeholders fail every validate profile until replaced.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";

Deno.test("[M-5] validate NAME: the skill of that name when no path is called so", async () => {
  const home = makeTree({ "skills/dev/pr-review/SKILL.md": skill("pr-review", "Reviews.") });
  const work = makeTree({});
  try {
    const r = await cliJson(["--home", home, "validate", "pr-review"], { cwd: work });
    deepEqual([r.code, r.json.checked], [0, 1], r.stdout);
    const missing = await cliJson(["--home", home, "validate", "no-such"], { cwd: work });
    deepEqual([missing.code, (missing.json.findings as { rule: string }[])[0].rule], [
      1,
      "path.unreadable",
    ]);
  } finally {
    removeTrees(home, work);
  }
});

Deno.test("[F-1][R-4] a wrong Level-2 path suggests the closest files; the CLI's hint names skillrt list", async () => {
  const home = makeTree({
    "skills/tool/SKILL.md": skill("tool", "T."),
    "skills/tool/references/layers.md": "# Layers\n",
    "skills/tool/scripts/check.sh": "echo\n",
  });
  try {
    const r = await cli(["--home", home, "view", "tool", "references/layer.md"]);
    deepEqual([r.code, r.stderr], [
      1,
      "skillrt: File 'references/layer.md' not found in skill 'tool'.\nDid you mean: references/layers.md?\n",
    ]);
    const json = await cliJson(["--home", home, "view", "tool", "references/layer.md"]);
    deepEqual(json.json.suggestions, ["references/layers.md"]);
    const missing = await cliJson(["--home", home, "view", "nothing-like-it"]);
    equal(missing.json.hint, "Use 'skillrt list' to see all available skills");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[M-6] init says where it wrote; its placeholders fail every profile until replaced", async () => {
  const home = makeTree({ "skills/.keep": "" });
  try {
    const made = await cli(["--home", home, "init", "my-skill"]);
    equal(made.code, 0, made.stderr);
    ok(
      made.stdout.includes(
        `Wrote ${home}/skills/my-skill/SKILL.md; replace its placeholders, then run 'skillrt validate my-skill'.`,
      ),
      made.stdout,
    );
    for (const profile of ["hermes", "agentskills", "claude"]) {
      const v = await cliJson(["--home", home, "validate", "my-skill", "--profile", profile]);
      const errors = (v.json.findings as { rule: string; severity: string; line: number }[])
        .filter((f) => f.severity === "error");
      deepEqual([v.code, errors.map((f) => [f.rule, f.line])], [1, [
        ["skeleton.placeholder", 3],
        ["skeleton.placeholder", 8],
      ]], profile);
    }
    const file = `${home}/skills/my-skill/SKILL.md`;
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file)
        .replace(/^description: .*$/m, "description: Mine, for my own work.")
        .replace(/^Use this skill when … .*$/m, "Use this skill when you do my work."),
    );
    equal((await cliJson(["--home", home, "validate", "my-skill"])).code, 0);
  } finally {
    removeTrees(home);
  }
});
