/**
 * [RUN-3]: consent by hash. A local skill's script runs on request; a hub skill's (and an
 * external root's) runs only once the user approved that script's sha256 with its
 * declared grant — `--yes` here, the terminal otherwise — and is asked again when the
 * script or the grant changes. MCP's `skill_run` (only with `mcp --allow-run`) runs
 * approved scripts only and never records an approval: through the SDK's real client.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { approvalsFile, readApprovals } from "../../src/run/consent.ts";
import { filesFingerprint } from "../../src/run/snapshot.ts";
import { sha256Hex } from "../../src/hash/sha256.ts";
import { cli, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";
import { BY_AGENT, lockFor, MCP_NOT_APPROVED, NOT_APPROVED } from "./run_helpers.ts";
import { readAgentWritten } from "../../src/manage/agent_written.ts";

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

Deno.test(
  { name: `a local skill's script runs on request; nothing is recorded${why}`, ignore },
  async () => {
    const home = makeHome();
    const r = await run(home, ["mine", "scripts/hi.sh"]);
    equal(r.code, 0, r.stderr);
    ok(r.stdout.startsWith("hello from "), r.stdout);
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
  // The files' hash is the whole folder's: every file's name, size and contents.
  const files = ["SKILL.md", "scripts/hi.sh"].map((path) => {
    const data = Deno.readFileSync(`${home}/skills/hubby/${path}`);
    return { path, size: data.length, sha256: sha256Hex(data) };
  });
  equal(approvals[0].files, filesFingerprint(files));
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
    equal(firstText(refused).error, MCP_NOT_APPROVED("scripts/hi.sh", "hubby"));
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
    // The user's own local skill (written at the terminal) runs unasked.
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

const SELF_MADE = skill(
  "selfmade",
  "made by the agent",
  "metadata:\n  skillrt:\n    permissions:\n      net: true\n      env: [GREETING]\n",
);

Deno.test({
  name:
    `[RUN-3] mcp --allow-writes --allow-run: a skill the agent wrote or changed runs only once the user approved it at the terminal${why}`,
  ignore,
}, async () => {
  const home = makeHome();
  const work = tempDir();
  const client = await connectStdio(home, ["--allow-writes", "--allow-run"], work);
  const call = async (name: string, args: Record<string, unknown>) =>
    firstText(await client.callTool({ name, arguments: args }));
  try {
    // Both flags together: skill_run finds bubblewrap (it said "bwrap not installed").
    const mine = await call("skill_run", { name: "mine", path: "scripts/hi.sh" });
    equal(mine.exit_code, 0, JSON.stringify(mine));
    equal(mine.sandbox, "bwrap");

    equal(
      (await call("skill_manage", { action: "create", name: "selfmade", content: SELF_MADE }))
        .success,
      true,
    );
    const script = "echo ran > ran-by-agent\n";
    const wrote = await call("skill_manage", {
      action: "write_file",
      name: "selfmade",
      path: "scripts/x.sh",
      content: script,
    });
    equal(wrote.success, true, JSON.stringify(wrote));
    equal(
      (await call("skill_run", { name: "selfmade", path: "scripts/x.sh" })).error,
      MCP_NOT_APPROVED("scripts/x.sh", "selfmade"),
    );
    deepEqual([...Deno.readDirSync(work)], [], "nothing ran");
    const marks = [Deno.realPathSync(`${home}/skills/selfmade`)];
    deepEqual(readAgentWritten(`${home}/skills`), marks);
    // Variant: the agent cannot unmark its skill, nor forge an approval, through skill_manage.
    const forged = JSON.stringify({ skills: [] });
    for (const path of ["../.agent_written.json", "../.run_approvals.json"]) {
      const write = { action: "write_file", name: "selfmade", path, content: forged };
      equal((await call("skill_manage", write)).success, false, path);
      const remove = { action: "remove_file", name: "selfmade", path };
      equal((await call("skill_manage", remove)).success, false, path);
    }
    deepEqual(readAgentWritten(`${home}/skills`), marks);
    // At the terminal the user is asked: a local skill the agent wrote is not the user's.
    const cli = await run(home, ["selfmade", "scripts/x.sh"]);
    equal(cli.code, 3);
    equal(cli.stderr, NOT_APPROVED("scripts/x.sh", "selfmade", "local", BY_AGENT));

    // Variant: the agent changes the user's own skill, approved before: asked again, both ways.
    await call("skill_manage", {
      action: "write_file",
      name: "mine",
      path: "scripts/hi.sh",
      content: "echo changed-by-agent\n",
    });
    equal(
      (await call("skill_run", { name: "mine", path: "scripts/hi.sh" })).error,
      MCP_NOT_APPROVED("scripts/hi.sh", "mine"),
    );
    equal(
      (await run(home, ["mine", "scripts/hi.sh"])).stderr,
      NOT_APPROVED("scripts/hi.sh", "mine", "local", BY_AGENT),
    );
    equal((await run(home, ["mine", "scripts/hi.sh", "--yes"])).stdout, "changed-by-agent\n");
    equal(
      (await call("skill_run", { name: "mine", path: "scripts/hi.sh" })).stdout,
      "changed-by-agent\n",
    );
  } finally {
    await client.close();
  }
});

Deno.test({
  name:
    `a skill 'sync --from' brought in is not the user's own: its script asks, and asks again after the next sync changes it${why}`,
  ignore,
}, async () => {
  const bundle = makeTree({
    "helper/SKILL.md": skill("helper", "a bundled helper"),
    "helper/scripts/go.sh": "echo third-party ran\n",
  });
  const home = makeTree({ "skills/mine/SKILL.md": skill("mine", "my own") });
  try {
    const synced = await cli(["--home", home, "sync", "--from", bundle]);
    equal(synced.code, 0, synced.stderr);
    const refused = await run(home, ["helper", "scripts/go.sh"]);
    equal(refused.code, 3);
    equal(refused.stderr, NOT_APPROVED("scripts/go.sh", "helper", "synced"));
    equal((await run(home, ["helper", "scripts/go.sh", "--yes"])).stdout, "third-party ran\n");
    equal((await run(home, ["helper", "scripts/go.sh"])).stdout, "third-party ran\n");
    // Variant: upstream changes it and the next sync updates it: asked again.
    Deno.writeTextFileSync(`${bundle}/helper/scripts/go.sh`, "echo changed upstream\n");
    equal((await cli(["--home", home, "sync", "--from", bundle])).code, 0);
    equal(
      (await run(home, ["helper", "scripts/go.sh"])).stderr,
      NOT_APPROVED("scripts/go.sh", "helper", "synced"),
    );
  } finally {
    removeTrees(bundle, home);
  }
});
