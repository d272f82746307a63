/**
 * Agent-created provenance ([U-1], [U-2]): `created_by` in the usage record — `user` from
 * the CLI, `agent` from MCP, `hub` from installs — reported by the curator, and
 * `curator run --agent-created` archiving only what an agent created.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";

const usage = (home: string) => JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));

Deno.test("[U-1] created_by: user from the CLI, agent from MCP, hub from an install; a later change keeps the creator", async () => {
  const home = makeTree({ "skills/old/SKILL.md": skill("old", "Made by hand") });
  const src = makeTree({ "tool/SKILL.md": skill("tool", "Installed") });
  try {
    const doc = makeTree({ "SKILL.md": skill("mine", "Mine") });
    equal((await cli(["--home", home, "create", "mine", "--file", `${doc}/SKILL.md`])).code, 0);
    const client = await connectStdio(home, ["--allow-writes"]);
    try {
      const made = firstText(
        await client.callTool({
          name: "skill_manage",
          // A caller cannot claim to be someone else: `actor` is not an argument.
          arguments: {
            action: "create",
            name: "theirs",
            content: skill("theirs", "T"),
            actor: "user",
          },
        }),
      );
      equal(made.success, true);
      // The agent patches the user's skill: it stays the user's.
      await client.callTool({
        name: "skill_manage",
        arguments: { action: "patch", name: "mine", old: "Do the thing.", new: "Do it well." },
      });
      // The agent patches a hand-made skill nobody recorded: the agent is its first known writer.
      await client.callTool({
        name: "skill_manage",
        arguments: { action: "patch", name: "old", old: "Do the thing.", new: "Do it." },
      });
    } finally {
      await client.close();
    }
    const installed = await cliJson(["--home", home, "hub", "install", `${src}/tool`, "--yes"]);
    equal(installed.code, 0, installed.stderr);
    const u = usage(home);
    deepEqual(
      [u.mine.created_by, u.theirs.created_by, u.old.created_by, u.tool.created_by],
      ["user", "agent", "agent", "hub"],
    );
    equal(u.mine.patch_count, 2);
    ok(u.tool.created_at !== null);
    removeTrees(doc);
  } finally {
    removeTrees(home, src);
  }
});

Deno.test("[U-2] the curator reports who created each skill; curator run --agent-created archives only agent-created skills", async () => {
  const home = makeTree({
    "skills/by-agent/SKILL.md": skill("by-agent", "A"),
    "skills/by-user/SKILL.md": skill("by-user", "U"),
    "skills/by-hub/SKILL.md": skill("by-hub", "H"),
    "skills/unknown/SKILL.md": skill("unknown", "?"),
    "skills/.usage.json": JSON.stringify({
      "by-agent": { created_at: "2026-01-01T00:00:00Z", created_by: "agent" },
      "by-user": { created_at: "2026-01-01T00:00:00Z", created_by: "user" },
      "by-hub": { created_at: "2026-01-01T00:00:00Z", created_by: "hub" },
      "unknown": { created_at: "2026-01-01T00:00:00Z" },
    }),
  });
  try {
    const now = "2026-03-01T00:00:00Z";
    const status = await cliJson(["--home", home, "curator", "status", "--now", now]);
    deepEqual(status.json.agent_created, ["by-agent"]);
    deepEqual(
      (status.json.archivable as { name: string; created_by: string | null }[])
        .map((s) => [s.name, s.created_by]).sort(),
      [["by-agent", "agent"], ["by-hub", "hub"], ["by-user", "user"], ["unknown", null]],
    );
    const text = await cli(["--home", home, "curator", "status", "--now", now]);
    ok(text.stdout.includes("by-agent (59d, by agent)"), text.stdout);
    ok(text.stdout.includes("Agent-created: by-agent"), text.stdout);
    const plan = await cliJson([
      "--home",
      home,
      "sandbox",
      "--",
      "curator",
      "run",
      "--agent-created",
    ]);
    const writes = (plan.json.plan as { write: string[] }).write;
    ok(writes.includes(`${home}/skills/by-agent`), writes.join(" "));
    ok(!writes.includes(`${home}/skills/by-user`), "the grant names only what is archived");
    const run = await cliJson(["--home", home, "curator", "run", "--agent-created", "--now", now]);
    equal(run.code, 0, run.stderr);
    deepEqual([run.json.archived, run.json.agent_created_only], [["by-agent"], true]);
    ok(Deno.statSync(`${home}/skills/.archive/by-agent/SKILL.md`).isFile);
    for (const kept of ["by-user", "by-hub", "unknown"]) {
      ok(Deno.statSync(`${home}/skills/${kept}/SKILL.md`).isFile, `${kept} stays`);
    }
  } finally {
    removeTrees(home);
  }
});
