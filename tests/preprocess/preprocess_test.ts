import { deepEqual, equal, ok } from "node:assert/strict";
import { splitCommand } from "../../src/preprocess/shell_words.ts";
import {
  gateCommand,
  MAX_OUTPUT_CHARS,
  runArgv,
  shapeOutput,
} from "../../src/preprocess/inline_shell.ts";
import { preprocess, substituteVariables } from "../../src/preprocess/preprocess.ts";
import { refusedArgument } from "../../src/preprocess/arg_policy.ts";
import {
  configBlock,
  expandConfigString,
  formatConfigValue,
} from "../../src/preprocess/config_block.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { workerPermissions } from "../../src/warden/plan.ts";
import { planFor } from "../../src/cli/plan_for.ts";
import { cli, cliJson, makeTree, processEnded, skill, testHost } from "../helpers.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const host = (cwd: string) => testHost(cwd, { shellEnv: { PATH } });
const shellHome = (body: string, allow = "[date, echo, printf, sleep]", extra = "") =>
  makeTree({
    "skills/s/SKILL.md": skill("s", "S", "", body),
    "config.yaml":
      `skills:\n  inline_shell: true\n  inline_shell_timeout: 1\n  inline_shell_allow: ${allow}\n${extra}`,
  });
const bodyOf = async (home: string, opts: { sessionId?: string; args?: string } = {}) => {
  const v = await new SkillRuntime({ home, host: host(home), sessionId: opts.sessionId }).view(
    "s",
    { args: opts.args },
  );
  return v.content.slice(v.content.indexOf("---\n\n") + 5);
};

Deno.test("[P-4] argv splitting follows shell quoting; shell syntax is detected outside quotes", () => {
  deepEqual(splitCommand(`printf '%s %s' "a b" c\\ d`), {
    argv: ["printf", "%s %s", "a b", "c d"],
    shellSyntax: false,
  });
  deepEqual(splitCommand(`echo "say \\"hi\\""`), {
    argv: ["echo", 'say "hi"'],
    shellSyntax: false,
  });
  for (
    const cmd of [
      "a | b",
      "a; b",
      "a && b",
      "a > f",
      "a < f",
      "echo $(id)",
      "echo $HOME",
      "ls *.md",
      "cd ~",
    ]
  ) {
    equal((splitCommand(cmd) as { shellSyntax: boolean }).shellSyntax, true, cmd);
  }
  equal((splitCommand("echo 'a | b; c > d'") as { shellSyntax: boolean }).shellSyntax, false);
  deepEqual(splitCommand("echo 'open"), { error: "unclosed single quote" });
  equal(shapeOutput("out\r\n\n"), "out");
  equal(shapeOutput("x".repeat(4001)), "x".repeat(4000) + "...[truncated]");
  deepEqual(gateCommand("date +%F", ["date"]), { argv: ["date", "+%F"] });
  deepEqual(gateCommand("date | cat", ["date", "bash"]), { argv: ["bash", "-c", "date | cat"] });
  deepEqual(gateCommand("/bin/date", ["date"]), {
    marker: "[inline-shell blocked: programs are named, not given as paths: '/bin/date']",
  });
});

Deno.test("[P-4] argument policies: date and uname admit only forms that read no file; echo and printf take anything", () => {
  for (const arg of ["+%F", "+%s -f x", "-u", "--utc", "-R", "-I", "-Iseconds", "--iso-8601"]) {
    equal(refusedArgument("date", [arg]), undefined, arg);
  }
  for (const arg of ["--iso-8601=ns", "--rfc-3339=seconds", "--rfc-email"]) {
    equal(refusedArgument("date", [arg]), undefined, arg);
  }
  for (
    const arg of ["-f", "--file=/x", "-r", "--reference=/x", "-d", "--date=x", "-s", "-uf", "--"]
  ) ok(refusedArgument("date", [arg])?.includes(`argument '${arg}'`), arg);
  for (const arg of ["/etc/passwd", "0101", "--r", "-Rf"]) ok(refusedArgument("date", [arg]), arg);
  for (const arg of ["-a", "-sr", "-snrvmpio", "--all", "--kernel-name", "--operating-system"]) {
    equal(refusedArgument("uname", [arg]), undefined, arg);
  }
  for (const arg of ["-x", "--help", "/etc/passwd", "-a/x"]) {
    ok(refusedArgument("uname", [arg]), arg);
  }
  equal(refusedArgument("printf", ["%s", "-f", "/etc/passwd"]), undefined);
  equal(refusedArgument("echo", ["-e", "/etc/passwd"]), undefined);
  equal(refusedArgument("git", ["-c", "x"]), undefined);
});

Deno.test("[P-4] the gate puts values in after splitting: argv words for programs, parameters and variables for bash", () => {
  const values = { skillDir: "/s d", templateVars: true, args: `a "b c"`, sessionId: "s1" };
  deepEqual(gateCommand("printf %s $ARGUMENTS ${HERMES_SKILL_DIR}/x $0$1", ["printf"], values), {
    argv: ["printf", "%s", `a "b c"`, "/s d/x", "ab c"],
  });
  deepEqual(gateCommand(`echo "$0" $ARGUMENTS \${CLAUDE_SESSION_ID} | cat`, ["bash"], values), {
    argv: [
      "bash",
      "-c",
      'echo ""${1}"" "${ARGUMENTS}" "${HERMES_SESSION_ID}" | cat',
      "bash",
      "a",
      "b c",
    ],
    env: { HERMES_SESSION_ID: "s1", ARGUMENTS: `a "b c"` },
  });
  deepEqual(gateCommand("echo $ARGUMENTS[99999999999999999999] | cat", ["bash"], values), {
    argv: ["bash", "-c", 'echo "" | cat', "bash", "a", "b c"],
    env: { ARGUMENTS: `a "b c"` },
  });
  deepEqual(gateCommand("$ARGUMENTS", ["a"], values), {
    marker:
      "[inline-shell blocked: the program is named by the skill, not by its arguments: $ARGUMENTS]",
  });
  deepEqual(gateCommand("echo \uE0000\uE001", ["echo"], values), {
    marker: "[inline-shell blocked: the command holds the reserved characters U+E000/U+E001]",
  });
  // Without --args the forms stay as written: `$0` is then shell syntax, as before.
  deepEqual(gateCommand("echo $0", ["echo"], { skillDir: "/s", templateVars: true }), {
    marker:
      "[inline-shell blocked: shell syntax needs 'bash' in skills.inline_shell_allow: echo $0]",
  });
});

Deno.test("[P-3] markers from real child processes: timeout (killed), long output, missing program, blocked program, shell syntax", async () => {
  const bin = makeTree({
    "slowtouch":
      '#!/bin/sh\necho $$ > "$HERMES_SKILL_DIR/pid"\nsleep 2\ntouch "$HERMES_SKILL_DIR/touched"\n',
  });
  Deno.chmodSync(`${bin}/slowtouch`, 0o755);
  const body = [
    "T !`slowtouch` T",
    "L !`printf '%05000d' 0` L",
    "M !`no-such-program-xyz --flag` M",
    "B !`rm -rf /tmp/nothing` B",
    "S !`date | cat` S",
    "",
  ].join("\n");
  const home = shellHome(body, "[printf, slowtouch, no-such-program-xyz, date]");
  const rt = new SkillRuntime({
    home,
    host: { ...host(home), shellEnv: { PATH: `${bin}:${PATH}` } },
  });
  const out = (await rt.view("s")).content.split("\n").slice(-6);
  equal(out[0], "T [inline-shell timeout after 1s: slowtouch] T");
  equal(out[1], `L ${"0".repeat(MAX_OUTPUT_CHARS)}...[truncated] L`);
  equal(out[2], "M [inline-shell error: program 'no-such-program-xyz' not found] M");
  equal(
    out[3],
    "B [inline-shell blocked: 'rm' is not in skills.inline_shell_allow (printf, slowtouch, no-such-program-xyz, date)] B",
  );
  equal(
    out[4],
    "S [inline-shell blocked: shell syntax needs 'bash' in skills.inline_shell_allow: date | cat] S",
  );
  // The killed script has ended, so it can never reach its last line.
  const pid = Number(Deno.readTextFileSync(`${home}/skills/s/pid`));
  ok(await processEnded(pid), `the script (pid ${pid}) outlived its timeout`);
  deepEqual(Array.from(Deno.readDirSync(`${home}/skills/s`)).map((e) => e.name).sort(), [
    "SKILL.md",
    "pid",
  ]);
  Deno.removeSync(home, { recursive: true });
  Deno.removeSync(bin, { recursive: true });
});

Deno.test("[P-4] each run: cwd is the skill folder, stdin closed, environment cleared but for the named variables", async () => {
  const home = shellHome("!`bash -c 'pwd; env | sort; cat; echo end'`\n", "[bash]");
  const rt = new SkillRuntime({
    home,
    host: { ...host(home), shellEnv: { PATH, HOME: "/home/x", LANG: "C.UTF-8" } },
    sessionId: "sid-1",
  });
  const out = (await rt.view("s")).content.split("---\n\n")[1].trimEnd().split("\n");
  const dir = `${Deno.realPathSync(home)}/skills/s`;
  equal(out[0], dir);
  const env = out.slice(1, -1).filter((l) => !/^(PWD|SHLVL|_|OLDPWD)=/.test(l));
  deepEqual(env, [
    `HERMES_SESSION_ID=sid-1`,
    `HERMES_SKILL_DIR=${dir}`,
    "HOME=/home/x",
    "LANG=C.UTF-8",
    `PATH=${PATH}`,
  ]);
  equal(out.at(-1), "end");
});

Deno.test("[P-4] Deno itself refuses a program outside the Worker's run grant (NotCapable), and the plan holds only the allow list", async () => {
  const home = shellHome("x\n", "[date]");
  const setup = resolveHomeLayout({ home, host: host(home) });
  const plan = planFor("view", setup);
  deepEqual(plan.run, ["date"]);
  const worker = new Worker(new URL("../fixtures/inline_probe_worker.ts", import.meta.url), {
    type: "module",
    deno: { permissions: workerPermissions(plan) },
  });
  const result = await new Promise<string[]>((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ cwd: home, programs: ["date", "ls"] });
  });
  worker.terminate();
  ok(/^\w{3} \w{3} /.test(result[0]), result[0]);
  equal(result[1], "[inline-shell blocked: not permitted by the sandbox: run access to 'ls']");
  // runArgv in this (unrestricted) process runs the same program fine: the refusal above is Deno's.
  ok(
    !(await runArgv(["ls"], "ls", { cwd: home, allow: [], timeoutSeconds: 5, env: { PATH } }))
      .startsWith("[inline-shell"),
  );
});

Deno.test("[P-3] inline shell is off by default: the text is kept as written", async () => {
  const home = makeTree({
    "skills/s/SKILL.md": skill("s", "S", "", "Now: !`date` in ${HERMES_SKILL_DIR}\n"),
  });
  equal(await bodyOf(home), `Now: !\`date\` in ${Deno.realPathSync(home)}/skills/s\n`);
  const plan = planFor("view", resolveHomeLayout({ home, host: host(home) }));
  deepEqual(plan.run, []);
});

Deno.test("[P-4] a skill installed from the hub with community trust, or under a lock that does not parse, never runs inline shell", async () => {
  const home = shellHome("X !`date` X\n", "[date]");
  Deno.mkdirSync(`${home}/skills/.hub`);
  Deno.writeTextFileSync(
    `${home}/skills/.hub/lock.json`,
    JSON.stringify({
      version: 1,
      installed: { s: { trust_level: "community", install_path: "s" } },
    }),
  );
  equal(
    await bodyOf(home),
    "X [inline-shell blocked: skill 's' was installed from the hub with community trust; its inline shell never runs] X\n",
  );
  Deno.writeTextFileSync(
    `${home}/skills/.hub/lock.json`,
    JSON.stringify({ version: 1, installed: { s: { trust_level: "trusted", install_path: "s" } } }),
  );
  ok(!(await bodyOf(home)).includes("[inline-shell"));
  // A lock that does not parse: whether the skill came from the hub is unknown, so no shell.
  Deno.writeTextFileSync(`${home}/skills/.hub/lock.json`, '{"installed": {"s": ');
  equal(
    await bodyOf(home),
    `X [inline-shell blocked: the hub lock '${
      Deno.realPathSync(home)
    }/skills/.hub/lock.json' does not parse, so whether skill 's' came from the hub is unknown; its inline shell does not run] X\n`,
  );
});

Deno.test("[P-2] template variables, Claude aliases, session id, unknown ${X} left as written, template_vars off", async () => {
  const body =
    "${HERMES_SKILL_DIR}|${CLAUDE_SKILL_DIR}|${HERMES_SESSION_ID}|${CLAUDE_SESSION_ID}|${OTHER}|$HOME\n";
  const home = makeTree({ "skills/s/SKILL.md": skill("s", "S", "", body) });
  const dir = `${Deno.realPathSync(home)}/skills/s`;
  equal(await bodyOf(home, { sessionId: "abc" }), `${dir}|${dir}|abc|abc|\${OTHER}|$HOME\n`);
  equal(
    await bodyOf(home),
    `${dir}|${dir}|\${HERMES_SESSION_ID}|\${CLAUDE_SESSION_ID}|\${OTHER}|$HOME\n`,
  );
  Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  template_vars: false\n");
  equal(await bodyOf(home, { sessionId: "abc" }), body);
});

Deno.test("[P-1] single pass: a command's output containing ${HERMES_SKILL_DIR} or another command is not expanded again", async () => {
  const home = shellHome(
    "A !`printf '%s{HERMES_SKILL_DIR} !\\x60date\\x60' '$'` B\n",
    "[printf, date]",
  );
  equal(await bodyOf(home), "A ${HERMES_SKILL_DIR} !`date` B\n");
  const ctx = { skillDir: "/s", sessionId: "!`date`", templateVars: true };
  equal(
    await preprocess("${HERMES_SESSION_ID}", {
      ...ctx,
      inlineShell: { cwd: "/", allow: ["date"], timeoutSeconds: 1, env: {} },
    }),
    "!`date`",
  );
});

Deno.test("[P-5] --args fills $ARGUMENTS, $ARGUMENTS[N] and $N (0-based); without --args they stay", async () => {
  const home = makeTree({
    "skills/s/SKILL.md": skill(
      "s",
      "S",
      "",
      "all=$ARGUMENTS one=$ARGUMENTS[1] zero=$0 two=$2 none=$7\n",
    ),
  });
  equal(
    await bodyOf(home, { args: `fix "the bug" now` }),
    `all=fix "the bug" now one=the bug zero=fix two=now none=\n`,
  );
  equal(await bodyOf(home), "all=$ARGUMENTS one=$ARGUMENTS[1] zero=$0 two=$2 none=$7\n");
  equal(
    substituteVariables("$ARGUMENTS[0]-$1", { skillDir: "/s", templateVars: true, args: "a b" }),
    "a-b",
  );
});

Deno.test("[P-6] config block: dot paths, defaults, (not set), ~ and ${VAR} expansion, exact format", async () => {
  const extra =
    "required_environment_variables: [TOKEN_NAME]\nmetadata:\n  hermes:\n    config:\n      - key: out.dir\n        default: ~/fallback\n      - key: token.name\n        default: ${TOKEN_NAME}\n      - key: level\n      - key: list\n";
  const home = makeTree({
    "skills/s/SKILL.md": skill("s", "S", extra),
    "config.yaml":
      "skills:\n  config:\n    out:\n      dir: ~/reports/${PROJECT}\n    list: [1, 2]\n",
  });
  const env: Record<string, string> = { PROJECT: "apollo", TOKEN_NAME: "deploy-bot" };
  const rt = new SkillRuntime({
    home,
    host: { ...host(home), userHome: "/home/u" },
    envValues: (asks) =>
      Promise.resolve(
        Object.fromEntries(asks.filter((a) => a.name in env).map((a) => [a.name, env[a.name]])),
      ),
  });
  const v = await rt.view("s");
  deepEqual(v.config, {
    "out.dir": "/home/u/reports/apollo",
    "token.name": "deploy-bot",
    level: null,
    list: [1, 2],
  });
  ok(
    v.content.startsWith(
      `[Skill config (from ${home}/config.yaml):\n  out.dir = /home/u/reports/apollo\n  token.name = deploy-bot\n  level = (not set)\n  list = [1,2]\n]\n\n---\nname: s`,
    ),
  );
  equal(configBlock({}, "/c.yaml"), "");
  equal(formatConfigValue(""), "(not set)");
  equal(expandConfigString("${NOPE}/x", {}, "/h"), "${NOPE}/x");
});

Deno.test("[P-6] through the CLI the warden answers ${VAR} for the Worker, which has no env grant", async () => {
  const extra =
    "required_environment_variables: [TEST_WHERE_TO_GO]\nmetadata:\n  hermes:\n    config:\n      - key: where\n        default: ${TEST_WHERE_TO_GO}\n";
  const home = makeTree({ "skills/s/SKILL.md": skill("s", "S", extra) });
  const r = await cliJson(["--home", home, "view", "s"], {
    env: { TEST_WHERE_TO_GO: "over-there" },
  });
  deepEqual(r.json.config, { where: "over-there" });
  deepEqual(
    ((await cliJson(["--home", home, "sandbox", "view"])).json.plan as { env: string[] }).env,
    [],
  );
});

Deno.test("[V-7] invoke: activation note, content, directory, config block, setup note, files, instruction", async () => {
  const extra =
    "required_environment_variables: [NEEDED_VAR]\nmetadata:\n  hermes:\n    config:\n      - key: mode\n        default: fast\n";
  const home = makeTree({
    "skills/s/SKILL.md": skill("s", "S", extra, "# S\n\nDo it.\n"),
    "skills/s/references/r.md": "# R\n",
  });
  const dir = `${Deno.realPathSync(home)}/skills/s`;
  const r = await cli(["--home", home, "invoke", "s", "please", "hurry"]);
  equal(r.code, 0);
  const text = skill("s", "S", extra, "# S\n\nDo it.\n").trim();
  equal(
    r.stdout,
    [
      `[IMPORTANT: The user has invoked the "s" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]`,
      "",
      text,
      "",
      `[Skill directory: ${dir}]`,
      "Relative paths in this skill (scripts/, templates/, references/, assets/) are relative to that directory; use the absolute path to run or read them.",
      "",
      `[Skill config (from ${home}/config.yaml):`,
      "  mode = fast",
      "]",
      "",
      `[Skill setup note: NEEDED_VAR is not set (in the environment or ${home}/.env); the skill still loads, but what needs it will not work until then.]`,
      "",
      "[Supporting files (relative to the skill directory):]",
      "- references/r.md",
      'Open one with skill_view(name="s", file_path="<path>").',
      "",
      "The user has provided the following instruction alongside the skill invocation: please hurry",
      "",
    ].join("\n"),
  );
  const json = await cliJson(["--home", home, "invoke", "s"]);
  equal(json.json.kind, "skill");
  ok(!(json.json.message as string).includes("The user has provided"));
});
