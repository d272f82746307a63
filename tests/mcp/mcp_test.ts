import { connectStdio, firstText, type TextContent } from "./mcp_helpers.ts";
import { deepEqual, equal, ok } from "node:assert/strict";
import { copyTree, makeTree, removeTrees, REPO, skill } from "../helpers.ts";

const connect = connectStdio;

Deno.test("[MCP-1] the SDK client lists tools, calls them, reads resources, gets a prompt, and sees edits live", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const client = await connect(home);
  try {
    const tools = await client.listTools();
    deepEqual(tools.tools.map((t: { name: string }) => t.name), [
      "skills_list",
      "skill_view",
      "skills_search",
    ]);
    const listed = await client.callTool({ name: "skills_list", arguments: {} });
    const list = firstText(listed);
    equal(list.count, 11);
    // Compact JSON: an agent pays for every character (and the list budget counts them so).
    const raw = (listed.content as { text: string }[])[0].text;
    equal(raw, JSON.stringify(list));
    const writing = firstText(
      await client.callTool({ name: "skills_list", arguments: { category: "writing" } }),
    );
    deepEqual(writing.skills.map((s: { name: string }) => s.name), [
      "changelog",
      "commit-messages",
    ]);
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "docker-basics" } }),
    );
    equal(view.name, "docker-basics");
    const file = firstText(
      await client.callTool({
        name: "skill_view",
        arguments: { name: "docker-basics", file_path: "references/layers.md" },
      }),
    );
    equal(file.file, "references/layers.md");
    ok(file.content.startsWith("# Layer caching"));
    const search = firstText(
      await client.callTool({ name: "skills_search", arguments: { query: "paper" } }),
    );
    equal(search.skills[0].name, "paper-summary");

    const bad = await client.callTool({ name: "skill_view", arguments: { name: "../etc/passwd" } });
    equal(bad.isError, true);
    equal(firstText(bad).error, "Skill name cannot contain '..' path traversal components.");

    const resources = await client.listResources();
    ok(resources.resources.some((r: { uri: string }) => r.uri === "skill://docker-basics"));
    ok(
      resources.resources.some((r: { uri: string }) =>
        r.uri === `skill://${encodeURIComponent("acme:deploy")}`
      ),
    );
    const read = await client.readResource({ uri: "skill://docker-basics/references/layers.md" });
    ok((read.contents[0] as { text: string }).text.startsWith("# Layer caching"));
    const whole = await client.readResource({ uri: "skill://hello" });
    ok((whole.contents[0] as { text: string }).text.includes("name: hello"));

    const prompts = await client.listPrompts();
    ok(prompts.prompts.some((p: { name: string }) => p.name === "release-notes"));
    const prompt = await client.getPrompt({
      name: "release-notes",
      arguments: { instruction: "for v2" },
    });
    const message = (prompt.messages[0].content as TextContent).text;
    ok(message.startsWith('[IMPORTANT: The user has invoked the "release-notes" skill'));
    ok(
      message.endsWith(
        "The user has provided the following instruction alongside the skill invocation: for v2",
      ),
    );

    Deno.writeTextFileSync(
      `${home}/skills/writing/changelog/SKILL.md`,
      skill("changelog", "Edited while the server runs"),
    );
    const after = firstText(
      await client.callTool({ name: "skills_list", arguments: { category: "writing" } }),
    );
    equal(after.skills[0].description, "Edited while the server runs");
  } finally {
    await client.close();
  }
});

Deno.test("[MCP-1] no writes without --allow-writes; with it and write approval on, skill_manage stages", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const readOnly = await connect(home);
  try {
    ok(
      !(await readOnly.listTools()).tools.some((t: { name: string }) => t.name === "skill_manage"),
    );
    // Not offered without --allow-writes: an unknown tool, a JSON-RPC -32602 error.
    const refused = await readOnly.callTool({
      name: "skill_manage",
      arguments: { action: "delete", name: "hello" },
    }).then(() => undefined, (e: { code: number; message: string }) => e);
    equal(refused?.code, -32602);
    equal(
      refused?.message,
      "MCP error -32602: Unknown tool 'skill_manage'; the tools are skills_list, skill_view, skills_search.",
    );
    ok(Deno.statSync(`${home}/skills/hello/SKILL.md`).isFile);
  } finally {
    await readOnly.close();
  }
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    "skills:\n  external_dirs: [external-skills]\n  write_approval: true\n",
  );
  const writer = await connect(home, ["--allow-writes"]);
  try {
    const staged = firstText(
      await writer.callTool({
        name: "skill_manage",
        arguments: { action: "delete", name: "hello" },
      }),
    );
    equal(staged.staged, true);
    ok(Deno.statSync(`${home}/skills/hello/SKILL.md`).isFile, "staged, not applied");
    ok(Deno.statSync(`${home}/pending/skills/${staged.pending_id}.json`).isFile);
  } finally {
    await writer.close();
  }
});

Deno.test("[R-1][PERF-5] a name no path can be (longer than 4096 characters) is refused by the guard before any look-up: an MCP client's megabyte name cannot hold the server for seconds of suggestions", async () => {
  const home = makeTree({ "skills/dev/helper/SKILL.md": skill("helper", "Helps.") });
  const client = await connectStdio(home);
  try {
    const long = "helper".repeat(20_000);
    const refused = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: long } }),
    );
    equal(refused.success, false);
    equal(refused.error, "Skill name is 120000 characters long; the limit is 4096.");
    equal(refused.hint, "Use a skill name or relative path within the skills directory.");
    // At the limit, the name is looked up (and not found) as before.
    const most = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "h".repeat(4096) } }),
    );
    equal(most.error, `Skill '${"h".repeat(4096)}' not found.`);
    // The server still answers.
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "dev/helper" } }),
    );
    equal(view.path, "dev/helper");
  } finally {
    await client.close();
    removeTrees(home);
  }
});
