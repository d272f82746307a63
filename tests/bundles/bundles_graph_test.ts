import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { bundleSlug, loadBundles, parseBundle } from "../../src/bundles/bundles.ts";
import { buildGraph, toDot, toMermaid } from "../../src/graph/graph.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, cliJson, makeTree, skill, testHost } from "../helpers.ts";

Deno.test("[B-1] slugs, defaults, bad files skipped with a diagnostic, first of a duplicate slug wins", () => {
  equal(bundleSlug("Release Day_2 (beta)!"), "release-day-2-beta");
  const home = makeTree({
    "skill-bundles/a-first.yaml": "name: Ship It\nskills: [x, y]\n",
    "skill-bundles/b-second.yml": "name: ship it\nskills: [z]\n",
    "skill-bundles/c_stem.yaml": "skills:\n  - p\ninstruction: Go.\n",
    "skill-bundles/d-broken.yaml": "name: [unclosed\nskills: [a\n",
    "skill-bundles/e-empty.yaml": "name: empty\nskills: []\n",
    "skill-bundles/f-list.yaml": "- a\n- b\n",
    "skill-bundles/notes.txt": "ignored",
  });
  const { bundles, diagnostics } = loadBundles(home);
  deepEqual(bundles.map((b) => [b.name, b.description, b.skills, b.instruction]), [
    ["ship-it", "Load 2 skills as a bundle", ["x", "y"], undefined],
    ["c-stem", "Load 1 skills as a bundle", ["p"], "Go."],
  ]);
  deepEqual(diagnostics.map((d) => [d.path!.split("/").pop(), d.code]), [
    ["b-second.yml", "bundle.duplicate"],
    ["d-broken.yaml", "bundle.unparseable"],
    ["e-empty.yaml", "bundle.skills"],
    ["f-list.yaml", "bundle.not_mapping"],
  ]);
  equal(diagnostics[1].line, 2);
  ok(!("skills" in parseBundle("skills: 3", "/x.yaml")));
});

Deno.test("[B-2] invoking a bundle: exact header with loaded, missing and platform-disabled members; bundle beats a same-named skill", async () => {
  const home = makeTree({
    "skills/alpha/SKILL.md": skill("alpha", "A", "", "# Alpha\n\nDo alpha.\n"),
    "skills/macy/SKILL.md": skill("macy", "Mac only", "platforms: [macos]\n"),
    "skills/off/SKILL.md": skill("off", "Disabled"),
    "skills/kit/SKILL.md": skill("kit", "A skill named like the bundle"),
    "skill-bundles/kit.yaml":
      "name: kit\nskills: [alpha, ghost, macy, off]\ninstruction: Use them in order.\n",
    "config.yaml": "skills:\n  disabled: [off]\n",
  });
  const dir = `${Deno.realPathSync(home)}/skills/alpha`;
  const r = await cliJson(["--home", home, "invoke", "kit", "do", "it"]);
  equal(r.code, 0, r.stderr);
  equal(r.json.kind, "bundle");
  deepEqual([r.json.loaded, r.json.missing, r.json.disabled, r.json.failed], [
    ["alpha"],
    ["ghost"],
    ["macy", "off"],
    [],
  ]);
  const alpha = skill("alpha", "A", "", "# Alpha\n\nDo alpha.\n").trim();
  equal(
    r.json.message,
    [
      '[IMPORTANT: The user has invoked the "kit" skill bundle, loading 1 skills together. Treat every skill below as active guidance for this turn.]',
      "",
      "Skills loaded: alpha",
      "Skills missing (skipped): ghost",
      "Skills disabled for this platform (skipped): macy, off",
      "",
      "Bundle instruction: Use them in order.",
      "",
      "User instruction: do it",
      "",
      '[Loaded as part of the "kit" skill bundle.]',
      "",
      alpha,
      "",
      `[Skill directory: ${dir}]`,
      "Relative paths in this skill (scripts/, templates/, references/, assets/) are relative to that directory; use the absolute path to run or read them.",
    ].join("\n"),
  );
  const rt = new SkillRuntime({ home, host: testHost(home) });
  equal((await rt.view("kit")).description, "A skill named like the bundle");
});

Deno.test("[B-2] bundle list and show through the CLI; a bundle that does not exist", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skill-bundles/pair.yaml": "skills: [a, b]\ndescription: A pair.\n",
    "skill-bundles/bad.yaml": "skills: [\n",
  });
  const list = await cliJson(["--home", home, "bundle"]);
  deepEqual((list.json.bundles as { name: string }[]).map((b) => b.name), ["pair"]);
  equal((list.json.diagnostics as { code: string }[])[0].code, "bundle.unparseable");
  const text = await cli(["--home", home, "bundle", "list"]);
  ok(text.stderr.includes("bad.yaml: Bundle file does not parse"));
  const show = await cliJson(["--home", home, "bundle", "show", "pair"]);
  deepEqual(show.json.members, [{ name: "a", status: "available", path: "a" }, {
    name: "b",
    status: "missing",
  }]);
  const none = await cliJson(["--home", home, "bundle", "show", "pear"]);
  equal(none.json.error, "Bundle 'pear' not found.");
  deepEqual(none.json.available_bundles, ["pair"]);
});

Deno.test("[G-1] graph: every skill a node, every related edge, bundle edges, dangling references flagged", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A", "related_skills: [b, ghost]\n"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
    "skills/c/SKILL.md": skill("c", "C", "metadata:\n  hermes:\n    related_skills: [a]\n"),
    "skill-bundles/duo.yaml": "skills: [a, phantom]\n",
  });
  const g = (await cliJson(["--home", home, "graph", "--format", "json"]))
    .json as unknown as ReturnType<typeof buildGraph>;
  deepEqual(g.nodes.map((n) => [n.id, n.kind, n.category]), [
    ["skill:c", "skill", null],
    ["skill:a", "skill", "dev"],
    ["skill:b", "skill", "dev"],
    ["bundle:duo", "bundle", null],
    ["missing:ghost", "missing", null],
    ["missing:phantom", "missing", null],
  ]);
  deepEqual(g.edges.map((e) => [e.from, e.to, e.kind, e.dangling]), [
    ["skill:c", "skill:a", "related", false],
    ["skill:a", "skill:b", "related", false],
    ["skill:a", "missing:ghost", "related", true],
    ["bundle:duo", "skill:a", "bundle", false],
    ["bundle:duo", "missing:phantom", "bundle", true],
  ]);
  deepEqual(g.dangling, ["ghost", "phantom"]);
  const mermaid = (await cli(["--home", home, "graph"])).stdout.trimEnd();
  equal(mermaid, toMermaid(g));
  const lines = mermaid.split("\n");
  equal(lines[0], "flowchart LR");
  const grammar = [
    /^ {2,4}n\d+\["[^"]*"\](:::dangling)?$/,
    /^ {2}n\d+\{\{"[^"]*"\}\}$/,
    /^ {2}subgraph c\d+\["[^"]*"\]$/,
    /^ {2}end$/,
    /^ {2}n\d+ (-->|-\.->) n\d+$/,
    /^ {2}classDef dangling stroke-dasharray: 5 5,stroke:#c00,color:#c00$/,
  ];
  for (const line of lines.slice(1)) {
    ok(grammar.some((re) => re.test(line)), `not flowchart syntax: ${line}`);
  }
  equal(lines.filter((l) => l.includes(":::dangling")).length, 2);
  const dot = toDot(g);
  ok(dot.startsWith("digraph skills {") && dot.endsWith("}"));
  ok(dot.includes('label="ghost (missing)", style=dashed, color=red'));
  equal((await cli(["--home", home, "graph", "--format", "svg"])).code, 2);
  deepEqual(buildGraph([], []).nodes, []);
});

Deno.test("[B-2][PERF-2] loads given one catalog share one walk of each root (a bundle's members are found in one walk)", async () => {
  const home = makeTree({
    "skills/team/alpha/SKILL.md": skill("alpha", "A"),
    "skills/team/beta/SKILL.md": skill("beta", "B"),
  });
  const rt = new SkillRuntime({ home, env: () => undefined });
  const shared = rt.catalog();
  equal((await rt.load("alpha", { catalog: shared })).view.name, "alpha");
  // A skill added after the first load is not in the walk the shared catalog already made…
  Deno.mkdirSync(`${home}/skills/team/gamma`);
  Deno.writeTextFileSync(`${home}/skills/team/gamma/SKILL.md`, skill("gamma", "G"));
  equal((await rt.load("beta", { catalog: shared })).view.name, "beta");
  await rejects(() => rt.load("gamma", { catalog: shared }), /Skill 'gamma' not found/);
  // …while a load of its own walks again and finds it.
  equal((await rt.load("gamma")).view.name, "gamma");
});
