/**
 * [MCP-1][PERF-5] An MCP server a strict client accepts, driven by the SDK client over
 * stdio (and raw lines where the client cannot send them): schema-checked inputs, the
 * protocol's errors with clean messages, list_changed, Hermes's skill_manage names, and a
 * budgeted, paged skills_list. Also: a watched runtime walks each root once for all calls.
 */
import { connectStdio, firstText } from "./mcp_helpers.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { SkillRuntime } from "../../src/runtime.ts";
import { copyTree, makeTree, removeTrees, REPO, skill } from "../helpers.ts";

const connect = connectStdio;
const rpcError = (p: Promise<unknown>) =>
  p.then(() => undefined, (e: { code: number; message: string }) => e);

Deno.test("[MCP-1] inputs checked against the schemas; unknown tools, resources and prompts get protocol errors", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const client = await connect(home);
  try {
    const noName = await rpcError(client.callTool({ name: "skill_view", arguments: {} }));
    equal(noName?.code, -32602);
    equal(
      noName?.message,
      "MCP error -32602: Invalid arguments for 'skill_view': 'name' is required (a string).",
    );
    const badType = await rpcError(
      client.callTool({ name: "skills_list", arguments: { category: 3 } }),
    );
    equal(
      badType?.message,
      "MCP error -32602: Invalid arguments for 'skills_list': 'category' must be a string.",
    );
    const unknown = await rpcError(client.callTool({ name: "nope", arguments: {} }));
    equal(unknown?.code, -32602);
    const resource = await rpcError(client.readResource({ uri: "skill://no-such-skill" }));
    deepEqual([resource?.code, resource?.message], [
      -32002,
      "MCP error -32002: Skill 'no-such-skill' not found.",
    ]);
    const notSkill = await rpcError(client.readResource({ uri: "file:///etc/passwd" }));
    equal(notSkill?.code, -32002);
    // The family of the error decides, never its words: a missing file is "not found"…
    const noFile = await rpcError(client.readResource({ uri: "skill://hello/references/x.md" }));
    deepEqual([noFile?.code, noFile?.message], [
      -32002,
      "MCP error -32002: File 'references/x.md' not found in skill 'hello'.",
    ]);
    // …a refused path that merely quotes the words is invalid params.
    const refused = await rpcError(client.readResource({ uri: "skill://hello//not%20found" }));
    deepEqual([refused?.code, refused?.message], [
      -32602,
      "MCP error -32602: Absolute paths are not allowed: '/not found'.",
    ]);
    const prompt = await rpcError(client.getPrompt({ name: "no-such-skill" }));
    equal(prompt?.code, -32602);
    ok(!/MCP error .*MCP error/.test(String(prompt?.message)), "no doubled prefix");
    // A tool that fails on the skills is a result with isError, not a protocol error.
    const missing = await client.callTool({ name: "skill_view", arguments: { name: "nope" } });
    equal(missing.isError, true);
    equal(firstText(missing).error, "Skill 'nope' not found.");
  } finally {
    await client.close();
    removeTrees(home);
  }
});

Deno.test("[MCP-1] a line that is JSON but not JSON-RPC gets an error and the server carries on", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  try {
    const lines = [
      "null",
      "42",
      "[1,2]",
      '{"id":7,"method":"ping"}',
      "not json",
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    ];
    const out = new Deno.Command(Deno.execPath(), {
      args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = out.stdin.getWriter();
    await writer.write(new TextEncoder().encode(lines.join("\n") + "\n"));
    await writer.close();
    const { stdout, code } = await out.output();
    equal(code, 0);
    const replies = new TextDecoder().decode(stdout).trim().split("\n").map((l) => JSON.parse(l));
    deepEqual(replies.slice(0, 5).map((r) => [r.id, r.error?.code]), [
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [7, -32600],
      [null, -32700],
    ]);
    deepEqual([replies[5].id, replies[5].result.serverInfo.name], [1, "skillrt"]);
    deepEqual(replies[5].result.capabilities.resources, { listChanged: true });
    deepEqual(replies[5].result.capabilities.prompts, { listChanged: true });
    deepEqual([replies[6].id, replies[6].result], [2, {}]);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[MCP-1] list_changed is sent when skills change; skill_manage takes Hermes's names", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const client = await connect(home, ["--allow-writes"]);
  try {
    let changed = 0;
    const seen = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        changed++;
        resolve();
      })
    );
    const created = firstText(
      await client.callTool({
        name: "skill_manage",
        arguments: { action: "create", name: "fresh", content: skill("fresh", "Made over MCP.") },
      }),
    );
    equal(created.success, true, JSON.stringify(created));
    await seen;
    ok(changed >= 1);
    const wrote = firstText(
      await client.callTool({
        name: "skill_manage",
        arguments: {
          action: "write_file",
          name: "fresh",
          file_path: "references/notes.md",
          file_content: "# Notes\n",
        },
      }),
    );
    equal(wrote.success, true, JSON.stringify(wrote));
    equal(Deno.readTextFileSync(`${home}/skills/fresh/references/notes.md`), "# Notes\n");
    const patched = firstText(
      await client.callTool({
        name: "skill_manage",
        arguments: {
          action: "patch",
          name: "fresh",
          old_string: "Made over MCP.",
          new_string: "Patched over MCP.",
        },
      }),
    );
    equal(patched.success, true, JSON.stringify(patched));
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "fresh" } }),
    );
    equal(view.description, "Patched over MCP.");
  } finally {
    await client.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5] skills_list over the budget answers the category map; limit and cursor page", async () => {
  const files: Record<string, string> = {
    "config.yaml": "skills:\n  mcp_list_max_skills: 4\n",
  };
  for (const cat of ["alpha", "beta"]) {
    for (let i = 0; i < 3; i++) {
      files[`skills/${cat}/${cat}-${i}/SKILL.md`] = skill(`${cat}-${i}`, `${cat} ${i}`);
    }
  }
  files["skills/loose/SKILL.md"] = skill("loose", "No category.");
  const home = makeTree(files);
  const client = await connect(home);
  try {
    const map = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
    deepEqual(
      map.categories.map((c: { category: string; count: number }) => [c.category, c.count]),
      [
        ["alpha", 3],
        ["beta", 3],
      ],
    );
    deepEqual([map.count, map.uncategorized, map.skills], [7, 1, undefined]);
    match(map.hint, /^This home holds 7 skills, too many to list at once\./);
    const first = firstText(
      await client.callTool({ name: "skills_list", arguments: { category: "alpha", limit: 2 } }),
    );
    deepEqual([first.skills.map((s: { name: string }) => s.name), first.next_cursor], [
      ["alpha-0", "alpha-1"],
      "2",
    ]);
    const second = firstText(
      await client.callTool({
        name: "skills_list",
        arguments: { category: "alpha", limit: 2, cursor: first.next_cursor },
      }),
    );
    deepEqual([second.skills.map((s: { name: string }) => s.name), second.next_cursor], [
      ["alpha-2"],
      undefined,
    ]);
    const bad = await rpcError(
      client.callTool({ name: "skills_list", arguments: { category: "alpha", cursor: "x" } }),
    );
    equal(bad?.code, -32602);
  } finally {
    await client.close();
    removeTrees(home);
  }
});

Deno.test("[PERF-5] a watched runtime walks each root once for every operation, and sees an edit on the next call", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const rt = new SkillRuntime({ home, watch: true });
  try {
    const roots = rt.setup.roots.length + rt.setup.plugins.length;
    await rt.list(); // the first answer: a fresh scan; the watchers open after it
    await rt.watchStatus(); // (in a helper Worker; until then roots are validated by mtimes)
    for (let i = 0; i < 3; i++) {
      await rt.list();
      await rt.list({ category: "writing" });
      await rt.categories();
      await rt.search("paper");
      await rt.prompt();
      await rt.resolve("changelog");
      await rt.view("docker-basics");
      await rt.viewFile("docker-basics", "references/layers.md");
      await rt.invoke("release-day", "go");
    }
    // One walk per root, for the first answer: its stamps, checked once the watcher is proven,
    // hand what it found over to the watcher; none per call.
    equal(rt.scanCount, roots);
    const file = `${home}/skills/writing/changelog/SKILL.md`;
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file).replace(/^description: .*$/m, "description: Edited now."),
    );
    const after = await rt.list({ category: "writing" });
    equal(after.skills.find((s) => s.name === "changelog")?.description, "Edited now.");
    equal(rt.scanCount, roots + 1, "only the changed root is walked again");
  } finally {
    rt.close();
    removeTrees(home);
  }
});
