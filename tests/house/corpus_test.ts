import { deepEqual, equal, ok } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { cliJson, CORPUS, descriptionLength, makeTree, needsCorpus, snapshot } from "../helpers.ts";

function corpusHome(): string {
  const home = makeTree({ "config.yaml": "" });
  new Deno.Command("cp", { args: ["-r", CORPUS, `${home}/skills`] }).outputSync();
  return home;
}

function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...skillFiles(p));
    else if (e.name === "SKILL.md") out.push(p);
  }
  return out;
}

Deno.test(
  needsCorpus(
    "[corpus] all 207 real skills are scanned: each SKILL.md is listed or explained by a diagnostic",
  ),
  async () => {
    const home = corpusHome();
    const files = skillFiles(`${home}/skills`);
    // The shared corpus holds 207 SKILL.md files (`find "$SKILLRT_CORPUS" -name SKILL.md | wc -l`),
    // counted here by this file's own walk, not by skillrt.
    equal(files.length, 207);
    const rt = new SkillRuntime({
      home,
      host: { platform: "linux", environments: [], envNames: [], cwd: home },
    });
    const list = await rt.list();
    const index = rt.catalog().index();
    const listedFiles = new Set<string>();
    for (const s of list.skills) {
      const entry = index.entries.get(s.name)!;
      for (const r of entry.ambiguous ? entry.matches : [entry.record]) listedFiles.add(r.file);
    }
    const explained = new Set(
      index.diagnostics.map((d) => d.path).concat(
        index.records.flatMap((r) => r.diagnostics.map((d) => d.path)),
      ),
    );
    const real = Deno.realPathSync(home);
    for (const f of files) {
      const file = f.replace(home, real);
      ok(listedFiles.has(file) || explained.has(file), `${file} is neither listed nor explained`);
    }
    equal(
      list.count + index.shadowed.length,
      files.length -
        [...index.entries.values()].filter((e) => e.ambiguous).reduce(
          (n, e) => n + e.matches.length - 1,
          0,
        ),
    );
    deepEqual(list.categories, ["anthropics__skills", "obra__superpowers", "wshobson__agents"]);
    const claudeApi = index.records.find((r) => r.name === "claude-api")!;
    equal(claudeApi.description.length, 1024);
    // The full length as js-yaml reads the file (1068), over the 1024 limit of [S-5].
    const length = descriptionLength(claudeApi.file);
    ok(length > 1024);
    equal(claudeApi.diagnostics[0].message, `Description is ${length} characters; cut to 1024.`);
  },
);

Deno.test(
  needsCorpus("[corpus] every corpus skill views at Level 1 and its references at Level 2"),
  async () => {
    const home = corpusHome();
    const rt = new SkillRuntime({
      home,
      host: { platform: "linux", environments: [], envNames: [], cwd: home },
    });
    let files = 0;
    for (const s of (await rt.list()).skills) {
      const v = await rt.view(s.name);
      equal(v.name, s.name);
      for (const ref of v.linkedFiles?.references ?? []) {
        const f = await rt.viewFile(s.name, ref);
        equal(f.bytes, new TextEncoder().encode(f.content!).length);
        files++;
      }
    }
    ok(files >= 200, `${files} reference files viewed`);
  },
);

Deno.test(
  needsCorpus("[corpus] validate --profile agentskills reports the real deviations"),
  async () => {
    const before = snapshot(CORPUS);
    const r = await cliJson(["validate", CORPUS, "--profile", "agentskills"]);
    equal(r.code, 1);
    equal(r.json.checked, skillFiles(CORPUS).length);
    const findings = r.json.findings as {
      file: string;
      line: number;
      rule: string;
      message: string;
    }[];
    const at = (f: { file: string }) => f.file.slice(CORPUS.length + 1);
    const desc = findings.filter((f) => f.rule === "agentskills.description-length");
    deepEqual(desc.map((f) => [at(f), f.line, f.message]), [[
      "anthropics__skills/skills/claude-api/SKILL.md",
      3,
      `Description is ${
        descriptionLength(`${CORPUS}/anthropics__skills/skills/claude-api/SKILL.md`)
      } characters; the limit is 1024.`,
    ]]);
    const names = findings.filter((f) => f.rule === "agentskills.name-matches-folder");
    deepEqual(names.map((f) => [at(f), f.line, f.message]), [[
      "wshobson__agents/plugins/database-design/skills/postgresql/SKILL.md",
      2,
      "Name 'postgresql-table-design' must equal its folder name 'postgresql'.",
    ]]);
    ok(findings.filter((f) => f.rule === "agentskills.unknown-field").length > 0);
    equal(snapshot(CORPUS), before);
  },
);
