import { deepEqual, equal, match, ok } from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import {
  cli,
  cliJson,
  type CliResult,
  DEMO_HOME,
  makeTree,
  removeTrees,
  skill,
  snapshot,
  tempFile,
  USAGE_FILES,
} from "../helpers.ts";

/** The commands of the core issue: each must have help and a completion. */
const CORE_COMMANDS = [
  "list",
  "search",
  "view",
  "prompt",
  "validate",
  "doctor",
  "sandbox",
  "completions",
];

Deno.test("[X-5] one source of flags: deno.json's skillrt and demo tasks use the warden's flags", () => {
  const flags = WARDEN_FLAGS.join(" ");
  // -q: Deno's first-run download lines stay out of skillrt's output.
  equal(denoJson.tasks.skillrt, `deno run -q ${flags} main.ts`);
  equal(denoJson.tasks.demo, `deno run -q ${flags} main.ts --home examples/home list`);
});

Deno.test("[C-1] global options stand before or after the command; --version; --help on every command", async () => {
  const before = await cliJson(["--home", DEMO_HOME, "list"]);
  const after = await cli(["list", "--home", DEMO_HOME, "--json"]);
  equal(before.code, 0);
  deepEqual(JSON.parse(after.stdout), before.json);
  const version = await cli(["--version"]);
  equal(version.stdout.trim(), denoJson.version);
  for (
    const command of CORE_COMMANDS
  ) {
    const help = await cli([command, "--help"]);
    equal(help.code, 0);
    match(help.stdout, new RegExp(`^Usage: skillrt ${command}`));
  }
});

Deno.test("[C-2] --json prints exactly one JSON document, equal to the library's result", async () => {
  const r = await cliJson(["--home", DEMO_HOME, "list"]);
  deepEqual(r.json, JSON.parse(JSON.stringify(await new SkillRuntime({ home: DEMO_HOME }).list())));
  equal(r.json.count, 11);
  deepEqual(r.json.categories, ["devops", "research", "writing"]);
  const v = await cliJson(["--home", DEMO_HOME, "view", "docker-basics"]);
  equal(v.json.name, "docker-basics");
  deepEqual(v.json.linked_files, {
    references: ["references/layers.md"],
    templates: ["templates/compose.yaml"],
    assets: [],
    scripts: ["scripts/check.sh"],
  });
});

Deno.test("[C-3] exit codes: 1 not found (one line, JSON success:false), 2 usage with the command's usage", async () => {
  const nf = await cliJson(["--home", DEMO_HOME, "view", "nope"]);
  equal(nf.code, 1);
  equal(nf.json.success, false);
  equal(nf.json.error, "Skill 'nope' not found.");
  equal(nf.stderr, "skillrt: Skill 'nope' not found.\n");
  const text = await cli(["--home", DEMO_HOME, "view", "nope"]);
  equal(text.stdout, "");
  equal(text.stderr, "skillrt: Skill 'nope' not found.\n");
  const unknown = await cli(["bogus"]);
  equal(unknown.code, 2);
  match(unknown.stderr, /^skillrt: Unknown command 'bogus'/);
  const opt = await cli(["list", "--bogus"]);
  equal(opt.code, 2);
  equal(opt.stderr, "skillrt: Unknown option '--bogus'\nUsage: skillrt list [options]\n");
  const missing = await cli(["view"]);
  equal(missing.code, 2);
  match(
    missing.stderr,
    /Missing required argument 'name'\nUsage: skillrt view \[options\] <name> \[path\]/,
  );
  const badJson = await cliJson(["list", "--bogus"]);
  equal(badJson.code, 2);
  equal(badJson.json.success, false);
  const none = await cli([]);
  equal(none.code, 2);
  match(none.stderr, /^skillrt: A command is required\.\nUsage: skillrt \[options\] \[command\]/);
  ok(
    !/\n\s+at /.test(unknown.stderr + opt.stderr + missing.stderr + none.stderr),
    "no stack trace",
  );
});

Deno.test("[C-3] text output: an aligned table, no colour when not a terminal", async () => {
  const r = await cli(["--home", DEMO_HOME, "list", "--category", "writing"]);
  equal(r.code, 0);
  equal(
    r.stdout,
    [
      "NAME             CATEGORY  DESCRIPTION",
      "changelog        writing   Keep a CHANGELOG.md in the Keep a Changelog format.",
      "commit-messages  writing   Write a commit message with a short imperative subject and a body that says why.",
      "",
      "2 skills",
      "",
    ].join("\n"),
  );
  ok(!r.stdout.includes("\x1b["));
});

Deno.test("[C-4] doctor: missing root, shadowed, ambiguous, frontmatter and config problems, hub lock", async () => {
  const home = makeTree({
    "skills/a/x/SKILL.md": skill("dup", "one"),
    "skills/b/x/SKILL.md": skill("dup", "two"),
    "skills/s/SKILL.md": skill("shared", "local"),
    "skills/bad/SKILL.md": "---\nname: bad\n",
    "skills/.hub/lock.json": "{not json",
    "ext/s/SKILL.md": skill("shared", "external"),
    "config.yaml": "skills:\n  external_dirs: [ext, gone]\n  template_vars: maybe\n",
  });
  const r = await cliJson(["--home", home, "doctor"]);
  equal(r.code, 1);
  const doc = r.json as Record<string, never>;
  const real = Deno.realPathSync(home);
  deepEqual(
    (doc.roots as { source: string; status: string; skills: number }[]).map((
      x,
    ) => [x.source, x.status, x.skills]),
    [["local", "present", 4], ["external", "present", 1], ["external", "missing", 0]],
  );
  deepEqual(doc.shadowed, [{
    name: "shared",
    path: `${real}/ext/s`,
    shadowed_by: `${real}/skills/s`,
  }]);
  deepEqual(doc.ambiguous, [{ name: "dup", root: `${real}/skills`, matches: ["a/x", "b/x"] }]);
  const codes = (doc.diagnostics as { code: string }[]).map((d) => d.code).sort();
  deepEqual(codes, ["config.type", "frontmatter.unclosed", "hub.lock_unparseable", "root.missing"]);
  deepEqual(doc.hub, { lock: "unparseable", installed: 0 });
  equal((doc.sandbox as { command: string }).command, "doctor");
});

Deno.test("[C-5] completions for bash, zsh and fish name every command; bash's is valid syntax", async () => {
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = await cli(["completions", shell]);
    equal(r.code, 0);
    for (
      const c of CORE_COMMANDS
    ) ok(r.stdout.includes(c), `${shell}: ${c}`);
  }
  const bash = await cli(["completions", "bash"]);
  const file = tempFile();
  Deno.writeTextFileSync(file, bash.stdout);
  equal((await new Deno.Command("bash", { args: ["-n", file] }).output()).code, 0);
  const bad = await cli(["completions", "tcsh"]);
  equal(bad.code, 2);
  equal(bad.stderr, "skillrt: Unknown shell 'tcsh'; use bash, zsh, fish.\n");
});

Deno.test("[M-5] validate: profiles, findings with file/line/rule/severity/message, exit 1 on errors, nothing written", async () => {
  const dir = makeTree({
    "good/SKILL.md": skill("good", "Fine"),
    "Bad_Name/SKILL.md": skill("Bad_Name", "x", "extra: 1\n"),
    "empty-body/SKILL.md": "---\nname: empty-body\ndescription: d\n---\n\n",
    "nofm/SKILL.md": "# no frontmatter\n",
  });
  const before = snapshot(dir);
  const hermes = await cliJson(["validate", dir]);
  equal(hermes.code, 1);
  const f = hermes.json.findings as {
    file: string;
    line: number | null;
    rule: string;
    severity: string;
    message: string;
  }[];
  const notInfo = f.filter((x) => x.severity !== "info"); // [M-6] notes: see init_test.ts
  deepEqual(notInfo.map((x) => [x.file.slice(dir.length + 1), x.line, x.rule, x.severity]), [
    ["Bad_Name/SKILL.md", 2, "hermes.name-format", "error"],
    ["empty-body/SKILL.md", 5, "content.body", "error"],
    ["nofm/SKILL.md", 1, "frontmatter.missing", "error"],
  ]);
  equal(notInfo[1].message, "SKILL.md must have content after the frontmatter.");
  equal(notInfo[2].message, "SKILL.md must start with YAML frontmatter (---).");
  const agent = await cliJson([
    "validate",
    `${dir}/Bad_Name`,
    `${dir}/good/SKILL.md`,
    "--profile",
    "agentskills",
  ]);
  deepEqual((agent.json.findings as { rule: string }[]).map((x) => x.rule), [
    "agentskills.name-format",
    "agentskills.unknown-field",
  ]);
  const ok0 = await cli(["validate", `${dir}/good`]);
  equal(ok0.code, 0);
  equal(ok0.stdout.split("\n").at(-2), "Checked 1 skill (hermes): 0 errors, 0 warnings, 2 notes.");
  equal((await cli(["validate", "--profile", "nope"])).code, 2);
  equal(snapshot(dir), before);
});

Deno.test("[§18] an unparseable config.yaml is a one-line error naming file and line; nothing changes", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "config.yaml": "skills:\n  disabled: [a\n  oops: : :\n",
  });
  const before = snapshot(home);
  for (const command of ["list", "doctor", "sandbox"]) {
    const r = await cliJson(["--home", home, command]);
    equal(r.code, 1);
    match(
      r.json.error as string,
      new RegExp(
        `^Config file '${
          Deno.realPathSync(home).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        }/config\\.yaml:\\d+' does not parse: `,
      ),
    );
    equal(r.stderr.split("\n").length, 2);
  }
  equal(snapshot(home), before);
});

Deno.test("[§18] reading commands never write: list/search/view/prompt/validate/doctor leave the home byte-identical", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/bad/SKILL.md": "---\nname: [unclosed\n---\nbody\n",
    "skills/big/SKILL.md": skill("big", "B", "", "x".repeat(1024 * 1024 + 10)),
    "skills/nonutf/SKILL.md": new Uint8Array([
      ...new TextEncoder().encode("---\nname: nonutf\ndescription: d\n---\n"),
      0xff,
      0x0a,
    ]),
    "skills/bomb/SKILL.md": `---\nname: bomb\n${bombLines()}---\nBomb body.\n`,
    "skills/huge-fm/SKILL.md": `---\nname: huge\npad: "${"p".repeat(70_000)}"\n---\nbody\n`,
    "skills/listy/SKILL.md": "---\n- a\n- b\n---\nA list, not a mapping.\n",
  });
  const before = snapshot(home, USAGE_FILES);
  const list = await cliJson(["--home", home, "list"]);
  deepEqual((list.json.skills as { name: string }[]).map((s) => s.name), [
    "[unclosed",
    "a",
    "big",
    "bomb",
    "huge-fm",
    "listy",
    "nonutf",
  ]);
  const doctor = await cliJson(["--home", home, "doctor"]);
  const codes = (doctor.json.diagnostics as { code: string; path: string }[]).map((d) =>
    `${d.path.split("/").at(-2)}:${d.code}`
  ).sort();
  deepEqual(codes, [
    "bad:frontmatter.yaml_invalid",
    "bomb:frontmatter.alias_bomb",
    "huge-fm:frontmatter.too_large",
    "listy:frontmatter.not_mapping",
  ]);
  // Level 0 reads only the head: invalid bytes in a body are reported by validate and refused by view.
  const checked = await cliJson(["--home", home, "validate"]);
  ok(
    (checked.json.findings as { file: string; rule: string }[]).some((f) =>
      f.file.endsWith("nonutf/SKILL.md") && f.rule === "file.invalid-utf8"
    ),
  );
  const names: [string, string][] = [
    ["a/../x", "Skill name cannot contain '..' path traversal components."],
    ["/abs", "Skill name must be a relative path within the skills directory."],
    ["C:\\x", "Skill name must be a relative path within the skills directory."],
    ["a\u0001", "Skill name 'a\\u0001' contains NUL or control characters."],
  ];
  for (const [name, error] of names) {
    const r = await cliJson(["--home", home, "view", name]);
    deepEqual([r.code, r.json.error, r.json.hint], [
      1,
      error,
      "Use a skill name or relative path within the skills directory.",
    ]);
  }
  const big = await cliJson(["--home", home, "view", "big"]);
  equal(big.code, 1);
  const size = Deno.statSync(`${home}/skills/big/SKILL.md`).size;
  equal(big.json.error, `SKILL.md of skill 'big' is ${size} bytes; the limit is 1048576 bytes.`);
  const nonutf = await cliJson(["--home", home, "view", "nonutf"]);
  equal(nonutf.json.error, "SKILL.md of skill 'nonutf' is not valid UTF-8.");
  const bomb = Deno.readTextFileSync(`${home}/skills/bomb/SKILL.md`);
  // Each command's exit code and one fact of its output: a crash cannot pass for "wrote nothing".
  const expected: [string[], number, (r: CliResult) => boolean][] = [
    [["search", "a"], 0, (r) => r.stdout.endsWith("\n2 skills\n") && / a +- +A\n/.test(r.stdout)],
    [["view", "a"], 0, (r) => r.stdout === skill("a", "A")],
    [
      ["prompt"],
      0,
      (r) => r.stdout.startsWith("<available_skills>\n") && r.stderr.startsWith("7 skills, "),
    ],
    [
      ["validate"],
      1,
      (r) => r.stdout.includes(`${home}/skills/bad/SKILL.md:2  error  frontmatter.yaml_invalid  `),
    ],
    [["doctor"], 1, (r) => r.stdout.includes("frontmatter.alias_bomb")],
    [["view", "bomb"], 0, (r) => r.stdout === bomb],
  ];
  for (const [args, code, fact] of expected) {
    const r = await cli(["--home", home, ...args]);
    equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    ok(fact(r), `${args.join(" ")} printed: ${r.stdout.slice(0, 300)}`);
  }
  equal(snapshot(home, USAGE_FILES), before);
});

function bombLines(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  return lines.join("\n") + "\n";
}

Deno.test("[L0-4] the CLI takes the platform from --platform, else $HERMES_PLATFORM (resolved by the warden)", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "skills/b/SKILL.md": skill("b", "B"),
    "config.yaml": "skills:\n  platform_disabled:\n    telegram: [b]\n    cli: [a]\n",
  });
  const names = (r: { json: Record<string, unknown> }) =>
    (r.json.skills as { name: string }[]).map((s) => s.name);
  deepEqual(names(await cliJson(["--home", home, "list"])), ["a", "b"]);
  deepEqual(
    names(await cliJson(["--home", home, "list"], { env: { HERMES_PLATFORM: "telegram" } })),
    ["a"],
  );
  deepEqual(
    names(
      await cliJson(["--home", home, "list", "--platform", "cli"], {
        env: { HERMES_PLATFORM: "telegram" },
      }),
    ),
    ["b"],
  );
  const v = await cliJson(["--home", home, "view", "b/"], { env: { HERMES_PLATFORM: "telegram" } });
  equal(v.json.error, "Skill 'b' is disabled.");
});

Deno.test("[C-4] doctor's text lists roots and plugins in one set of columns", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "plugins/acme/skills/deploy/SKILL.md": skill("deploy", "D"),
    "config.yaml": "skills:\n  external_dirs: [gone]\n",
  });
  try {
    const r = await cli(["--home", home, "doctor"]);
    const real = Deno.realPathSync(home);
    const at = r.stdout.indexOf("Roots\n");
    deepEqual(r.stdout.slice(at).split("\n").slice(1, 4), [
      `  local        present        1 skill   ${real}/skills`,
      `  external     missing        0 skills  ${real}/gone`,
      `  plugin       acme           1 skill   ${real}/plugins/acme/skills`,
    ]);
  } finally {
    removeTrees(home);
  }
});
