/**
 * [IO-5] Discovery inside a source: agents' skill folders (`.github/skills`, `.claude/skills`,
 * `.agents/skills`) are searched, build copies (`dist/`, `build/`, `out/`, `node_modules/`)
 * never; a Claude Code plugin marketplace is a collection; `--skill` matches in any case and
 * a miss is an error even of a one-skill source; a skill carrying further SKILL.md files says so.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { commitAll } from "./git_helpers.ts";
import { cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { tarGzOf } from "./site_helpers.ts";

type Listed = { name: string; path: string }[];
type Done = { installed: { name: string }[]; skipped: { path: string; reason: string }[] };

Deno.test("[IO-5] agents' skill folders are searched and build copies are not (a folder and a git clone)", async () => {
  const src = makeTree({
    ".github/skills/alpha/SKILL.md": skill("alpha", "In .github."),
    ".github/workflows/ci/SKILL.md": skill("ci-copy", "Not a skill folder."),
    ".claude/skills/beta/SKILL.md": skill("beta", "In .claude."),
    ".agents/skills/gamma/SKILL.md": skill("gamma", "In .agents."),
    "dist/skills/alpha/SKILL.md": skill("alpha", "A build copy."),
    "build/alpha/SKILL.md": skill("alpha", "A build copy."),
    "out/beta/SKILL.md": skill("beta", "A build copy."),
    "node_modules/pkg/skills/gamma/SKILL.md": skill("gamma", "A dependency's copy."),
    "packages/web/dist/delta/SKILL.md": skill("delta", "A nested build copy."),
  });
  const home = makeTree({ "skills/.keep": "" });
  try {
    commitAll(src);
    for (const source of [src, `git+file://${src}`]) {
      const listed = await cliJson(["--home", home, "hub", "install", source]);
      equal(listed.code, 2, listed.stderr + listed.stdout);
      deepEqual(
        (listed.json.skills as Listed).map((s) => [s.name, s.path]),
        [
          ["beta", ".claude/skills/beta"],
          ["alpha", ".github/skills/alpha"],
          ["gamma", ".agents/skills/gamma"],
        ].sort((a, b) => (a[1] < b[1] ? -1 : 1)),
        source,
      );
    }
    const all = await cliJson(["--home", home, "hub", "install", src, "--all", "--yes"]);
    equal(all.code, 0, all.stdout);
    const done = all.json as unknown as Done;
    deepEqual(done.installed.map((i) => i.name).sort(), ["alpha", "beta", "gamma"]);
    ok(Deno.readTextFileSync(`${home}/skills/alpha/SKILL.md`).includes("In .github."));
  } finally {
    removeTrees(src, home);
  }
});

Deno.test("[IO-5] a Claude Code plugin marketplace is a collection: its plugins' skills, paths held to the grammar, a source elsewhere skipped", async () => {
  const marketplace = {
    name: "team-tools",
    owner: { name: "Team" },
    metadata: { pluginRoot: "./plugins" },
    plugins: [
      { name: "formatter", source: "formatter" },
      { name: "docs", source: "./docs", skills: ["./extra/writer"] },
      { name: "remote", source: { source: "github", repo: "other/plugin" } },
      { name: "climber", source: "../../outside" },
    ],
  };
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": JSON.stringify(marketplace),
    "plugins/formatter/.claude-plugin/plugin.json": JSON.stringify({ name: "formatter" }),
    "plugins/formatter/skills/Format-Code/SKILL.md": skill("Format-Code", "Formats code."),
    "plugins/docs/.claude-plugin/plugin.json": JSON.stringify({ skills: "./more" }),
    "plugins/docs/extra/writer/SKILL.md": skill("writer", "Writes docs."),
    "plugins/docs/more/editor/SKILL.md": skill("editor", "Edits docs."),
    "plugins/docs/dist/writer/SKILL.md": skill("writer", "A build copy."),
    "tests/fixtures/stray/SKILL.md": skill("stray", "A test fixture, not shipped."),
  };
  const repo = makeTree(files);
  const home = makeTree({ "skills/.keep": "" });
  try {
    commitAll(repo);
    // The same repository as a downloaded archive: its marketplace below the top folder.
    const top = Object.fromEntries(Object.entries(files).map(([p, t]) => [`market-main/${p}`, t]));
    Deno.writeFileSync(`${home}/market.tar.gz`, await tarGzOf(top, "market-main"));
    const packed = await cliJson(["--home", home, "hub", "install", `${home}/market.tar.gz`]);
    equal(packed.code, 2, packed.stderr + packed.stdout);
    deepEqual((packed.json.skills as Listed).map((s) => s.path), [
      "market-main/plugins/docs/extra/writer",
      "market-main/plugins/docs/more/editor",
      "market-main/plugins/formatter/skills/Format-Code",
    ]);
    const source = `git+file://${repo}`;
    const listed = await cliJson(["--home", home, "hub", "install", source]);
    equal(listed.code, 2, listed.stderr + listed.stdout);
    deepEqual((listed.json.skills as Listed).map((s) => s.path), [
      "plugins/docs/extra/writer",
      "plugins/docs/more/editor",
      "plugins/formatter/skills/Format-Code",
    ]);
    // --skill in any case: 'format-code' is the slug of 'Format-Code'; 'WRITER' is 'writer'.
    const some = await cliJson(
      [
        "--home",
        home,
        "hub",
        "install",
        source,
        "--skill",
        "FORMAT-code",
        "--skill",
        "WRITER",
        "--yes",
      ],
    );
    equal(some.code, 0, some.stdout);
    const done = some.json as unknown as Done;
    deepEqual(done.installed.map((i) => i.name), ["format-code", "writer"]);
    deepEqual(done.skipped, [
      {
        path: ".claude-plugin/marketplace.json: plugin 'remote'",
        reason:
          "its source is outside this repository (github other/plugin); install that as its own source",
      },
      {
        path: ".claude-plugin/marketplace.json: plugin 'climber'",
        reason:
          "not followed: Source '.claude-plugin/marketplace.json': the path '../../outside' is not a plain relative path.",
      },
    ]);
  } finally {
    removeTrees(repo, home);
  }
});

Deno.test("[IO-5] --skill of a one-skill source: any case installs it, a miss is an error that changes nothing", async () => {
  const src = makeTree({ "one/SKILL.md": skill("Solo-Tool", "The only skill.") });
  const home = makeTree({ "skills/.keep": "" });
  try {
    const miss = await cliJson(
      ["--home", home, "hub", "install", `${src}/one`, "--skill", "nonexistent", "--yes"],
    );
    equal(miss.code, 1, miss.stdout);
    equal(
      miss.json.error,
      "This source holds no skill named 'nonexistent'; it holds solo-tool.",
    );
    deepEqual([...Deno.readDirSync(`${home}/skills`)].map((e) => e.name), [".keep"]);
    const hit = await cliJson(
      ["--home", home, "hub", "install", `${src}/one`, "--skill", "SOLO-TOOL", "--yes"],
    );
    equal(hit.code, 0, hit.stdout);
    equal(hit.json.name, "solo-tool");
  } finally {
    removeTrees(src, home);
  }
});

Deno.test("[IO-5] installing a skill that carries further SKILL.md files says so, and list shows them", async () => {
  const src = makeTree({
    "outer/SKILL.md": skill("outer", "Holds more."),
    "outer/parts/inner/SKILL.md": skill("inner", "Carried inside."),
    "outer/more/deep/SKILL.md": skill("deep", "Also carried."),
    "outer/references/example/SKILL.md": skill("example", "A reference, not a skill."),
  });
  const home = makeTree({ "skills/.keep": "" });
  try {
    const r = await cliJson(["--home", home, "hub", "install", `${src}/outer`, "--yes"]);
    equal(r.code, 0, r.stdout);
    deepEqual(r.json.warnings, [
      "'outer' holds 2 further skills in sub-folders, listed as skills once installed: more/deep, parts/inner.",
    ]);
    const list = await cliJson(["--home", home, "list"]);
    const names = (list.json.skills as { name: string }[]).map((s) => s.name).sort();
    ok(["deep", "inner", "outer"].every((n) => names.includes(n)), names.join(","));
    ok(!names.includes("example"), names.join(","));
  } finally {
    removeTrees(src, home);
  }
});
