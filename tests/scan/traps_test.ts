/**
 * [C-6] The traps the corpus tests rely on, in the project's own `fixtures/traps` home, so a
 * clone without the shared corpus (SKILLRT_CORPUS) still tests each requirement they show.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { cliJson, copyTree, descriptionLength, removeTrees, REPO, testHost } from "../helpers.ts";

const TRAPS = `${REPO}/fixtures/traps`;

function runtime(home: string): SkillRuntime {
  return new SkillRuntime({ home, host: testHost(home) });
}

Deno.test("[S-5][S-7][S-2][S-8] the traps home: every SKILL.md listed or explained, cut descriptions, ambiguity, shadowing", async () => {
  const home = copyTree(TRAPS);
  try {
    const rt = runtime(home);
    const list = await rt.list();
    const index = rt.catalog().index();
    deepEqual(list.skills.map((s) => s.name), [
      "dup",
      "postgresql-table-design",
      "colon",
      "crlf-bom",
      "extra-field",
      "own",
      "refs",
      "long-desc",
    ]);
    deepEqual(list.categories, ["alpha", "db", "tools", "writing"]);
    const dup = list.skills.find((s) => s.name === "dup")!;
    deepEqual([dup.ambiguous, dup.matches], [true, ["alpha/dup", "beta/dup"]]);
    const long = index.records.find((r) => r.name === "long-desc")!;
    equal(long.description.length, 1024);
    ok(long.description.endsWith("..."));
    // The full length as js-yaml reads the fixture, over the 1024 limit of [S-5].
    const length = descriptionLength(`${TRAPS}/skills/writing/long-desc/SKILL.md`);
    ok(length > 1024);
    equal(long.diagnostics[0].message, `Description is ${length} characters; cut to 1024.`);
    // The local root wins over the external dir ([S-1]); the other copy is shadowed.
    equal(index.entries.get("own")!.record.source, "local");
    deepEqual(index.shadowed.map((r) => [r.name, r.source]), [["own", "external"]]);
    // A SKILL.md inside a support folder is never a skill, by walk or by path ([S-2]).
    ok(!index.records.some((r) => r.name === "old-pkg"));
    // The YAML repair keeps the skill and says so ([S-6]).
    const colon = index.records.find((r) => r.name === "colon")!;
    equal(colon.description, "Use this: when a value holds a colon");
    deepEqual(colon.diagnostics.map((d) => d.code), ["frontmatter.yaml_repaired"]);
    equal(index.records.find((r) => r.name === "crlf-bom")!.description, "Written on Windows.");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[V-1][F-1][F-3][S-8] the traps home views at Level 1 and 2, the flat skill by name", async () => {
  const home = copyTree(TRAPS);
  try {
    const rt = runtime(home);
    for (const s of (await rt.list()).skills.filter((s) => !s.ambiguous)) {
      equal((await rt.view(s.name)).name, s.name);
    }
    const refs = await rt.view("refs");
    deepEqual(refs.linkedFiles?.references, ["references/a.md", "references/b.md"]);
    const a = await rt.viewFile("refs", "references/a.md");
    deepEqual([a.content, a.bytes], ["# A\n\nFirst reference.\n", 22]);
    ok((await rt.view("flat")).content.startsWith("# Flat"));
    await rt.view("alpha/dup"); // an ambiguous name loads by its path
  } finally {
    removeTrees(home);
  }
});

Deno.test("[M-5] validate --profile agentskills on the traps home reports each deviation exactly", async () => {
  const r = await cliJson(["validate", `${TRAPS}/skills`, "--profile", "agentskills"]);
  equal(r.code, 1);
  const findings = r.json.findings as { file: string; line: number; rule: string }[];
  deepEqual(
    findings.map((f) => [f.file.slice(TRAPS.length + 8), f.line, f.rule]),
    [
      ["db/postgresql/SKILL.md", 2, "agentskills.name-matches-folder"],
      ["tools/colon/SKILL.md", 3, "frontmatter.yaml_repaired"],
      ["tools/extra-field/SKILL.md", 4, "agentskills.unknown-field"],
      ["writing/long-desc/SKILL.md", 3, "agentskills.description-length"],
    ],
  );
});
