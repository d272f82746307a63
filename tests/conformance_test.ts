/**
 * Parity round two (issue 14), the rest of the conformance bugs: each test names the
 * requirement it shows and runs the real CLI on a real temporary home.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { openSandboxedRuntime, SkillRuntime } from "../mod.ts";
import {
  assertAbsent,
  cli,
  cliJson,
  makeTree,
  removeTrees,
  skill,
  snapshot,
  testHost,
} from "./helpers.ts";

type Listed = {
  name: string;
  hidden?: string;
  version?: string;
  author?: string;
  license?: string;
};

Deno.test("[SY-1][L0-6] sync --from copies the category DESCRIPTION.md files beside the skill folders", async () => {
  const from = makeTree({
    "devops/DESCRIPTION.md": "---\ndescription: Build and ship.\n---\n\n# DevOps\n",
    "devops/docker/SKILL.md": skill("docker", "Containers."),
    "data/DESCRIPTION.md": "# Data\n\nTheirs.\n",
    "data/sql/SKILL.md": skill("sql", "SQL."),
    "gone/DESCRIPTION.md": "# Gone\n\nOnly for a deleted skill.\n",
    "gone/old/SKILL.md": skill("old", "Old."),
  });
  const home = makeTree({
    "skills/devops/mine/SKILL.md": skill("mine", "The user's own, so devops/ is there already."),
    "skills/data/DESCRIPTION.md": "# Data\n\nMine.\n",
    "skills/.bundled_manifest": "old:0123\n", // the user deleted 'old'
  });
  try {
    const r = await cliJson(["--home", home, "sync", "--from", from]);
    equal(r.code, 0, r.stderr);
    deepEqual(r.json.descriptions, ["devops/DESCRIPTION.md"]);
    equal(
      Deno.readTextFileSync(`${home}/skills/devops/DESCRIPTION.md`),
      "---\ndescription: Build and ship.\n---\n\n# DevOps\n",
    );
    equal(Deno.readTextFileSync(`${home}/skills/data/DESCRIPTION.md`), "# Data\n\nMine.\n");
    assertAbsent(`${home}/skills/gone`);
    const cats = await cliJson(["--home", home, "list", "--categories"]);
    deepEqual(cats.json.categories, [
      { category: "data", count: 1, description: "Mine." },
      { category: "devops", count: 2, description: "Build and ship." },
    ]);
  } finally {
    removeTrees(from, home);
  }
});

Deno.test("[SY-1][S-9] sync --from refuses a DESCRIPTION.md linked out of the folder, and writes nothing", async () => {
  const outside = makeTree({ "secret.md": "top secret\n" });
  const from = makeTree({ "devops/docker/SKILL.md": skill("docker", "Containers.") });
  Deno.symlinkSync(`${outside}/secret.md`, `${from}/devops/DESCRIPTION.md`);
  const home = makeTree({ "skills/.keep": "" });
  try {
    const before = snapshot(home);
    const r = await cliJson(["--home", home, "sync", "--from", from]);
    equal(r.code, 1);
    match(String(r.json.error), /'devops\/DESCRIPTION\.md' is a symbolic link that leaves it/);
    equal(snapshot(home), before);
  } finally {
    removeTrees(outside, from, home);
  }
});

Deno.test("[M-6] under agentskills and claude, frontmatter that is not valid YAML is an error; hermes repairs it with a warning", async () => {
  const dir = makeTree({
    "colon/SKILL.md": "---\nname: colon\ndescription: Use it: when needed\n---\n\nBody.\n",
  });
  try {
    const severity = async (profile: string) => {
      const r = await cliJson(["validate", dir, "--profile", profile]);
      const f = (r.json.findings as { rule: string; severity: string; message: string }[])
        .filter((x) => x.rule === "frontmatter.yaml_repaired");
      equal(f.length, 1, JSON.stringify(r.json));
      match(f[0].message, /^YAML frontmatter parse error: /);
      return [f[0].severity, r.code];
    };
    deepEqual(await severity("agentskills"), ["error", 1]);
    deepEqual(await severity("claude"), ["error", 1]);
    deepEqual(await severity("hermes"), ["warning", 0]);
    // Listing still repairs it: the skill shows with its whole description.
    const home = makeTree({
      "skills/colon/SKILL.md": Deno.readTextFileSync(`${dir}/colon/SKILL.md`),
    });
    try {
      const list = await cliJson(["--home", home, "list"]);
      equal((list.json.skills as { description: string }[])[0].description, "Use it: when needed");
    } finally {
      removeTrees(home);
    }
  } finally {
    removeTrees(dir);
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

Deno.test("[M-6] names are compared after NFKC: folder against name:, resolution by name, duplicates, disabled", async () => {
  const composed = "caf\u00e9"; // é as one code point
  const decomposed = "cafe\u0301"; // e + combining acute accent
  const dir = makeTree({ [`${composed}/SKILL.md`]: skill(decomposed, "Coffee.") });
  const home = makeTree({
    [`skills/a/${composed}/SKILL.md`]: skill(composed, "One."),
    [`skills/b/${decomposed}/SKILL.md`]: skill(decomposed, "Two."),
    [`skills/tea/SKILL.md`]: skill(decomposed.replace("caf", "th"), "Tea."),
  });
  try {
    const v = await cliJson(["validate", dir, "--profile", "agentskills"]);
    equal(v.code, 0, JSON.stringify(v.json.findings));
    // Two spellings of one name in one root: one entry, ambiguous ([S-7]).
    const list = await cliJson(["--home", home, "list"]);
    const skills = list.json.skills as { name: string; ambiguous?: boolean; matches?: string[] }[];
    equal(skills.filter((s) => s.name.normalize("NFKC") === composed).length, 1);
    deepEqual(skills.find((s) => s.ambiguous)?.matches, [`a/${composed}`, `b/${decomposed}`]);
    // Resolution by frontmatter name, in the other spelling.
    const tea = await cliJson(["--home", home, "view", "th\u00e9"]);
    equal(tea.code, 0, tea.stderr);
    equal(tea.json.description, "Tea.");
    // Disabled in one spelling hides and refuses the other.
    Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  disabled: ["th\u00e9"]\n`);
    const off = await cliJson(["--home", home, "view", decomposed.replace("caf", "th")]);
    equal(off.code, 1);
    match(String(off.json.error), /is disabled\.$/);
  } finally {
    removeTrees(dir, home);
  }
});

Deno.test("[L0-9] list --all (and --hidden) shows hidden skills with the reason; doctor counts them", async () => {
  const home = makeTree({
    "skills/mac/SKILL.md": skill("mac", "Mac only.", "platforms: [macos]\n"),
    "skills/kan/SKILL.md": skill("kan", "Kanban only.", "environments: [kanban]\n"),
    "skills/off/SKILL.md": skill("off", "Disabled."),
    "skills/web/SKILL.md": skill(
      "web",
      "Needs web.",
      "metadata:\n  hermes:\n    requires_toolsets: [web]\n",
    ),
    "skills/plain/SKILL.md": skill("plain", "Shown."),
    "config.yaml": "skills:\n  disabled: [off]\n",
  });
  const env = { HERMES_KANBAN_TASK: "", HERMES_KANBAN_BOARD: "" };
  try {
    const shown = await cliJson(["--home", home, "--toolsets", "terminal", "list"], { env });
    deepEqual((shown.json.skills as Listed[]).map((s) => s.name), ["plain"]);
    for (const flag of ["--all", "--hidden"]) {
      const all = await cliJson(["--home", home, "--toolsets", "terminal", "list", flag], { env });
      deepEqual(
        (all.json.skills as Listed[]).map((s) => [s.name, s.hidden ?? null]),
        [
          ["kan", "environment"],
          ["mac", "platform"],
          ["off", "disabled"],
          ["plain", null],
          ["web", "conditions"],
        ],
      );
    }
    const text = await cli(["--home", home, "--toolsets", "terminal", "list", "--all"], { env });
    match(text.stdout, /^mac \(hidden: platform\) +- +Mac only\.$/m);
    match(text.stdout, /^off \(hidden: disabled\) +- +Disabled\.$/m);
    match(text.stdout, /\n5 skills \(4 hidden\)\n$/);
    const doctor = await cliJson(["--home", home, "--toolsets", "terminal", "doctor"], { env });
    deepEqual(doctor.json.hidden, {
      disabled: 1,
      platform: 1,
      environment: 1,
      conditions: 1,
      total: 4,
    });
    const doctorText = await cli(["--home", home, "--toolsets", "terminal", "doctor"], { env });
    match(
      doctorText.stdout,
      /^Hidden {2}4 skills \(disabled 1, platform 1, environment 1, conditions 1\); 'list --all' shows them$/m,
    );
  } finally {
    removeTrees(home);
  }
});

Deno.test("[R-4][C-8] a name beginning with '-': view -- NAME works, the hints say to use '--', list shows it", async () => {
  const home = makeTree({ "skills/-dash/SKILL.md": skill("-dash", "Dash.") });
  try {
    const view = await cli(["--home", home, "--json", "view", "--", "-dash"]);
    equal(view.code, 0, view.stderr);
    equal(JSON.parse(view.stdout).description, "Dash.");
    const option = await cli(["--home", home, "view", "-dash"]);
    equal(option.code, 2);
    equal(
      option.stderr.split("\n")[0],
      "skillrt: Unknown option '-dash'. If '-dash' is a skill name, put '--' before it: skillrt view -- -dash",
    );
    const missing = await cliJson(["--home", home, "view", "dash"]);
    equal(missing.code, 1);
    equal(
      missing.json.hint,
      "Use 'skillrt list' to see all available skills. A name that begins with '-' goes after '--' on the command line: skillrt view -- -dash",
    );
    const text = await cli(["--home", home, "view", "dash"]);
    match(
      text.stderr,
      /Did you mean: -dash\? \(a name that begins with '-' goes after '--': -- -dash\)/,
    );
    const plainMissing = await cliJson(["--home", home, "view", "zzz-other"]);
    // The CLI's hint names its own command, not the MCP tool names.
    equal(plainMissing.json.hint, "Use 'skillrt list' to see all available skills");
    const list = await cli(["--home", home, "list"]);
    match(list.stdout, /^-dash +- +Dash\.$/m);
    match(list.stdout, /\nA name that begins with '-' goes after '--': skillrt view -- -dash\n$/);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[S-2] _deprecated/ is never walked, and not served by path either (like .archive)", async () => {
  const home = makeTree({
    "skills/_deprecated/old/SKILL.md": skill("old", "Old."),
    "skills/dev/_deprecated/older/SKILL.md": skill("older", "Older."),
    "skills/dev/new/SKILL.md": skill("new", "New."),
  });
  try {
    const list = await cliJson(["--home", home, "list"]);
    deepEqual((list.json.skills as Listed[]).map((s) => s.name), ["new"]);
    for (const name of ["old", "_deprecated/old", "dev/_deprecated/older"]) {
      const r = await cliJson(["--home", home, "view", name]);
      equal(r.code, 1, name);
      equal(r.json.error, `Skill '${name}' not found.`);
    }
  } finally {
    removeTrees(home);
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

Deno.test("[L0-2][L0-9] inside Termux, termux and android tags match, and so does linux", async () => {
  const home = makeTree({
    "skills/t/SKILL.md": skill("t", "Termux.", "platforms: [termux]\n"),
    "skills/a/SKILL.md": skill("a", "Android.", "platforms: [android]\n"),
    "skills/l/SKILL.md": skill("l", "Linux.", "platforms: [linux]\n"),
    "skills/m/SKILL.md": skill("m", "Mac.", "platforms: [macos]\n"),
  });
  try {
    const names = async (env: Record<string, string>) =>
      ((await cliJson(["--home", home, "list"], { env })).json.skills as Listed[]).map((s) =>
        s.name
      );
    deepEqual(await names({ TERMUX_VERSION: "0.118.1", PREFIX: "" }), ["a", "l", "t"]);
    deepEqual(await names({ TERMUX_VERSION: "", PREFIX: "/data/data/com.termux/files/usr" }), [
      "a",
      "l",
      "t",
    ]);
    if (Deno.build.os === "linux") {
      deepEqual(await names({ TERMUX_VERSION: "", PREFIX: "/usr" }), ["l"]);
    }
    const view = await cliJson(["--home", home, "view", "t"], { env: { TERMUX_VERSION: "1" } });
    equal(view.code, 0, view.stderr);
    ok(view.json.content);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[V-10][L0-9] the library: list({ all }) says why a skill is hidden; view and list carry version, author, license", async () => {
  const home = makeTree({
    "skills/mac/SKILL.md": skill("mac", "Mac only.", "platforms: [macos]\nversion: 3.1.0\n"),
    "skills/doc/SKILL.md": skill("doc", "Docs.", "license: MIT\nauthor: Ann\n"),
  });
  try {
    const rt = new SkillRuntime({ home, host: testHost(home) });
    deepEqual((await rt.list()).skills.map((s) => s.name), ["doc"]);
    const all = await rt.list({ all: true });
    deepEqual(
      all.skills.map((s) => [s.name, s.hidden ?? null, s.version ?? null, s.license ?? null]),
      [["doc", null, null, "MIT"], ["mac", "platform", "3.1.0", null]],
    );
    const view = await rt.view("doc");
    deepEqual([view.version, view.author, view.license], [null, "Ann", "MIT"]);
    const sandboxed = await openSandboxedRuntime({ home, host: testHost(home) }).list({
      all: true,
    });
    deepEqual(sandboxed.skills.map((s) => [s.name, s.hidden ?? null]), [["doc", null], [
      "mac",
      "platform",
    ]]);
  } finally {
    removeTrees(home);
  }
});
