/**
 * `init NAME` ([M-6]): a skeleton that passes all three validate profiles, with the
 * recommended sections and empty `references/` and `scripts/`, written through the same
 * path as `create` (validation, scanning, approval); and the info notes of
 * `validate --profile hermes` for skills without those sections.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  cli,
  cliJson,
  CORPUS,
  makeTree,
  needsCorpus,
  removeTrees,
  skill,
  snapshot,
} from "../helpers.ts";
import { PROFILES } from "../../src/validate/rules.ts";

Deno.test("[M-6] init writes a skeleton that fails all three profiles only on its placeholder line, with the recommended sections and empty references/ and scripts/", async () => {
  const home = makeTree({ "skills/.keep": "" });
  try {
    const r = await cliJson([
      "--home",
      home,
      "init",
      "deploy-check",
      "--category",
      "devops",
      "--description",
      "Check a deploy: before it ships.",
    ]);
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.action, r.json.scan_verdict], ["create", "safe"]);
    const dir = `${home}/skills/devops/deploy-check`;
    const text = Deno.readTextFileSync(`${dir}/SKILL.md`);
    ok(
      text.startsWith(
        '---\nname: deploy-check\ndescription: "Check a deploy: before it ships."\n---\n',
      ),
    );
    for (
      const section of ["When to Use", "Quick Reference", "Procedure", "Pitfalls", "Verification"]
    ) {
      ok(text.includes(`\n## ${section}\n`), section);
    }
    for (const sub of ["references", "scripts"]) {
      deepEqual(Array.from(Deno.readDirSync(`${dir}/${sub}`)), [], `${sub}/ is empty`);
    }
    // Only its placeholder first line fails, in every profile, until it is replaced.
    for (const profile of PROFILES) {
      const v = await cliJson(["validate", dir, "--profile", profile]);
      deepEqual([v.code, v.json.errors, v.json.warnings, v.json.infos], [1, 1, 0, 0], profile);
      equal((v.json.findings as { rule: string }[])[0].rule, "skeleton.placeholder");
    }
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    equal(usage["deploy-check"].created_by, "user");
    const viewed = await cliJson(["--home", home, "view", "deploy-check"]);
    deepEqual(viewed.json.linked_files, null, "empty support folders link no files");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[M-6] init obeys create's rules: an existing name and a bad name are errors and change nothing; under approval it is staged and approve makes the folders", async () => {
  const home = makeTree({ "skills/taken/SKILL.md": skill("taken", "T") });
  try {
    const before = snapshot(home);
    const taken = await cliJson(["--home", home, "init", "taken"]);
    equal(taken.json.error, `A skill named 'taken' already exists at ${home}/skills/taken.`);
    const bad = await cliJson(["--home", home, "init", "Bad Name"]);
    equal(bad.code, 1);
    ok(String(bad.json.error).startsWith("Invalid skill name 'Bad Name'."));
    const desc = await cliJson(["--home", home, "init", "x", "--description", "two\nlines"]);
    equal(desc.json.error, "The description must be one line of at most 1024 characters.");
    equal(snapshot(home), before);
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  write_approval: true\n");
    const staged = await cliJson(["--home", home, "init", "later"]);
    equal(staged.json.staged, true);
    equal(staged.json.gist, "create skill 'later' (485 characters)");
    const approved = await cliJson([
      "--home",
      home,
      "pending",
      "approve",
      String(staged.json.pending_id),
    ]);
    equal(approved.code, 0, approved.stderr);
    ok(Deno.statSync(`${home}/skills/later/references`).isDirectory);
    ok(Deno.statSync(`${home}/skills/later/scripts`).isDirectory);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[M-6] validate --profile hermes notes missing sections and a first paragraph without when-to-use as info: exit 0, listed for a few skills, counted for many", async () => {
  const dir = makeTree({
    "plain/SKILL.md": skill(
      "plain",
      "P",
      "",
      "# Plain\n\nFormats the files.\n\n## Steps\n\n1. Run it.\n",
    ),
    "good/SKILL.md": skill(
      "good",
      "G",
      "",
      "# Good\n\nUse this skill when a release is due.\n\n## When to Use\n\nx\n\n## Quick Reference\n\nx\n\n## Procedure\n\n```sh\n## not a heading\n```\n\n## Common Pitfalls\n\nx\n\n## Verification\n\nx\n",
    ),
  });
  try {
    const one = await cliJson(["validate", `${dir}/plain`]);
    equal(one.code, 0);
    deepEqual(
      (one.json.findings as { rule: string; severity: string; message: string }[]).map((
        f,
      ) => [f.rule, f.severity, f.message]),
      [
        [
          "hermes.sections",
          "info",
          "Recommended sections missing: When to Use, Quick Reference, Pitfalls, Verification (skillrt init writes them).",
        ],
        [
          "hermes.when-to-use",
          "info",
          "The first paragraph does not say when to use the skill ('Use this skill when …').",
        ],
      ],
    );
    const good = await cliJson(["validate", `${dir}/good`]);
    deepEqual(good.json.findings, []);
    for (const profile of ["agentskills", "claude"]) {
      equal((await cliJson(["validate", `${dir}/plain`, "--profile", profile])).json.infos, 0);
    }
    const many = makeTree(
      Object.fromEntries(
        ["a", "b", "c", "d"].map((n) => [`${n}/SKILL.md`, skill(n, n.toUpperCase())]),
      ),
    );
    const text = await cli(["validate", many]);
    equal(text.code, 0);
    equal(
      text.stdout,
      "Notes (info, not errors): hermes.sections ×4, hermes.when-to-use ×4; --json lists each.\nChecked 4 skills (hermes): 0 errors, 0 warnings, 8 notes.\n",
    );
    removeTrees(many);
  } finally {
    removeTrees(dir);
  }
});

Deno.test({
  ...needsCorpus(
    "[M-6][corpus] over a whole collection the notes are counted on one line, never an error, and every finding keeps its rule",
  ),
  fn: async () => {
    const json = await cliJson(["validate", CORPUS]);
    const findings = json.json.findings as { severity: string; rule: string }[];
    const infos = findings.filter((f) => f.severity === "info");
    ok(infos.length > 0, "the corpus has skills without the recommended sections");
    deepEqual([...new Set(infos.map((f) => f.rule))].sort(), [
      "hermes.sections",
      "hermes.when-to-use",
    ]);
    equal(json.json.infos, infos.length);
    equal(json.code, json.json.errors === 0 ? 0 : 1, "notes never change the exit code");
    const text = await cli(["validate", CORPUS]);
    const lines = text.stdout.trimEnd().split("\n");
    equal(lines.filter((l) => l.includes("  info  ")).length, 0, "no note is listed one by one");
    equal(lines.filter((l) => l.startsWith("Notes (info, not errors): ")).length, 1);
    equal(lines.length, findings.length - infos.length + 2);
  },
});
