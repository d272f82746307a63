/**
 * [X-1][X-6] The permission plan of every command and every sub-action of the command table,
 * with representative arguments, held exactly to the record in
 * `tests/fixtures/command_plans.json`: what its Worker may read, write, run, reach and see,
 * the skeleton the warden makes for it, or the one line it is refused with. The record was
 * taken from the code before the plans moved onto the commands' rows (issue 28); a change
 * to a plan shows here as the line whose plan changed. A row (or a `hub`, `bundle`,
 * `pending`, `curator` action) without a line here fails the test: adding a command is
 * adding a row, and its plan is recorded here.
 *
 * `SKILLRT_RECORD_PLANS=1` writes the record again from the code as it is (review the diff).
 */
import { deepEqual, equal } from "node:assert/strict";
import { planOf, skeletonOf } from "../../src/cli/planning.ts";
import { parseArgs } from "../../src/cli/program.ts";
import { COMMAND_ROWS, CONTENT_COMMANDS } from "../../src/cli/command_table.ts";
import { HUB_ACTIONS } from "../../src/cli/commands/hub_plan.ts";
import { sandbox } from "../../src/cli/sandbox_command.ts";
import type { CommandRequest } from "../../src/worker/request.ts";
import { type HomeLayout, resolveHomeLayout } from "../../src/home/layout.ts";
import { cli, cliJson, makeTree, removeTrees, REPO, skill, testHost } from "../helpers.ts";

const RECORD = `${REPO}/tests/fixtures/command_plans.json`;
const SKILL = skill("demo", "A demo skill.");

/** The sub-actions each command with actions offers, as its grammar completes them. */
function subActions(command: string): readonly string[] {
  if (command === "hub") return HUB_ACTIONS;
  const row = COMMAND_ROWS.find((r) => r.name === command);
  const complete = row?.grammar?.arguments?.[0]?.complete;
  return Array.isArray(complete) ? complete : [];
}

/** The lines planned: `[home, ...words]`, `home` naming one of the homes made below. */
function lines(w: Record<string, string>): string[][] {
  return [
    ["plain", "list"],
    ["plain", "search", "demo"],
    ["plain", "view", "demo"],
    ["plain", "view", "demo", "references/a.md"],
    ["plain", "invoke", "demo", "do", "it"],
    ["plain", "prompt"],
    ["plain", "prompt", "--preload", "demo"],
    ["plain", "run", "demo", "scripts/go.sh"],
    ["plain", "run", "demo", "scripts/go.sh", "--workdir", w.out],
    ["plain", "validate", w.upstream, "rel"],
    ["plain", "validate"],
    ["plain", "doctor"],
    ["plain", "graph"],
    ["plain", "bundle"],
    ["plain", "bundle", "list"],
    ["plain", "bundle", "show", "b"],
    ["plain", "bundle", "create", "b2", "--skills", "demo"],
    ["plain", "bundle", "edit", "b", "--description", "Both."],
    ["plain", "bundle", "delete", "b"],
    ["approval", "bundle", "create", "b2", "--skills", "demo"],
    ["plain", "mcp"],
    ["plain", "mcp", "--allow-writes"],
    ["approval", "mcp", "--allow-writes"],
    ["plain", "mcp", "--allow-run", "--workdir", w.out],
    ["plain", "mcp", "--http", "--port", "8765"],
    ["plain", "create", "fresh", "--category", "newcat"],
    ["approval", "create", "fresh"],
    ["plain", "init", "started", "--description", "Started."],
    ["plain", "edit", "demo"],
    ["plain", "patch", "demo", "--old", "Do the thing.", "--new", "Do it."],
    ["plain", "delete", "demo"],
    ["plain", "write-file", "demo", "references/a.md"],
    ["plain", "remove-file", "demo", "references/a.md"],
    ["plain", "enable", "demo"],
    ["plain", "enable", "other"],
    ["plain", "disable", "demo"],
    ["plain", "setup", "demo"],
    ["approval", "pending"],
    ["approval", "pending", "list"],
    ["approval", "pending", "diff", "all"],
    ["approval", "pending", "approve", "all"],
    ["approval", "pending", "reject", "all"],
    ["plain", "curator"],
    ["plain", "curator", "status"],
    ["plain", "curator", "run"],
    ["plain", "curator", "run", "--dry-run"],
    ["plain", "curator", "pin", "demo"],
    ["plain", "curator", "unpin", "demo"],
    ["plain", "curator", "restore", "demo"],
    ["plain", "sync", "--from", w.from],
    ["plain", "hub", "install", w.upstream],
    ["plain", "hub", "install", w.upstream, "--name", "baz"],
    ["plain", "hub", "install", w.from, "--skill", "b"],
    ["plain", "hub", "install", "https://files.example.test/web.tar.gz"],
    ["plain", "hub", "install", "git+https://git.example.test/t.git", "--name", "tool"],
    ["plain", "hub", "install", "owner/repo", "--skill", "tools/pdf"],
    ["plain", "hub", "install", "owner/repo"],
    ["plain", "hub", "install", "--from-lock", "team.lock.json"],
    ["plain", "hub", "install", w.upstream, "--agent", "claude"],
    ["plain", "hub", "search", "pdf"],
    ["plain", "hub", "list"],
    ["plain", "hub", "uninstall", "upstream"],
    ["plain", "hub", "uninstall", "nothing"],
    ["plain", "hub", "verify"],
    ["plain", "hub", "check"],
    ["plain", "hub", "check", "upstream"],
    ["plain", "hub", "update"],
    ["plain", "hub", "update", "upstream"],
    ["plain", "hub", "scan", w.upstream],
    ["plain", "hub", "audit"],
    ["plain", "hub", "audit", "--verify"],
    ["plain", "hub", "publish", w.from, "--out", "site"],
    ["plain", "hub", "publish", w.from, "--out", "site", "--sign", "key.pem"],
    ["plain", "hub", "keygen", "--out", "key.pem"],
    ["plain", "hub", "lock", "export", "--out", "team.lock.json"],
    ["plain", "hub", "lock", "export"],
    ["plain", "hub", "frobnicate"],
    ["plain", "hub", "instal", "x"],
    ["plain", "hub", "install"],
    ["plain", "hub", "install", "x", "--from-lock", "team.lock.json"],
    ["plain", "hub", "install", "x", "--frozen"],
    ["plain", "hub", "uninstall"],
    ["plain", "hub", "scan"],
    ["plain", "hub", "lock"],
    ["plain", "hub", "lock", "import"],
    ["plain", "bundle", "frobnicate"],
    ["plain", "curator", "frobnicate"],
    ["plain", "pending", "frobnicate"],
  ];
}

/** A plan's lists. */
interface Lists {
  read: string[];
  write: string[];
  run: string[];
  net: string[];
  env: string[];
}

/** One line's record: its plan and skeleton, or the line it was refused with. */
type Recorded = (Lists & { skeleton: string[] }) | { refused: string };

const SANDBOX_HOST = {
  os: "linux",
  deno: "/opt/sandbox/deno",
  bwrap: "/opt/sandbox/bwrap",
  system: [],
  scratch: "/opt/sandbox/scratch",
};

function setupFor(home: string, user: string, work: string, agents?: string[]): HomeLayout {
  const host = testHost(work, { userHome: user, sandbox: SANDBOX_HOST });
  return resolveHomeLayout({ home, host, agents, env: () => undefined });
}

/** The request a line parses to, with placeholder content for the commands that take it. */
function requestOf(words: string[]): CommandRequest {
  const parsed = parseArgs(words, "", () => undefined, false);
  if (parsed.kind !== "command") throw new Error(`${words.join(" ")}: no command`);
  const request = parsed.request;
  if (CONTENT_COMMANDS.includes(request.command)) {
    const name = request.args[0] ?? "x";
    request.options.content = request.command === "write-file" ? "plan" : skill(name, "Planned.");
  }
  return request;
}

async function planned(words: string[], setup: HomeLayout): Promise<Recorded> {
  let request: CommandRequest;
  try {
    request = requestOf(words);
    const agents = request.global.agents;
    if (agents) setup = setupFor(setup.home, setup.host.userHome!, setup.host.cwd, agents);
    if (request.command === "mcp") return await mcpPlanned(words, setup, request);
    const found = await planOf(request, setup);
    if ("outcome" in found) return { refused: found.outcome.stderr.trim() };
    const { read, write, run, net, env } = found.plan;
    return { read, write, run, net, env, skeleton: skeletonOf(request, setup) };
  } catch (error) {
    return { refused: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** `mcp`'s plan, as `sandbox mcp …` shows it. */
async function mcpPlanned(
  words: string[],
  setup: HomeLayout,
  request: CommandRequest,
): Promise<Recorded> {
  const outer: CommandRequest = {
    command: "sandbox",
    args: words,
    options: {},
    global: { json: true, color: false },
  };
  const out = await sandbox(outer, setup);
  if (out.exitCode !== 0) return { refused: out.stderr.trim() };
  const plan = JSON.parse(out.stdout).plan as Lists;
  return { ...plan, skeleton: skeletonOf(request, setup) };
}

/** Replaces the test's temporary folders with names, so that the record holds on any machine. */
function normalized(value: unknown, places: [string, string][]): unknown {
  let text = JSON.stringify(value);
  for (const [path, name] of places) text = text.replaceAll(path, name);
  return JSON.parse(text);
}

/** Homes and folders the lines name: a plain home with a hub-installed skill, one with write approval. */
async function world() {
  const user = makeTree({
    "plain/skills/cat/demo/SKILL.md": SKILL,
    "plain/skills/cat/demo/references/a.md": "A.\n",
    "plain/skills/other/SKILL.md": skill("other", "Another skill."),
    "plain/config.yaml": "skills:\n  disabled: [other]\n",
    "plain/skill-bundles/b.yaml": "name: b\nskills: [demo]\n",
    "approval/config.yaml": "skills:\n  write_approval: true\n",
    "approval/skills/demo/SKILL.md": SKILL,
    "approval/skill-bundles/b.yaml": "name: b\nskills: [demo]\n",
    "work/upstream/SKILL.md": skill("upstream", "Up."),
    "work/from/a/SKILL.md": skill("a", "A."),
    "work/from/b/c/SKILL.md": skill("c", "C."),
    "work/out/.keep": "",
    "work/staged.md": skill("staged", "Staged."),
    "work/team.lock.json": JSON.stringify({
      $schema: "urn:skillrt:hub-lock:v1",
      version: 1,
      skills: {
        tool: {
          source: "git+https://git.example.test/t.git",
          ref: "a".repeat(40),
          category: "dev",
          content_hash: `sha256:${"a".repeat(64)}`,
          trust_level: "community",
        },
      },
    }),
  });
  const work = `${user}/work`;
  const installed = await cli([
    "--home",
    `${user}/plain`,
    "hub",
    "install",
    `${work}/upstream`,
    "--yes",
  ], {});
  equal(installed.code, 0, installed.stderr);
  const staged = await cli([
    "--home",
    `${user}/approval`,
    "create",
    "staged",
    "--file",
    "staged.md",
  ], {
    cwd: work,
  });
  equal(staged.code, 0, staged.stderr);
  const queue = await cliJson(["--home", `${user}/approval`, "pending", "list"]);
  equal((queue.json.pending as unknown[]).length, 1, queue.stdout);
  return { user, work };
}

Deno.test("[X-1][X-6] the plan of every command and sub-action is exactly the recorded one", async () => {
  const { user, work } = await world();
  try {
    const w = { upstream: `${work}/upstream`, from: `${work}/from`, out: `${work}/out` };
    const record: Record<string, unknown> = {};
    for (const [home, ...words] of lines(w)) {
      const setup = setupFor(`${user}/${home}`, user, work);
      record[[home, ...words].join(" ")] = await planned(words, setup);
    }
    const got = normalized(record, [[work, "<work>"], [user, "<user>"]]) as Record<
      string,
      unknown
    >;
    if (Deno.env.get("SKILLRT_RECORD_PLANS") === "1") {
      Deno.writeTextFileSync(RECORD, JSON.stringify(got, null, 2) + "\n");
    }
    const want = JSON.parse(Deno.readTextFileSync(RECORD)) as Record<string, unknown>;
    deepEqual(Object.keys(got), Object.keys(want), "the lines recorded");
    for (const key of Object.keys(want)) deepEqual(got[key], want[key], key);
  } finally {
    removeTrees(user);
  }
});

Deno.test("[C-1] every row of the table, and every action of hub, bundle, pending and curator, has a recorded plan", () => {
  const w = { upstream: "u", from: "f", out: "o" };
  const named = lines(w).map(([, ...words]) => words);
  for (const row of COMMAND_ROWS) {
    if (!row.grammar || row.plan === undefined) continue; // internal steps, warden commands
    const own = named.filter((words) => words[0] === row.name);
    equal(own.length > 0, true, `${row.name}: no line plans it`);
    for (const action of subActions(row.name)) {
      const covered = own.some((words) => words[1] === action);
      equal(covered, true, `${row.name} ${action}: no line plans it`);
    }
  }
});
