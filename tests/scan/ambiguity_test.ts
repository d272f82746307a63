/**
 * [S-7][R-3] One ambiguity rule for every command that takes a name: a bare name two
 * skills of one root declare is shown once by `list` as ambiguous, and every command
 * refuses it, naming the candidates — also when a folder of that very name exists (found
 * by path first, [R-2]). `NAME/` is that folder alone. `create` and `edit` warn when the
 * declared name differs from the folder, and refuse one that would make a name ambiguous.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";

const AMBIGUOUS =
  "Ambiguous skill name 'pr-review': 2 skills match. Refusing to guess — load one explicitly by its categorized path.";

function twoNamedAlike(): string {
  return makeTree({
    "skills/pr-review/SKILL.md": skill("pr-review", "Reviews PRs.", "", "Body one.\n"),
    "skills/foo/SKILL.md": skill("pr-review", "Mine.", "", "Body two.\n"),
    "mine.md": skill("pr-review", "Another.", "", "Body three.\n"),
  });
}

Deno.test("[S-7][R-3] list marks the name ambiguous and every command taking it refuses, with the candidates", async () => {
  const home = twoNamedAlike();
  try {
    const listed = await cliJson(["--home", home, "list"]);
    const entries = listed.json.skills as Record<string, unknown>[];
    deepEqual(
      entries.map((e) => [e.name, e.ambiguous, e.matches]),
      [["pr-review", true, ["foo", "pr-review"]]],
    );
    const before = snapshot(home);
    const lines: [string, ...string[]][] = [
      ["view", "pr-review"],
      ["invoke", "pr-review"],
      ["edit", "pr-review", "--file", `${home}/mine.md`],
      ["delete", "pr-review"],
      ["patch", "pr-review", "--old", "Body", "--new", "Text"],
      ["write-file", "pr-review", "references/a.md", "--file", `${home}/mine.md`],
    ];
    for (const line of lines) {
      const r = await cliJson(["--home", home, ...line]);
      deepEqual([r.code, r.json.error, [...r.json.matches as string[]].sort()], [
        1,
        AMBIGUOUS,
        ["foo", "pr-review"],
      ], line.join(" "));
    }
    const text = await cli(["--home", home, "view", "pr-review"]);
    equal(text.stderr, `skillrt: ${AMBIGUOUS}\nMatches: pr-review/, foo/\n`);
    equal(snapshot(home), before, "nothing written");
    const folder = await cliJson(["--home", home, "view", "pr-review/"]);
    ok(String(folder.json.content).includes("Body one."), folder.stdout);
    const other = await cliJson(["--home", home, "view", "foo"]);
    ok(String(other.json.content).includes("Body two."), other.stdout);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[S-7][M-2] create, edit and patch: a declared name unlike the folder warns; one that would be ambiguous is refused", async () => {
  const home = makeTree({
    "skills/pr-review/SKILL.md": skill("pr-review", "Reviews PRs."),
    "same.md": skill("pr-review", "Mine."),
    "other.md": skill("other-name", "Mine."),
  });
  try {
    const before = snapshot(home);
    const refused = await cliJson(["--home", home, "create", "foo", "--file", `${home}/same.md`]);
    deepEqual([refused.code, refused.json.error], [
      1,
      `The content declares name 'pr-review', which the skill at ${home}/skills/pr-review already has: the name would be ambiguous. Use name: foo, or another name.`,
    ]);
    equal(snapshot(home), before);
    const warned = await cli(["--home", home, "create", "bar", "--file", `${home}/other.md`]);
    equal(warned.code, 0, warned.stderr);
    ok(
      warned.stdout.includes(
        "Warning: The content declares name 'other-name', not 'bar': the skill is listed and found as 'other-name'.",
      ),
      warned.stdout,
    );
    const edit = await cliJson(["--home", home, "edit", "other-name", "--file", `${home}/same.md`]);
    equal(edit.code, 1);
    ok(String(edit.json.error).includes("the name would be ambiguous"), edit.stdout);
    const self = await cliJson(["--home", home, "edit", "pr-review", "--file", `${home}/same.md`]);
    deepEqual([self.code, self.json.warnings], [0, undefined], "its own name: no warning");
    // A patch of SKILL.md is judged alike (it renamed to a taken name unchecked).
    const written = snapshot(home);
    const args = ["patch", "other-name", "--old", "name: other-name", "--new", "name: pr-review"];
    const patch = await cliJson(["--home", home, ...args]);
    deepEqual([patch.code, patch.json.error], [
      1,
      `The content declares name 'pr-review', which the skill at ${home}/skills/pr-review already has: the name would be ambiguous. Use name: bar, or another name.`,
    ]);
    equal(snapshot(home), written);
  } finally {
    removeTrees(home);
  }
});
