/**
 * `enable` / `disable` ([V-10]): config.yaml edited in place — comments, other keys, order
 * and spacing kept — atomically, refused clearly when its structure cannot be edited
 * safely; config.yaml is granted only to these user commands (and `setup`), never to MCP.
 */
import { deepEqual, equal, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { editConfigText } from "../../src/home/config_edit.ts";
import { parseConfig } from "../../src/home/config.ts";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { checkWrites } from "../../src/warden/write_guard.ts";
import { realPathOrUndefined } from "../../src/home/paths.ts";
import { rowOf } from "../../src/cli/command_table.ts";
import { cli, cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

/** A config.yaml as people write them: comments everywhere, keys skillrt never reads. */
const RICH = `# Hermes config — hand-written
model:
  default: anthropic/claude  # the main model
  fallback: [openai/gpt, local/llama]

# Skills
skills:
  external_dirs:
    - ~/team-skills   # shared
  # Hidden for now:
  disabled:
    - legacy-tool     # replaced
    - "quoted-one"
  platform_disabled:
    telegram: [big-skill]
  template_vars: yes
  config:
    wiki:
      path: ~/wiki   # where notes go

terminal:
  backend: local
  # timeout in seconds
  timeout: 60
`;

const add = (name: string) => ({
  kind: "list" as const,
  update: (xs: string[]) => (xs.includes(name) ? xs : [...xs, name]),
});
const remove = (name: string) => ({
  kind: "list" as const,
  update: (xs: string[]) => xs.filter((x) => x !== name),
});

Deno.test("[V-10] disable adds one line to skills.disabled; every comment and other key stays byte for byte", () => {
  const out = editConfigText(RICH, ["skills", "disabled"], add("docker"));
  equal(
    out,
    RICH.replace(`    - "quoted-one"\n`, `    - "quoted-one"\n    - docker\n`),
  );
  deepEqual(parseConfig(out).config.disabled, ["legacy-tool", "quoted-one", "docker"]);
  equal(
    editConfigText(out, ["skills", "disabled"], add("docker")),
    out,
    "already there: unchanged",
  );
  const back = editConfigText(out, ["skills", "disabled"], remove("docker"));
  equal(back, RICH, "enable takes exactly that line out again");
  const quoted = editConfigText(RICH, ["skills", "disabled"], remove("quoted-one"));
  equal(quoted, RICH.replace(`    - "quoted-one"\n`, ""));
});

Deno.test("[V-10] a platform list written in flow style becomes a block list; a missing platform or section is added below its parent", () => {
  const flow = editConfigText(RICH, ["skills", "platform_disabled", "telegram"], add("x"));
  equal(
    flow,
    RICH.replace("    telegram: [big-skill]\n", "    telegram:\n      - big-skill\n      - x\n"),
  );
  const discord = editConfigText(RICH, ["skills", "platform_disabled", "discord"], add("zed"));
  equal(
    discord,
    RICH.replace(
      "    telegram: [big-skill]\n",
      "    telegram: [big-skill]\n    discord:\n      - zed\n",
    ),
  );
  const bare = "# nothing about skills\nmodel: x\n";
  equal(
    editConfigText(bare, ["skills", "disabled"], add("a")),
    "# nothing about skills\nmodel: x\nskills:\n  disabled:\n    - a\n",
  );
  equal(editConfigText("", ["skills", "disabled"], add("a")), "skills:\n  disabled:\n    - a\n");
  const emptied = editConfigText(
    "skills:\n  disabled:\n    - a  # only\n  inline_shell: false\n",
    ["skills", "disabled"],
    remove("a"),
  );
  equal(emptied, "skills:\n  disabled: []\n  inline_shell: false\n");
  const crlf = "skills:\r\n  disabled:\r\n    - a\r\n";
  equal(
    editConfigText(crlf, ["skills", "disabled"], add("b")),
    "skills:\r\n  disabled:\r\n    - a\r\n    - b\r\n",
  );
  const sameIndent = "skills:\n  disabled:\n  - a\n  write_approval: true\n";
  equal(
    editConfigText(sameIndent, ["skills", "disabled"], add("b")),
    "skills:\n  disabled:\n  - a\n  - b\n  write_approval: true\n",
  );
});

Deno.test("[V-10] structures that cannot be edited safely are refused with one clear line", () => {
  const cases: [string, string][] = [
    ["skills: {disabled: [a]}\n", "'skills' is not written as a block mapping"],
    ["skills:\n  disabled: &hidden\n    - a\nother: *hidden\n", "is not a simple list"],
    ["skills:\n  disabled:\n    - 1.0\n", "would not read back as intended"],
    ["skills:\n  disabled:\n    - a\n    -\n      nested: 1\n", "is not a list of names"],
    [
      "skills:\n  disabled:\n    - a\n  disabled:\n    - b\n",
      "it does not parse (duplicated mapping key)",
    ],
    ["skills:\n  disabled: [a\n", "it does not parse"],
    ["- just\n- a list\n", "it is not a YAML mapping"],
    ["skills:\n  disabled:\n    - >-\n      folded\n", "is not a simple list"],
  ];
  for (const [text, why] of cases) {
    throws(
      () => editConfigText(text, ["skills", "disabled"], add("z"), "/h/config.yaml"),
      (e: Error) => {
        ok(e.message.startsWith("Cannot edit '/h/config.yaml' safely: "), e.message);
        ok(e.message.includes(why), `${JSON.stringify(text)}: ${e.message}`);
        ok(e.message.endsWith("Nothing was written; edit it by hand."), e.message);
        return true;
      },
    );
  }
});

Deno.test("[V-10] scalar values under skills.config are set in place or added, comments kept", () => {
  const set = editConfigText(RICH, ["skills", "config", "wiki", "path"], {
    kind: "scalar",
    value: "/srv/wiki notes",
  });
  equal(
    set,
    RICH.replace(
      "      path: ~/wiki   # where notes go",
      '      path: "/srv/wiki notes"   # where notes go',
    ),
  );
  const added = editConfigText(RICH, ["skills", "config", "gh", "org"], {
    kind: "scalar",
    value: "acme",
  });
  equal(
    added,
    RICH.replace(
      "      path: ~/wiki   # where notes go\n",
      "      path: ~/wiki   # where notes go\n    gh:\n      org: acme\n",
    ),
  );
  throws(
    () => editConfigText(RICH, ["skills", "config", "wiki"], { kind: "scalar", value: "x" }),
    /'skills.config.wiki' holds a structure/,
  );
});

Deno.test("[V-10] enable and disable at the CLI: atomic, comments kept, platform lists, unknown names warned, refusal changes nothing", async () => {
  const home = makeTree({ "skills/docker/SKILL.md": skill("docker", "D"), "config.yaml": RICH });
  try {
    Deno.chmodSync(`${home}/config.yaml`, 0o600);
    const off = await cliJson(["--home", home, "disable", "docker"]);
    equal(off.code, 0, off.stderr);
    equal(off.json.message, `Disabled 'docker' (${home}/config.yaml).`);
    equal(Deno.statSync(`${home}/config.yaml`).mode! & 0o777, 0o600, "the file's mode is kept");
    equal(
      Deno.readTextFileSync(`${home}/config.yaml`),
      RICH.replace(`    - "quoted-one"\n`, `    - "quoted-one"\n    - docker\n`),
    );
    const listed = await cliJson(["--home", home, "list"]);
    ok(!(listed.json.skills as { name: string }[]).some((s) => s.name === "docker"));
    const envOnly = await cliJson(["--home", home, "disable", "docker"], {
      env: { HERMES_PLATFORM: "discord" },
    });
    equal(envOnly.json.changed, false, "$HERMES_PLATFORM never narrows a toggle to one platform");
    const tg = await cliJson(["--home", home, "disable", "docker", "--platform", "telegram"]);
    equal(tg.json.message, `Disabled 'docker' on platform 'telegram' (${home}/config.yaml).`);
    const on = await cliJson(["--home", home, "enable", "docker"]);
    equal(on.json.changed, true);
    equal(
      Deno.readTextFileSync(`${home}/config.yaml`),
      RICH.replace("    telegram: [big-skill]\n", "    telegram:\n      - big-skill\n"),
      "enable without --platform takes it off every list",
    );
    const again = await cliJson(["--home", home, "enable", "docker"]);
    deepEqual([again.json.changed, again.json.message], [
      false,
      `'docker' was already enabled; ${home}/config.yaml is unchanged.`,
    ]);
    const ghost = await cliJson(["--home", home, "disable", "ghost"]);
    deepEqual(ghost.json.warnings, [
      "No skill named 'ghost' is known here; the list names it anyway.",
    ]);
    // Enabling it takes it off the list, and a name never listed is not "named anyway".
    for (const changed of [true, false]) {
      const unghost = await cliJson(["--home", home, "enable", "ghost"]);
      deepEqual([unghost.json.changed, unghost.json.warnings], [
        changed,
        ["No skill named 'ghost' is known here."],
      ]);
    }
    deepEqual(
      Array.from(Deno.readDirSync(home)).map((e) => e.name).sort(),
      ["config.yaml", "skills"],
      "no lock or temporary file is left",
    );
    const bad = await cli(["--home", home, "disable", "a b"]);
    equal(bad.code, 2);
    equal(bad.stderr, `skillrt: Invalid skill name "a b".\n`);
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills: {disabled: [a]}  # flow\n");
    const refused = await cli(["--home", home, "disable", "docker"]);
    equal(refused.code, 1);
    equal(
      refused.stderr,
      `skillrt: Cannot edit '${home}/config.yaml' safely: 'skills' is not written as a block mapping. Nothing was written; edit it by hand.\n`,
    );
    equal(Deno.readTextFileSync(`${home}/config.yaml`), "skills: {disabled: [a]}  # flow\n");
    // A config.yaml that is a link (a dotfiles checkout) is never written through.
    Deno.mkdirSync(`${home}/dotfiles`);
    Deno.writeTextFileSync(`${home}/dotfiles/config.yaml`, "model: x\n");
    Deno.removeSync(`${home}/config.yaml`);
    Deno.symlinkSync(`${home}/dotfiles/config.yaml`, `${home}/config.yaml`);
    const linked = await cli(["--home", home, "disable", "docker"]);
    equal(linked.code, 1);
    equal(
      linked.stderr,
      `skillrt: '${home}/config.yaml' is a symbolic link; skillrt does not write through links. Edit it by hand.\n`,
    );
    equal(Deno.readTextFileSync(`${home}/dotfiles/config.yaml`), "model: x\n");
  } finally {
    removeTrees(home);
  }
});

/** What the fence admits for a command, by its row ([V-10]: `userFiles`). */
const admits = (command: string) => ({ userFiles: rowOf(command)?.userFiles === true });

Deno.test("[V-10][X-6] config.yaml and .env are granted only to enable, disable and setup — never to MCP or a skill write", () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A"), "config.yaml": "" });
  try {
    const setup = resolveHomeLayout({ home, host: testHost(home) });
    const own = [
      `${home}/config.yaml`,
      `${home}/config.yaml.tmp`,
      `${home}/.env`,
      `${home}/.env.lock`,
    ];
    for (const command of ["enable", "disable", "setup"]) {
      checkWrites(command, own, setup, realPathOrUndefined, admits(command));
    }
    for (const command of ["mcp", "create", "bundle", "hub", "pending", "curator"]) {
      for (const path of own) {
        throws(
          () => checkWrites(command, [path], setup, realPathOrUndefined, admits(command)),
          (e: Error) =>
            e.message ===
              `Refusing the sandbox plan of '${command}': it would grant write access to '${path}', and it is the user's own config.yaml or .env, which only enable, disable and setup write.`,
        );
      }
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[V-10][X-3] the plan of disable grants config.yaml, its lock and temporary file, and nothing else", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A"), "config.yaml": "model: x\n" });
  try {
    const plan = await cliJson(["--home", home, "sandbox", "disable", "a"]);
    deepEqual((plan.json.plan as { write: string[] }).write, [
      `${home}/config.yaml`,
      `${home}/config.yaml.lock`,
      `${home}/config.yaml.lock.break`,
      `${home}/config.yaml.tmp`,
    ]);
    const none = await cliJson(["--home", home, "sandbox", "enable", "a"]);
    deepEqual((none.json.plan as { write: string[] }).write, [], "nothing to change: no grant");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[V-10] property: on any block-style config, disable adds exactly the name and enable restores the text byte for byte", () => {
  const slug = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
  const comment = fc.option(fc.stringMatching(/^[ a-zA-Z0-9.,-]{0,20}$/), { nil: undefined });
  const line = (indent: string, text: string, c: string | undefined) =>
    `${indent}${text}${c === undefined ? "" : `  # ${c}`}`;
  fc.assert(
    fc.property(
      fc.uniqueArray(slug, { maxLength: 6 }),
      fc.array(comment, { minLength: 8, maxLength: 8 }),
      slug,
      fc.boolean(),
      (names: string[], comments: (string | undefined)[], extra: string, otherFirst: boolean) => {
        fc.pre(!names.includes(extra));
        // YAML 1.1 words (`no`, `on`, `null`, …) are not names when written bare.
        fc.pre(names.every((n) => !/^(y|n|yes|no|on|off|true|false|null)$/.test(n)));
        const disabled = names.length
          ? [
            line("  ", "disabled:", comments[0]),
            ...names.map((n, i) => line("    ", `- ${n}`, comments[(i % 6) + 1])),
          ]
          : [];
        const other = [line("  ", "template_vars: true", comments[7])];
        const text = [
          "# top comment",
          "model: x  # keep",
          "skills:",
          ...(otherFirst ? [...other, ...disabled] : [...disabled, ...other]),
          "terminal:",
          "  backend: local",
          "",
        ].join("\n");
        const off = editConfigText(text, ["skills", "disabled"], add(extra));
        deepEqual(parseConfig(off).config.disabled, [...names, extra]);
        equal(off.split("\n").length, text.split("\n").length + (names.length ? 1 : 2));
        const on = editConfigText(off, ["skills", "disabled"], remove(extra));
        if (names.length) equal(on, text);
        else deepEqual(parseConfig(on).config.disabled, []);
      },
    ),
    { numRuns: 300 },
  );
});
