/**
 * [H-1][C-7] The library under the grants a user gives it: with `--allow-read` only, a
 * home of `~/…` is refused (never read as a folder named `~` here) and an unknown home
 * names the missing grant (`--allow-env`) instead of blaming HOME, which is set.
 */
import { deepEqual } from "node:assert/strict";
import { makeTree, removeTrees, REPO } from "../helpers.ts";

const SCRIPT = `
import { SkillRuntime } from "${REPO}/mod.ts";
for (const options of [{ home: "~/.hermes" }, {}]) {
  try {
    console.log((await new SkillRuntime(options).list()).count);
  } catch (e) {
    console.log(String(e));
  }
}`;

Deno.test("[H-1][C-7] library with --allow-read only: '~' is refused and the missing grant is named", async () => {
  // A folder literally named '~' here, with a skill in it: what the trap read before.
  const work = makeTree({
    "~/.hermes/skills/trap/SKILL.md": "---\nname: trap\ndescription: t\n---\nx\n",
  });
  try {
    Deno.writeTextFileSync(`${work}/lib.ts`, SCRIPT);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--no-prompt",
        "--config",
        `${REPO}/deno.json`,
        `${work}/lib.ts`,
      ],
      cwd: work,
      stderr: "null",
    }).output();
    deepEqual(new TextDecoder().decode(out.stdout).trim().split("\n"), [
      "SkillrtError: Cannot tell where the home is: reading HOME needs --allow-env (or --allow-env=HOME). Pass the home '~/.hermes' as an absolute path.",
      "SkillrtError: Cannot tell where the home is: reading HOME needs --allow-env (or --allow-env=HOME). Pass --home DIR (in the library: the home option) or set HERMES_HOME.",
    ]);
  } finally {
    removeTrees(work);
  }
});
