/**
 * [RUN-3]: consent by hash. A local skill's script runs on request; a hub skill's (and an
 * external root's) runs only once the user approved that script's sha256 with its
 * declared grant — `--yes` here, the terminal otherwise — and is asked again when the
 * script or the grant changes. MCP's `skill_run` (only with `mcp --allow-run`) runs
 * approved scripts only and never records an approval: through the SDK's real client.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { probeSandboxHost } from "../src/run/sandbox_host.ts";
import { approvalsFile, readApprovals } from "../src/run/consent.ts";
import { sha256Hex } from "../src/hash/sha256.ts";
import { cli, makeTree, skill, tempDir } from "./helpers.ts";
import { connectStdio, firstText } from "./mcp_helpers.ts";
import { hubLock as lockFor } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

const SCRIPT = `echo "hello from $0"\n`;
const PERMS = "metadata:\n  skillrt:\n    permissions:\n      env: [GREETING]\n";

function makeHome(): string {
  const home = makeTree({
    "skills/mine/SKILL.md": skill("mine", "my own"),
    "skills/mine/scripts/hi.sh": SCRIPT,
    "skills/mine/scripts/touch.sh": 'echo x > "$1"; pwd\n',
    "skills/hubby/SKILL.md": skill("hubby", "from the hub", PERMS),
    "skills/hubby/scripts/hi.sh": SCRIPT,
    "skills/.hub/lock.json": lockFor("hubby"),
    "ext/outer/SKILL.md": skill("outer", "from an external root"),
    "ext/outer/scripts/hi.sh": SCRIPT,
  });
  Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  external_dirs: [${home}/ext]\n`);
  return home;
}

const run = (home: string, args: string[]) =>
  cli(["--home", home, "run", ...args], { cwd: tempDir(), env: { GREETING: "hi" } });

const NOT_APPROVED = (script: string, name: string, origin: string) =>
  `skillrt: Refusing to run '${script}' of skill '${name}': the user has not approved this ${origin} skill's script with its grant; approve it at a terminal or pass --yes.\n`;

Deno.test(
  { name: `a local skill's script runs on request; nothing is recorded${why}`, ignore },
  async () => {
    const home = makeHome();
    const r = await run(home, ["mine", "scripts/hi.sh"]);
    equal(r.code, 0, r.stderr);
    ok(r.stdout.startsWith("hello from "), r.stdout);
    ok(!Deno.statSync(home).isFile && readApprovals(`${home}/skills`).length === 0);
    let absent = false;
    try {
      Deno.statSync(approvalsFile(`${home}/skills`));
    } catch {
      absent = true;
    }
    ok(absent, "no approvals file");
  },
);

Deno.test({
  name:
    `a hub skill's script: refused unapproved, approved with --yes, asked again when it changes${why}`,
  ignore,
}, async () => {
  const home = makeHome();
  const refused = await run(home, ["hubby", "scripts/hi.sh"]);
  equal(refused.code, 3);
  equal(refused.stdout, "");
  equal(refused.stderr, NOT_APPROVED("scripts/hi.sh", "hubby", "hub"));
  equal(readApprovals(`${home}/skills`).length, 0);

  const yes = await run(home, ["hubby", "scripts/hi.sh", "--yes"]);
  equal(yes.code, 0, yes.stderr);
  const approvals = readApprovals(`${home}/skills`);
  equal(approvals.length, 1);
  deepEqual(
    { skill: approvals[0].skill, script: approvals[0].script, sha256: approvals[0].sha256 },
    { skill: "hubby", script: "scripts/hi.sh", sha256: sha256Hex(SCRIPT) },
  );
  // Approved: it runs without --yes.
  equal((await run(home, ["hubby", "scripts/hi.sh"])).code, 0);

  // The script changes: asked again.
  Deno.writeTextFileSync(`${home}/skills/hubby/scripts/hi.sh`, `${SCRIPT}echo changed\n`);
  equal(
    (await run(home, ["hubby", "scripts/hi.sh"])).stderr,
    NOT_APPROVED("scripts/hi.sh", "hubby", "hub"),
  );
  equal((await run(home, ["hubby", "scripts/hi.sh", "--yes"])).code, 0);
  // Variant: the grant changes (a new env name), the script does not: asked again.
  Deno.writeTextFileSync(
    `${home}/skills/hubby/SKILL.md`,
    skill("hubby", "from the hub", PERMS.replace("[GREETING]", "[GREETING, OTHER]")),
  );
  const regrant = await run(home, ["hubby", "scripts/hi.sh"]);
  equal(regrant.code, 3);
  equal(regrant.stderr, NOT_APPROVED("scripts/hi.sh", "hubby", "hub"));
  equal(readApprovals(`${home}/skills`).length, 1, "one approval per script, replaced");
});

Deno.test({ name: `an external root's script needs approval too${why}`, ignore }, async () => {
  const home = makeHome();
  const r = await run(home, ["outer", "scripts/hi.sh"]);
  equal(r.code, 3);
  equal(r.stderr, NOT_APPROVED("scripts/hi.sh", "outer", "external"));
});

/** The real MCP stdio server, run in a folder of its own (its scripts' work dir). */
const mcpClient = (home: string, extra: string[]): Promise<Client> =>
  connectStdio(home, extra, tempDir());

Deno.test({
  name: `MCP skill_run: only with --allow-run, approved scripts only, never approves${why}`,
  ignore,
}, async () => {
  const home = makeHome();
  const plain = await mcpClient(home, []);
  try {
    const names = (await plain.listTools()).tools.map((t: { name: string }) => t.name);
    ok(!names.includes("skill_run"), names.join(","));
  } finally {
    await plain.close();
  }
  const client = await mcpClient(home, ["--allow-run"]);
  try {
    const tool = (await client.listTools()).tools.find((t: { name: string }) =>
      t.name === "skill_run"
    );
    ok(tool, "skill_run is offered");
    equal(tool.annotations?.destructiveHint, true);
    const refused = await client.callTool({
      name: "skill_run",
      arguments: { name: "hubby", path: "scripts/hi.sh" },
    });
    equal(refused.isError, true);
    equal(
      firstText(refused).error,
      "Refusing to run 'scripts/hi.sh' of skill 'hubby': the user has not approved this script with its grant (run it once with 'skillrt run' at a terminal, or with --yes).",
    );
    equal(readApprovals(`${home}/skills`).length, 0, "an MCP client cannot approve");
    // Variant: a `yes` argument of the client's is no approval.
    const sneaky = await client.callTool({
      name: "skill_run",
      arguments: { name: "hubby", path: "scripts/hi.sh", yes: true },
    });
    equal(sneaky.isError, true);
    equal(readApprovals(`${home}/skills`).length, 0);
    // Approved by the user at the CLI: it runs, with the arguments as given.
    equal((await run(home, ["hubby", "scripts/hi.sh", "--yes"])).code, 0);
    const ran = firstText(
      await client.callTool({
        name: "skill_run",
        arguments: { name: "hubby", path: "scripts/hi.sh" },
      }),
    );
    equal(ran.exit_code, 0);
    ok(String(ran.stdout).startsWith("hello from "), ran.stdout);
    const local = firstText(
      await client.callTool({
        name: "skill_run",
        arguments: { name: "mine", path: "scripts/hi.sh", args: ["a b"] },
      }),
    );
    equal(local.exit_code, 0);
  } finally {
    await client.close();
  }
  // Variant: `--workdir DIR` is where scripts work and write, not the server's folder.
  const work = tempDir();
  const placed = await mcpClient(home, ["--allow-run", "--workdir", work]);
  try {
    const wrote = firstText(
      await placed.callTool({
        name: "skill_run",
        arguments: { name: "mine", path: "scripts/touch.sh", args: ["made-by-mcp"] },
      }),
    );
    equal(wrote.exit_code, 0, wrote.stderr);
    equal(wrote.stdout, `${Deno.realPathSync(work)}\n`);
    equal(Deno.readTextFileSync(`${work}/made-by-mcp`), "x\n");
  } finally {
    await placed.close();
  }
});
