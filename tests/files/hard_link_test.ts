/**
 * [S-9][F-1] A hard link is a second name of one file, and no path says where the other
 * lies: a skill file of a root other than the local one with more than one name may be
 * `~/.ssh/id_rsa` (linked by a script, or by an archive extracted elsewhere). Through the
 * real CLI: `view` (Level 1 and a Level-2 file) and `hub install` from a folder refuse it,
 * and the secret appears in no output; the user's own local root still serves its links.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, skill } from "../helpers.ts";

const SECRET = `SECRET-KEY-${crypto.randomUUID()}`;

/** Refusal of `path`, a hard link of two names. */
const REFUSED = (path: string) =>
  `Refusing '${path}': it is a hard link (2 names for one file) outside the local root, so its content may be a file outside the skill.`;

/** A home with an external root whose skills hard-link a secret outside every root, and the secret's folder. */
function linkedHome(): { home: string; outside: string } {
  const outside = makeTree({
    ".ssh/id_rsa": `-----BEGIN KEY-----\n${SECRET}\n`,
    "notes.md": `# Notes\n\n${SECRET} in a note\n`,
    "mine.md": `# Mine\n\n${SECRET} of the user's\n`,
  });
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "skills/mine/SKILL.md": skill(
      "mine",
      "The user's own.",
      "",
      "# mine\n\nSee references/key.md.\n",
    ),
    "ext/helper/SKILL.md": skill(
      "helper",
      "Helps.",
      "",
      "# helper\n\nRead [the key](references/key.md) and [notes](references/notes.md).\n",
    ),
    "ext/twin/SKILL.md": skill("twin", "Two names inside.", "", "# twin\n"),
    "ext/twin/references/a.md": "# A\n\nInside twin.\n",
    "ext/stolen/notes.txt": "a skill whose SKILL.md is a hard link\n",
  });
  Deno.mkdirSync(`${home}/ext/helper/references`);
  Deno.linkSync(`${outside}/.ssh/id_rsa`, `${home}/ext/helper/references/key.md`);
  Deno.linkSync(`${outside}/notes.md`, `${home}/ext/helper/references/notes.md`);
  // Variant: both names inside the skill — still refused (the count is all a handle tells).
  Deno.linkSync(`${home}/ext/twin/references/a.md`, `${home}/ext/twin/references/b.md`);
  // Variant: the skill's own SKILL.md is a hard link to another file.
  Deno.writeTextFileSync(
    `${outside}/SKILL.md`,
    skill("stolen", `${SECRET} description`, "", `# stolen\n\n${SECRET} body\n`),
  );
  Deno.linkSync(`${outside}/SKILL.md`, `${home}/ext/stolen/SKILL.md`);
  // The user's own local root: a link the user made is served.
  Deno.mkdirSync(`${home}/skills/mine/references`);
  Deno.linkSync(`${outside}/mine.md`, `${home}/skills/mine/references/key.md`);
  return { home, outside };
}

Deno.test("[S-9][F-1] a hard-linked file in an external root is refused by view (a Level-2 file, Level 1's summaries, its SKILL.md), never served", async () => {
  const { home, outside } = linkedHome();
  const seen: string[] = [];
  const json = async (args: string[]) => {
    const r = await cliJson(["--home", home, ...args]);
    seen.push(r.stdout, r.stderr);
    return r;
  };
  try {
    for (const file of ["references/key.md", "references/notes.md"]) {
      const r = await json(["view", "helper", file]);
      equal(r.code, 1, r.stderr);
      deepEqual([r.json.success, r.json.error], [false, REFUSED(file)]);
    }
    const twin = await json(["view", "twin", "references/b.md"]);
    equal(twin.json.error, REFUSED("references/b.md"));
    // Level 1: the skill is served, its hard-linked files are neither summarised nor read.
    const helper = await json(["view", "helper"]);
    equal(helper.code, 0, helper.stderr);
    deepEqual(helper.json.file_summaries, []);
    const stolen = await json(["view", "stolen"]);
    equal(stolen.code, 1, stolen.stdout);
    const list = await json(["list"]);
    // Listed by its folder's name, as a SKILL.md that cannot be read: nothing of its text.
    const listed = (list.json.skills as { name: string; description: string }[])
      .map((s) => [s.name, s.description]).sort();
    deepEqual(listed.find(([name]) => name === "stolen"), ["stolen", ""]);
    // The user's own root serves the link the user made.
    const mine = await cliJson(["--home", home, "view", "mine", "references/key.md"]);
    equal(mine.code, 0, mine.stderr);
    ok(String(mine.json.content).includes(SECRET));
    const plain = await cli(["--home", home, "view", "helper", "references/key.md"]);
    seen.push(plain.stdout, plain.stderr);
    equal(plain.stderr.trim(), `skillrt: ${REFUSED("references/key.md")}`);
    for (const text of seen) ok(!text.includes(SECRET), text);
  } finally {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});

Deno.test("[S-9][HUB-2] hub install from a folder refuses a hard-linked file; the tree is unchanged", async () => {
  const outside = makeTree({ "id_rsa": `${SECRET}\n` });
  const home = makeTree({ "config.yaml": "", "skills/keep/SKILL.md": skill("keep", "Kept.") });
  const source = makeTree({ "SKILL.md": skill("grab", "Grabs."), "references/ok.md": "# Ok\n" });
  Deno.linkSync(`${outside}/id_rsa`, `${source}/references/key.md`);
  try {
    const r = await cliJson(["--home", home, "hub", "install", source, "--name", "grab", "--yes"]);
    equal(r.code, 1, r.stdout);
    equal(r.json.error, REFUSED("references/key.md"));
    deepEqual([...Deno.readDirSync(`${home}/skills`)].map((e) => e.name).sort(), ["keep"]);
    ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET));
    // Without the link the same folder installs.
    Deno.removeSync(`${source}/references/key.md`);
    const ok2 = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      source,
      "--name",
      "grab",
      "--yes",
    ]);
    equal(ok2.code, 0, ok2.stdout + ok2.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/grab/references/ok.md`), "# Ok\n");
  } finally {
    for (const dir of [outside, home, source]) Deno.removeSync(dir, { recursive: true });
  }
});
