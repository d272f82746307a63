/**
 * [RUN-3][SY-1] A skill `sync --from` brought in is known by its folder, not by a name two
 * parsers compute (red team hR): one whose frontmatter name is longer than the catalog's
 * 64 characters (the catalog cuts it, the manifest keeps it whole) asks before its script
 * runs; so does one whose name was edited after the sync; the user's own skill beside it
 * runs on request. The manifest keeps Hermes' `name:md5` lines; the folders are recorded in
 * `skills/.bundled_folders`. Real sync through the CLI (its Worker's plan), real bwrap.
 */
import { equal } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { cli, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { NOT_APPROVED } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

const LONG = `bundled-helper-${"0".repeat(55)}`; // 70 characters
const CUT = LONG.slice(0, 64);

Deno.test({
  name: `a synced skill with a name over 64 characters, or renamed since, still asks${why}`,
  ignore,
}, async () => {
  const bundle = makeTree({
    "tools/helper/SKILL.md": `---\nname: ${LONG}\ndescription: a bundled helper\n---\n`,
    "tools/helper/scripts/x.sh": "echo ran\n",
    "other/SKILL.md": skill("other", "another bundled one"),
    "other/scripts/x.sh": "echo ran\n",
  });
  const home = makeTree({
    "skills/mine/SKILL.md": skill("mine", "my own"),
    "skills/mine/scripts/x.sh": "echo mine ran\n",
  });
  const work = tempDir();
  const run = (name: string) =>
    cli(["--home", home, "run", name, "scripts/x.sh", "--workdir", work]);
  try {
    const synced = await cli(["--home", home, "sync", "--from", bundle]);
    equal(synced.code, 0, synced.stderr);
    const manifest = Deno.readTextFileSync(`${home}/skills/.bundled_manifest`);
    equal(manifest.replace(/:[0-9a-f]{32}$/gm, ":MD5"), `${LONG}:MD5\nother:MD5\n`);
    equal(Deno.readTextFileSync(`${home}/skills/.bundled_folders`), "other\ntools/helper\n");
    const long = await run(CUT);
    equal(long.stderr, NOT_APPROVED("scripts/x.sh", CUT, "synced"));
    equal(long.code, 3);
    // Variant: the user renames a synced skill: it still came from elsewhere.
    const file = `${home}/skills/other/SKILL.md`;
    Deno.writeTextFileSync(file, skill("renamed", "another bundled one"));
    equal((await run("renamed")).stderr, NOT_APPROVED("scripts/x.sh", "renamed", "synced"));
    // The user's own skill runs on request.
    const mine = await run("mine");
    equal(mine.stdout, "mine ran\n", mine.stderr);
  } finally {
    removeTrees(bundle, home, work);
  }
});
