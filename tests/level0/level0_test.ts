import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { buildPrompt } from "../../src/level0/prompt.ts";
import {
  conditionsHold,
  environmentMatches,
  platformMatches,
} from "../../src/level0/visibility.ts";
import { cli, cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";
import { firstParagraph } from "../../src/level0/list.ts";

const host = (cwd: string, environments: string[] = []) => testHost(cwd, { environments });

Deno.test("[L0-1] list JSON: exact fields, sorted by (category, name), categories sorted without nulls", async () => {
  const home = makeTree({
    "skills/z-top/SKILL.md": skill("z-top", "Z"),
    "skills/b/two/SKILL.md": skill("two", "Two", "tags: [t1, t2]\n"),
    "skills/b/one/SKILL.md": skill("one", "One"),
    "skills/a/three/SKILL.md": skill("three", "Three"),
  });
  const doc = await new SkillRuntime({ home, host: host(home) }).list();
  deepEqual(doc, {
    success: true,
    skills: [
      { name: "z-top", description: "Z", category: null, tags: [] },
      { name: "three", description: "Three", category: "a", tags: [] },
      { name: "one", description: "One", category: "b", tags: [] },
      { name: "two", description: "Two", category: "b", tags: ["t1", "t2"] },
    ],
    categories: ["a", "b"],
    count: 4,
    hint: "Use skill_view(name) to see full content, tags, and linked files",
  });
  deepEqual(
    (await new SkillRuntime({ home, host: host(home) }).list({ category: "b" })).skills.map((s) =>
      s.name
    ),
    ["one", "two"],
  );
});

Deno.test("[L0-1] an empty home lists nothing with the exact message", async () => {
  const home = makeTree({ "config.yaml": "" });
  deepEqual(await new SkillRuntime({ home, host: host(home) }).list(), {
    success: true,
    skills: [],
    categories: [],
    count: 0,
    message: "No skills found.",
  });
});

Deno.test("[L0-2] platforms: aliases, case-insensitive, prefix match, absent means all", () => {
  equal(platformMatches({}, "linux"), true);
  equal(platformMatches({ platforms: ["MacOS"] }, "darwin"), true);
  equal(platformMatches({ platforms: "windows" }, "win32"), true);
  equal(platformMatches({ platforms: ["windows", "macos"] }, "linux"), false);
  equal(platformMatches({ platforms: ["free"] }, "freebsd"), true);
});

Deno.test("[L0-3] environments: any match shows, unknown tags match, absent means all", async () => {
  equal(environmentMatches({}, []), true);
  equal(environmentMatches({ environments: ["docker"] }, []), false);
  equal(environmentMatches({ environments: ["docker", "kanban"] }, ["kanban"]), true);
  equal(environmentMatches({ environments: ["spaceship"] }, []), true);
  const home = makeTree({ "skills/d/SKILL.md": skill("d", "D", "environments: [docker]\n") });
  equal((await new SkillRuntime({ home, host: host(home) }).list()).count, 0);
  equal((await new SkillRuntime({ home, host: host(home, ["docker"]) }).list()).count, 1);
  equal((await new SkillRuntime({ home, host: host(home) }).view("d")).name, "d"); // list only, not view
});

Deno.test("[L0-4] disabled and platform_disabled hide from list; view refuses with 'disabled'", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/b/SKILL.md": skill("b", "B"),
    "skills/c/SKILL.md": skill("c", "C"),
    "config.yaml": "skills:\n  disabled: [a]\n  platform_disabled:\n    telegram: [b]\n",
  });
  deepEqual(
    (await new SkillRuntime({ home, host: host(home), env: () => undefined }).list()).skills.map((
      s,
    ) => s.name),
    ["b", "c"],
  );
  deepEqual(
    (await new SkillRuntime({ home, host: host(home), platform: "telegram" }).list()).skills.map((
      s,
    ) => s.name),
    ["c"],
  );
  deepEqual(
    (await new SkillRuntime({
      home,
      host: host(home),
      env: (n) => (n === "HERMES_PLATFORM" ? "telegram" : undefined),
    }).list()).skills.map((s) => s.name),
    ["c"],
  );
  let message = "";
  try {
    await new SkillRuntime({ home, host: host(home) }).view("a");
  } catch (e) {
    message = (e as Error).message;
  }
  equal(message, "Skill 'a' is disabled.");
});

Deno.test("[L0-5] conditions apply only when availability is given, and never block view", async () => {
  const fm = {
    metadata: { hermes: { requires_toolsets: ["web"], fallback_for_tools: ["browser"] } },
  };
  equal(conditionsHold(fm, {}), true);
  equal(conditionsHold(fm, { toolsets: ["web"] }), true);
  equal(conditionsHold(fm, { toolsets: [] }), false);
  equal(conditionsHold(fm, { toolsets: ["web"], tools: ["browser"] }), false);
  const home = makeTree({
    "skills/w/SKILL.md": skill("w", "W", "metadata:\n  hermes:\n    requires_toolsets: [web]\n"),
  });
  equal(
    (await new SkillRuntime({ home, host: host(home), toolsets: ["terminal"] }).list()).count,
    0,
  );
  equal((await new SkillRuntime({ home, host: host(home) }).list()).count, 1);
  equal(
    (await new SkillRuntime({ home, host: host(home), toolsets: ["terminal"] }).view("w")).name,
    "w",
  );
});

Deno.test("[L0-6] categories with counts and DESCRIPTION.md (frontmatter, else first body line)", async () => {
  const home = makeTree({
    "skills/dev/a/SKILL.md": skill("a", "A"),
    "skills/dev/b/SKILL.md": skill("b", "B"),
    "skills/dev/DESCRIPTION.md": "---\ndescription: Developer tools\n---\n",
    "skills/ops/c/SKILL.md": skill("c", "C"),
    "skills/ops/DESCRIPTION.md": "# Ops\n\nOperations work.\n",
    "skills/misc/d/SKILL.md": skill("d", "D"),
  });
  deepEqual(await new SkillRuntime({ home, host: host(home) }).categories(), {
    success: true,
    categories: [
      { category: "dev", count: 2, description: "Developer tools" },
      { category: "misc", count: 1, description: null },
      { category: "ops", count: 1, description: "Operations work." },
    ],
    count: 3,
  });
});

Deno.test("[L0-7] search ranks name over tags over description, with scores", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("docker", "Containers"),
    "skills/b/SKILL.md": skill("compose", "Multi-service", "tags: [docker]\n"),
    "skills/c/SKILL.md": skill("k8s", "Runs docker images in pods"),
    "skills/d/SKILL.md": skill("git", "Version control"),
  });
  const doc = await new SkillRuntime({ home, host: host(home) }).search("DOCKER");
  deepEqual(doc.skills.map((s) => s.name), ["docker", "compose", "k8s"]);
  ok(doc.skills[0].score! > doc.skills[1].score! && doc.skills[1].score! > doc.skills[2].score!);
  equal(doc.count, 3);
});

Deno.test("[L0-7] a search query over 1000 characters is refused in one line (CLI exit 1, MCP isError), before any skill is scored", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("docker", "Containers") });
  const long = "docker ".repeat(143); // 1001 characters
  const message = "Search query is 1001 characters long; the limit is 1000.";
  try {
    const rt = new SkillRuntime({ home, host: host(home) });
    await rejects(
      () => rt.search(long),
      (e: Error) => e.name === "ValidationError" && e.message === message,
    );
    equal((await rt.search(long.slice(0, 1000))).count, 1);
    const r = await cliJson(["--home", home, "search", long]);
    deepEqual([r.code, r.json.success, r.json.error], [1, false, message]);
    const client = await connectStdio(home);
    try {
      const answer = await client.callTool({ name: "skills_search", arguments: { query: long } });
      deepEqual([answer.isError, firstText(answer).error], [true, message]);
    } finally {
      await client.close();
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[L0-8] prompt xml is byte-compatible with skills-ref to-prompt (HTML-escaped)", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", `Use <b> & "quotes" 'here'`) });
  const rt = new SkillRuntime({ home, host: host(home) });
  const doc = await rt.prompt();
  const loc = `${Deno.realPathSync(home)}/skills/a/SKILL.md`;
  equal(
    doc.prompt,
    `<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nUse &lt;b&gt; &amp; &quot;quotes&quot; &#x27;here&#x27;\n</description>\n<location>\n${loc}\n</location>\n</skill>\n</available_skills>`,
  );
  equal(doc.chars, doc.prompt.length);
  equal(doc.estimatedTokens, Math.ceil(doc.prompt.length / 4));
  equal(buildPrompt([], "xml").prompt, "<available_skills>\n</available_skills>");
});

Deno.test("[L0-8] over budget, descriptions of the least-used skills go first, never names", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A".repeat(100)),
    "skills/b/SKILL.md": skill("b", "B".repeat(100)),
    "skills/c/SKILL.md": skill("c", "C".repeat(100)),
    "skills/.usage.json": JSON.stringify({
      a: { view_count: 5, use_count: 5 },
      b: { view_count: 0, use_count: 0 },
      c: { view_count: 1, use_count: 1 },
    }),
  });
  const rt = new SkillRuntime({ home, host: host(home) });
  const full = await rt.prompt({ format: "markdown" });
  const doc = await rt.prompt({ format: "markdown", budgetChars: full.chars - 50 });
  deepEqual(doc.descriptionsDropped, ["b"]);
  equal(doc.overBudget, false);
  ok(doc.chars <= full.chars - 50);
  const tiny = await rt.prompt({ format: "json", budgetChars: 10 });
  deepEqual(tiny.descriptionsDropped, ["b", "c", "a"]);
  equal(tiny.overBudget, true);
  deepEqual(JSON.parse(tiny.prompt).available_skills.map((s: { name: string }) => s.name), [
    "a",
    "b",
    "c",
  ]);
});

Deno.test("[L0-9] a category description is the first paragraph of DESCRIPTION.md, lines joined", async () => {
  equal(
    firstParagraph("# Dev\n\nBuilding, shipping\nand debugging services.\n\nMore later.\n"),
    "Building, shipping and debugging services.",
  );
  const home = makeTree({
    "skills/dev/DESCRIPTION.md": "# Dev\n\nBuilding, shipping\nand debugging.\n\nOther.\n",
    "skills/dev/a/SKILL.md": skill("a", "A."),
  });
  try {
    const r = await cliJson(["--home", home, "list", "--categories"]);
    equal(
      (r.json.categories as { description: string }[])[0].description,
      "Building, shipping and debugging.",
    );
  } finally {
    removeTrees(home);
  }
});

Deno.test("[L0-8] prompt --format xml prints <location> through the real folder of a linked skill, like skills-ref", async () => {
  const elsewhere = makeTree({ "real-pdf/SKILL.md": skill("pdf", "PDF files.") });
  const home = makeTree({ "skills/.keep": "" });
  Deno.symlinkSync(`${elsewhere}/real-pdf`, `${home}/skills/pdf`);
  try {
    const r = await cli(["--home", home, "prompt", "--format", "xml"]);
    equal(r.code, 0, r.stderr);
    const real = Deno.realPathSync(`${elsewhere}/real-pdf`);
    equal(
      r.stdout,
      [
        "<available_skills>",
        "<skill>",
        "<name>",
        "pdf",
        "</name>",
        "<description>",
        "PDF files.",
        "</description>",
        "<location>",
        `${real}/SKILL.md`,
        "</location>",
        "</skill>",
        "</available_skills>",
        "",
      ].join("\n"),
    );
  } finally {
    removeTrees(elsewhere, home);
  }
});

Deno.test("[V-10] version, author and license appear in view --json and list --json (top level, metadata.hermes, metadata)", async () => {
  const home = makeTree({
    "skills/top/SKILL.md": skill(
      "top",
      "Hermes style.",
      "version: 1.2.0\nauthor: Nous Research\nlicense: MIT\n",
    ),
    "skills/meta/SKILL.md": skill(
      "meta",
      "Agent Skills style.",
      "license: Apache-2.0\nmetadata:\n  author: [Ann, Bob]\n  version: 2\n",
    ),
    "skills/hermes/SKILL.md": skill(
      "hermes",
      "Nested.",
      "metadata:\n  hermes:\n    author: {name: Cy, email: cy@example.com}\n",
    ),
    "skills/none/SKILL.md": skill("none", "Nothing."),
  });
  try {
    const list = await cliJson(["--home", home, "list"]);
    deepEqual(list.json.skills, [
      { name: "hermes", description: "Nested.", category: null, tags: [], author: "Cy" },
      {
        name: "meta",
        description: "Agent Skills style.",
        category: null,
        tags: [],
        version: "2",
        author: "Ann, Bob",
        license: "Apache-2.0",
      },
      { name: "none", description: "Nothing.", category: null, tags: [] },
      {
        name: "top",
        description: "Hermes style.",
        category: null,
        tags: [],
        version: "1.2.0",
        author: "Nous Research",
        license: "MIT",
      },
    ]);
    const top = await cliJson(["--home", home, "view", "top"]);
    deepEqual([top.json.version, top.json.author, top.json.license], [
      "1.2.0",
      "Nous Research",
      "MIT",
    ]);
    const none = await cliJson(["--home", home, "view", "none"]);
    deepEqual([none.json.version, none.json.author, none.json.license], [null, null, null]);
  } finally {
    removeTrees(home);
  }
});
