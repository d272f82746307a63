/**
 * [S-6][C-8] Skills with problems are listed all the same, and `list` says so on stderr in
 * one line with their count, pointing to `doctor` and `validate`; a YAML error in content
 * given to `create` says which SKILL.md line it is on.
 */
import { deepEqual, equal } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";
import { assertIncludes } from "../asserts.ts";

const NOTE = (n: string) =>
  `skillrt: ${n} problems (missing frontmatter or description, repaired YAML, …); see 'skillrt doctor' or 'skillrt validate NAME'.\n`;

Deno.test("[S-6][C-8] list: one stderr line counts the listed skills with problems; none, no line", async () => {
  const home = makeTree({
    "skills/empty/SKILL.md": "---\nname: empty\ndescription:\n---\n\n",
    "skills/bare/SKILL.md": "no frontmatter here\n",
    "skills/fine/SKILL.md": skill("fine", "Fine."),
  });
  const clean = makeTree({ "skills/fine/SKILL.md": skill("fine", "Fine.") });
  try {
    const text = await cli(["--home", home, "list"]);
    deepEqual([text.code, text.stderr], [0, NOTE("2 skills have")]);
    const json = await cliJson(["--home", home, "list"]);
    deepEqual([json.json.count, json.stderr], [3, NOTE("2 skills have")]);
    Deno.removeSync(`${home}/skills/bare`, { recursive: true });
    equal((await cli(["--home", home, "list"])).stderr, NOTE("1 skill has"));
    const doctor = await cliJson(["--home", home, "doctor"]);
    assertIncludes(
      JSON.stringify(doctor.json),
      "The skill has no description.",
      "doctor names the problem",
    );
    equal((await cli(["--home", clean, "list"])).stderr, "");
  } finally {
    removeTrees(home, clean);
  }
});

Deno.test("[M-2] create --file with broken YAML: the error names the SKILL.md line", async () => {
  const home = makeTree({
    "skills/.keep": "",
    "broken.md": "---\nname: broken\ndescription: ok\nbad: : :\n  - x\n---\nbody\n",
  });
  try {
    const before = snapshot(home);
    const r = await cli(["--home", home, "create", "broken", "--file", `${home}/broken.md`]);
    deepEqual([r.code, r.stderr], [
      1,
      "skillrt: YAML frontmatter parse error: bad indentation of a mapping entry (SKILL.md line 4)\n",
    ]);
    equal(snapshot(home), before);
  } finally {
    removeTrees(home);
  }
});
