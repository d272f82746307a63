/**
 * [RUN-3] What an MCP client wrote is never the user's own, however it was written (red team
 * hN): (1) the mark is recorded before the files are written — a `skill_run` served while a
 * `skill_manage` writes finds it (shown here by holding the marks file's lock: the write
 * waits for the mark); (2) a
 * write staged under `skills.write_approval` shows its content in `pending diff` even when
 * it was sent in base64, and approving it marks the skill as the agent's, so its scripts
 * still wait for their own approval. Through the SDK's real client and the real CLI.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { agentWrittenFile, readAgentWritten } from "../../src/manage/agent_written.ts";
import { shownAfter } from "../../src/manage/manager.ts";
import { sha256Hex } from "../../src/hash/sha256.ts";
import { cli, cliJson, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";
import { BY_AGENT, lockFor, NOT_APPROVED } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

const SCRIPT = "echo AGENT-WRITTEN-RAN > pwned\n";

function myHome(config = ""): string {
  return makeTree({
    "skills/mine/SKILL.md": skill("mine", "my own"),
    "skills/mine/scripts/hi.sh": "echo mine\n",
    "config.yaml": config,
  });
}

Deno.test("skill_manage marks the skill as the agent's before it writes a file", async () => {
  const home = myHome();
  // The marks file's lock is held: the mark waits, and so must the write.
  const lock = `${agentWrittenFile(`${home}/skills`)}.lock`;
  Deno.writeTextFileSync(lock, "{}");
  const client = await connectStdio(home, ["--allow-writes"], tempDir());
  try {
    const writing = client.callTool({
      name: "skill_manage",
      arguments: {
        action: "write_file",
        name: "mine",
        file_path: "scripts/hi.sh",
        file_content: SCRIPT,
      },
    });
    writing.catch(() => {}); // a failed assertion below closes the client under it
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 50));
    equal(Deno.readTextFileSync(`${home}/skills/mine/scripts/hi.sh`), "echo mine\n");
    Deno.removeSync(lock);
    const wrote = firstText(await writing);
    equal(wrote.success, true, JSON.stringify(wrote));
    equal(Deno.readTextFileSync(`${home}/skills/mine/scripts/hi.sh`), SCRIPT);
    deepEqual(readAgentWritten(`${home}/skills`), [Deno.realPathSync(`${home}/skills/mine`)]);
  } finally {
    await client.close();
    removeTrees(home);
  }
});

Deno.test({
  name:
    `a write staged through MCP shows its base64 content in pending diff, and once approved its script still asks${why}`,
  ignore,
}, async () => {
  const home = myHome("skills:\n  write_approval: true\n");
  const work = tempDir();
  const client = await connectStdio(home, ["--allow-writes"], work);
  try {
    const staged = firstText(
      await client.callTool({
        name: "skill_manage",
        arguments: {
          action: "write_file",
          name: "mine",
          file_path: "scripts/hi.sh",
          file_content: btoa(SCRIPT),
          encoding: "base64",
        },
      }),
    );
    equal(staged.staged, true, JSON.stringify(staged));
    const id = String(staged.pending_id);
    deepEqual(readAgentWritten(`${home}/skills`), [], "nothing is marked before it is approved");
    const diff = await cliJson(["--home", home, "pending", "diff", id]);
    equal(diff.code, 0, diff.stderr);
    ok(String(diff.json.diff).includes(`+${SCRIPT}`), String(diff.json.diff));
    const approved = await cli(["--home", home, "pending", "approve", id]);
    equal(approved.code, 0, approved.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/mine/scripts/hi.sh`), SCRIPT);
    deepEqual(readAgentWritten(`${home}/skills`), [Deno.realPathSync(`${home}/skills/mine`)]);
    const run = await cli(["--home", home, "run", "mine", "scripts/hi.sh"], { cwd: work });
    equal(run.code, 3);
    equal(run.stderr, NOT_APPROVED("scripts/hi.sh", "mine", "local", BY_AGENT));
    deepEqual([...Deno.readDirSync(work)], [], "nothing ran");
  } finally {
    await client.close();
    removeTrees(home, work);
  }
});

Deno.test("pending diff shows bytes that are UTF-8 text as text, other bytes by size and sha256", () => {
  equal(shownAfter(new TextEncoder().encode("echo hi\n")), "echo hi\n");
  const bytes = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0xff, 0]);
  equal(shownAfter(bytes), `(binary content: 6 bytes, sha256 ${sha256Hex(bytes)})\n`);
  // Variant: text with a NUL in it is bytes too.
  const nul = new Uint8Array([0x61, 0]);
  equal(shownAfter(nul), `(binary content: 2 bytes, sha256 ${sha256Hex(nul)})\n`);
  equal(shownAfter(null), "");
});

Deno.test({
  name:
    `what is unknown is not the user's own: a hub skill filed into a category, an unreadable lock, unreadable marks${why}`,
  ignore,
}, async () => {
  const home = makeTree({
    "skills/devops/deploy/SKILL.md": skill("deploy", "from the hub, filed by hand"),
    "skills/devops/deploy/scripts/go.sh": SCRIPT,
    "skills/.hub/lock.json": lockFor("deploy"),
    "skills/mine/SKILL.md": skill("mine", "my own"),
    "skills/mine/scripts/hi.sh": "echo mine\n",
  });
  const work = tempDir();
  const run = (name: string, script: string) =>
    cli(["--home", home, "run", name, script], { cwd: work });
  try {
    const moved = await run("deploy", "scripts/go.sh");
    equal(moved.stderr, NOT_APPROVED("scripts/go.sh", "deploy", "hub"));
    equal((await run("mine", "scripts/hi.sh")).stdout, "mine\n", "the user's own still runs");
    Deno.writeTextFileSync(`${home}/skills/.hub/lock.json`, '{"installed":');
    equal(
      (await run("mine", "scripts/hi.sh")).stderr,
      NOT_APPROVED("scripts/hi.sh", "mine", "hub"),
      "an unreadable lock",
    );
    // Variants: an entry that is not a mapping, a folder, a dangling link (red team hT).
    const lock = `${home}/skills/.hub/lock.json`;
    for (
      const make of [
        () => Deno.writeTextFileSync(lock, '{"installed": {"deploy": null}}'),
        () => Deno.mkdirSync(lock),
        () => Deno.symlinkSync(`${home}/nowhere.json`, lock),
      ]
    ) {
      Deno.removeSync(lock, { recursive: true });
      make();
      equal(
        (await run("mine", "scripts/hi.sh")).stderr,
        NOT_APPROVED("scripts/hi.sh", "mine", "hub"),
      );
    }
    Deno.removeSync(lock, { recursive: true });
    Deno.writeTextFileSync(`${home}/skills/.agent_written.json`, "not json");
    equal(
      (await run("mine", "scripts/hi.sh")).stderr,
      NOT_APPROVED("scripts/hi.sh", "mine", "local", BY_AGENT),
      "unreadable marks",
    );
    deepEqual([...Deno.readDirSync(work)], [], "nothing ran");
  } finally {
    removeTrees(home, work);
  }
});
