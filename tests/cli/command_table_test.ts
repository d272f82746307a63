/**
 * One command table (issue 16): the plan, the Worker's dispatcher, the grammar, the
 * completions and the management lists are derived from its rows. These tests hold the
 * derivation to the table: a row whose command has no module, no plan, no completion or
 * no place in the lists it claims fails here (or, for a missing module, already in the type
 * check: a row without one is a warden command, and `IN_WARDEN` must name it).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  COMMAND_MODULES,
  COMMAND_ROWS,
  COMMANDS,
  CONTENT_COMMANDS,
  isWriting,
  looksAtSandboxes,
  MANAGE_COMMANDS,
  PLANNED_COMMANDS,
  PREPROCESSING_COMMANDS,
  RUNNING_COMMANDS,
  runsScripts,
  SKILL_HELP_COMMANDS,
  USER_FILE_COMMANDS,
  WRITING_ACTIONS,
  WRITING_COMMANDS,
} from "../../src/cli/command_table.ts";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { MANAGE_ACTIONS } from "../../src/mcp/tools.ts";
import { planFor } from "../../src/cli/plan_for.ts";
import { approvalWritePaths } from "../../src/run/consent.ts";
import { turnsFolderOf } from "../../src/run/work_dir_turns.ts";
import { cli, cliJson, makeTree, skill, testHost } from "../helpers.ts";
import { registerModule } from "../../src/cli/worker_modules.ts";

// What src/cli/mcp_worker.ts does in the mcp Worker (import_graph_test holds it to that).
registerModule("mcp", await import("../../src/cli/commands/mcp.ts"));

const names = (keep: (row: (typeof COMMAND_ROWS)[number]) => boolean) =>
  COMMAND_ROWS.filter(keep).map((row) => row.name);

Deno.test("[C-1][X-1] every command of the table has a plan, a dispatcher entry and completions", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A skill.") });
  const setup = resolveHomeLayout({ home, host: testHost(home) });
  const bash = (await cli(["completions", "bash"])).stdout;
  const fish = (await cli(["completions", "fish"])).stdout;
  // The words bash offers for the first word: every command of the command line, in order.
  const offered = /compgen -W "([^"$]*)" -- "\$cur"\)\)\n {4}return\n {2}fi\n {2}case "\$cmd:\$pos"/
    .exec(bash)?.[1].split(" ");
  deepEqual(offered, names((row) => row.grammar !== undefined));
  for (const row of COMMAND_ROWS) {
    // Dispatcher: a command with a module runs in a Worker, which loads exactly that module.
    if (row.load) {
      equal(COMMAND_MODULES[row.name as keyof typeof COMMAND_MODULES], row.load, row.name);
      equal(typeof (await row.load()).run, "function", `${row.name}: its module has run()`);
    } else {
      ok(row.grammar, `${row.name}: a warden command is on the command line`);
      equal(row.plan, undefined, `${row.name}: the warden runs it under no plan`);
    }
    // Plan: every Worker command the command line names has one; the internal steps run
    // under the plan of the command they serve.
    const plan = planFor(row.name, setup);
    equal(plan.command, row.name);
    if (row.load && row.grammar) ok(row.plan, `${row.name} has a plan`);
    deepEqual(plan.read.includes(setup.localRoot), row.plan !== undefined, row.name);
    // Writes: counting uses ([U-1]), or recording script approvals ([RUN-3]) — nothing else.
    deepEqual(
      plan.write.length > 0,
      row.preprocesses === true || row.runs === true,
      `${row.name}: counts uses or records approvals`,
    );
    if (row.runs) {
      const writes = [...approvalWritePaths(setup.localRoot), turnsFolderOf(setup)];
      deepEqual(plan.write, writes.sort(), row.name);
    }
    // Completions: every command of the command line, and no internal step.
    const inFish = fish.includes(`-n __fish_use_subcommand -a ${row.name} `);
    equal(inFish, row.grammar !== undefined, `${row.name} in the fish completions`);
  }
});

Deno.test("[C-1][M-1] the lists derived from the table: planned, writing, preprocessing, management, content, user files, writing actions, MCP actions", () => {
  for (const name of MANAGE_COMMANDS) ok(WRITING_COMMANDS.includes(name), `${name} writes`);
  for (const name of CONTENT_COMMANDS) ok(MANAGE_COMMANDS.includes(name), `${name} manages`);
  deepEqual(PLANNED_COMMANDS, names((row) => row.plan !== undefined));
  deepEqual(WRITING_COMMANDS, names((row) => row.plan === "writes"));
  deepEqual(PREPROCESSING_COMMANDS, ["view", "invoke", "mcp"]);
  deepEqual(RUNNING_COMMANDS, ["run"]);
  deepEqual(MANAGE_COMMANDS, ["create", "edit", "patch", "delete", "write-file", "remove-file"]);
  deepEqual(CONTENT_COMMANDS, ["create", "edit", "write-file"]);
  deepEqual(USER_FILE_COMMANDS, ["enable", "disable", "setup"]);
  // [V-9][HUB-8] the warden answers setup's questions and hub's choice only: for these rows.
  deepEqual(
    COMMAND_ROWS.flatMap((row) => row.asks ? [[row.name, row.asks]] : []),
    [["setup", "ask"], ["hub", "choose"]],
  );
  // [IO-3] a skill's help is read in the command's Worker: the command reads skills.
  deepEqual(SKILL_HELP_COMMANDS, ["invoke"]);
  const planned: readonly string[] = PLANNED_COMMANDS;
  for (const name of SKILL_HELP_COMMANDS) ok(planned.includes(name), `${name} reads`);
  deepEqual(WRITING_ACTIONS, { bundle: ["create", "edit", "delete"] });
  equal(isWriting("bundle", ["create", "x"]), true);
  equal(isWriting("bundle", ["list"]), false);
  equal(isWriting("constructor"), false, "names are the table's own keys");
  equal(isWriting("hub", ["search"]), true, "a writing command writes whatever its action");
  deepEqual(MANAGE_ACTIONS.slice(0, MANAGE_COMMANDS.length + 2), [
    ...MANAGE_COMMANDS,
    "write_file",
    "remove_file",
  ]);
  deepEqual(COMMANDS.map((c) => c.name), names((row) => row.grammar !== undefined));
});

Deno.test("[X-3] sandbox prints the plan of every reading command the table names", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A skill.") });
  for (const name of names((row) => row.plan === "reads" && row.name !== "mcp")) {
    const r = await cliJson(["--home", home, "sandbox", name]);
    equal(r.code, 0, `${name}: ${r.stderr}`);
    equal(r.json.command, name);
    ok((r.json.plan as { read: string[] }).read.includes(`${home}/skills`), name);
  }
  const unknown = await cli(["--home", home, "sandbox", "probe"]);
  equal(unknown.code, 2, "an internal step has no plan to show");
  equal(
    unknown.stderr.trim(),
    `skillrt: Unknown sandbox command 'probe'; use ${PLANNED_COMMANDS.join(", ")}.`,
  );
});

Deno.test("[RUN-4][PERF-6] only the commands that run, report or show scripts' sandboxes look at them (mcp only with --allow-run)", () => {
  const asks = (command: string, options: Record<string, boolean> = {}) =>
    looksAtSandboxes({ command, args: [], options, global: { json: false, color: false } });
  deepEqual(
    COMMAND_ROWS.map((r) => r.name).filter((c) => asks(c)).sort(),
    ["doctor", "run", "sandbox"],
  );
  equal(asks("mcp", { allowRun: true }), true);
  equal(asks("mcp", { allowWrites: true }), false);
  // [RUN-3] a private scratch folder for snapshots: only for a line that runs scripts.
  const runs = (command: string, options: Record<string, boolean> = {}) =>
    runsScripts({ command, args: [], options, global: { json: false, color: false } });
  deepEqual(COMMAND_ROWS.map((r) => r.name).filter((c) => runs(c)), ["run"]);
  deepEqual([runs("run", { show: true }), runs("mcp", { allowRun: true })], [false, true]);
  equal(runs("mcp", { allowWrites: true }), false);
});
