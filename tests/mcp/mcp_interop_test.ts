/**
 * [IO-3] and [IO-4] through the SDK's real MCP client against the real CLI's server:
 * every tool's title, annotations and output schema (taken from the tool list, so a new
 * tool without them fails here), structured results that validate against those schemas,
 * and Claude Code's invocation fields in the model's tools, the prompts and the resources.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { connectStdio, firstText } from "./mcp_helpers.ts";
import { copyTree, makeTree, REPO, skill } from "../helpers.ts";
import { invocationHome } from "../invocation_helpers.ts";

type Tool = {
  name: string;
  title?: string;
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
};

type Prompt = {
  name: string;
  description?: string;
  arguments?: { name: string; required?: boolean }[];
};

/** The error a call was refused with. */
const refusal = (call: Promise<unknown>) =>
  call.then(() => undefined, (e: unknown) => e as McpError | undefined);

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** The flags that offer every tool: a flag that adds a tool goes here, so its tool is held to all of this. */
const EVERY_TOOL = ["--allow-writes", "--allow-run"];

Deno.test("[IO-4] every tool has a title, all four annotations and an object outputSchema; reads are read-only, skill_manage destructive", async () => {
  const client = await connectStdio(copyTree(`${REPO}/examples/home`), EVERY_TOOL);
  try {
    const { tools } = await client.listTools() as { tools: Tool[] };
    ok(tools.length >= 4);
    for (const tool of tools) {
      ok(typeof tool.title === "string" && tool.title.trim() !== "", `${tool.name}: title`);
      for (const hint of HINTS) {
        equal(typeof tool.annotations?.[hint], "boolean", `${tool.name}: annotations.${hint}`);
      }
      equal(tool.outputSchema?.type, "object", `${tool.name}: outputSchema`);
      // Everything skillrt does stays on this machine — but a script, whose skill may declare hosts.
      equal(
        tool.annotations!.openWorldHint,
        tool.name === "skill_run",
        `${tool.name}: openWorldHint`,
      );
      if (tool.annotations!.readOnlyHint === false) {
        equal(tool.annotations!.destructiveHint, true, `${tool.name} writes: destructiveHint`);
      }
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ["skills_list", "skill_view", "skills_search"]) {
      equal(hints[name]!.readOnlyHint, true, name);
    }
    deepEqual(
      [hints.skill_manage!.readOnlyHint, hints.skill_manage!.destructiveHint],
      [false, true],
    );
    equal(hints.skill_manage!.idempotentHint, false);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-4] every tool's structuredContent validates against its outputSchema and equals the text (kept for old clients)", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  mcp_list_max_skills: 3\n");
  const client = await connectStdio(home, EVERY_TOOL);
  const validator = new AjvJsonSchemaValidator();
  try {
    const { tools } = await client.listTools() as { tools: Tool[] };
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    const calls: [string, Record<string, unknown>][] = [
      ["skills_list", {}], // over the budget of 3: the category map
      ["skills_list", { category: "writing" }],
      ["skills_list", { limit: 2 }], // a page, with next_cursor
      ["skills_search", { query: "docker" }],
      ["skill_view", { name: "docker-basics" }],
      ["skill_view", { name: "docker-basics", brief: true }],
      ["skill_view", { name: "docker-basics", file_path: "references/layers.md" }],
      // Without its arguments the example's script prints its usage and exits 2: nothing written.
      ["skill_run", { name: "changelog", path: "scripts/add_entry.ts" }],
      ["skill_manage", {
        action: "create",
        name: "made-here",
        content: skill("made-here", "New."),
      }],
    ];
    const seen = new Set<string>();
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      ok(!result.isError, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
      const structured = result.structuredContent as Record<string, unknown>;
      deepEqual(structured, firstText(result), `${name}: structured = text`);
      const verdict = validator.getValidator(schemaOf(name))(structured);
      ok(verdict.valid, `${name} ${JSON.stringify(args)}: ${verdict.errorMessage}`);
      seen.add(name);
      if (name === "skills_list" && args.limit) ok(typeof structured.next_cursor === "string");
      if (name === "skills_list" && !args.limit && !args.category) {
        ok("uncategorized" in structured);
      }
    }
    // Every tool listed was called: a new tool needs a call here too.
    deepEqual([...seen].sort(), tools.map((t) => t.name).sort());
    // An error result keeps isError and its text; it carries no structured document to validate.
    const bad = await client.callTool({ name: "skill_view", arguments: { name: "nope" } });
    equal(bad.isError, true);
    equal(firstText(bad).success, false);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-3] over MCP: the model's tools leave out disable-model-invocation skills and read when_to_use", async () => {
  const client = await connectStdio(invocationHome());
  try {
    const list = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
    deepEqual(list.skills.map((s: { name: string }) => s.name).sort(), [
      "fix-issue",
      "legacy-notes",
      "plain",
    ]);
    const fix = list.skills.find((s: { name: string }) => s.name === "fix-issue");
    equal(fix.description, "Fix a GitHub issue. When the user names an issue number.");
    equal(fix.when_to_use, undefined); // in the description once, not twice
    equal(fix.argument_hint, undefined);
    const ship = firstText(
      await client.callTool({ name: "skills_search", arguments: { query: "ship production" } }),
    );
    equal(ship.count, 0);
    const issue = firstText(
      await client.callTool({ name: "skills_search", arguments: { query: "number" } }),
    );
    deepEqual(issue.skills.map((s: { name: string }) => s.name), ["fix-issue"]); // when_to_use is searched
    // Not served to the model either (tests/mcp/mcp_hidden_test.ts): the ordinary not-found.
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "deploy" } }),
    );
    equal(view.error, "Skill 'deploy' not found.");

    const { resources } = await client.listResources() as { resources: { name: string }[] };
    deepEqual(resources.map((r) => r.name).sort(), ["fix-issue", "legacy-notes", "plain"]);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-3] over MCP: prompts are the slash path — no user-invocable:false skill, the disable-model-invocation one offered, arguments from argument-hint", async () => {
  const client = await connectStdio(invocationHome());
  try {
    const { prompts } = await client.listPrompts() as { prompts: Prompt[] };
    deepEqual(prompts.map((p) => p.name), ["deploy", "fix-issue", "plain"]);
    const fix = prompts.find((p) => p.name === "fix-issue")!;
    equal(fix.description, "Fix a GitHub issue. Arguments: [issue] [--dry-run]");
    deepEqual(fix.arguments!.map((a) => [a.name, a.required]), [
      ["issue", false],
      ["dry-run", false],
      ["instruction", false],
    ]);
    deepEqual(prompts.find((p) => p.name === "plain")!.arguments!.map((a) => a.name), [
      "instruction",
    ]);
    const got = await client.getPrompt({
      name: "fix-issue",
      arguments: { issue: "42", "dry-run": "true", instruction: "be careful" },
    });
    const text = (got.messages[0].content as { text: string }).text;
    match(text, /Fix issue 42 --dry-run now\./);
    match(text, /alongside the skill invocation: be careful/);
    // A value is one word, whatever it holds: quoted, never split or run.
    const hostile = await client.getPrompt({
      name: "fix-issue",
      arguments: { issue: "1; rm -rf ~ $(id)", "dry-run": "false" },
    });
    match(
      (hostile.messages[0].content as { text: string }).text,
      /Fix issue '1; rm -rf ~ \$\(id\)' now\./,
    );
    await client.getPrompt({ name: "deploy" });
    const refused = await refusal(client.getPrompt({ name: "legacy-notes" }));
    ok(refused instanceof McpError);
    equal(refused.code, -32602);
    match(refused.message, /'legacy-notes' is not offered as a prompt \(user-invocable: false\)/);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-3] a prompt whose hint has a <required> argument refuses a call without it, naming it; an unreadable hint is one 'arguments' catch-all", async () => {
  const home = makeTree({
    "skills/tag/SKILL.md": skill("tag", "Tags.", 'argument-hint: "add [id] | remove [id]"\n'),
    "skills/port/SKILL.md": skill(
      "port",
      "Ports.",
      'argument-hint: "<file> [--to LANG]"\n',
      "# port\n\nPort $ARGUMENTS.\n",
    ),
  });
  const client = await connectStdio(home);
  try {
    const { prompts } = await client.listPrompts() as { prompts: Prompt[] };
    const args = (name: string) =>
      prompts.find((p) => p.name === name)!.arguments!.map((a) => [a.name, a.required]);
    deepEqual(args("tag"), [["arguments", false], ["instruction", false]]);
    deepEqual(args("port"), [["file", true], ["to", false], ["instruction", false]]);
    const missing = await refusal(client.getPrompt({ name: "port", arguments: { to: "go" } }));
    equal(missing?.code, -32602);
    match(missing!.message, /needs the argument 'file'/);
    const got = await client.getPrompt({
      name: "port",
      arguments: { file: "my file.py", to: "go" },
    });
    match((got.messages[0].content as { text: string }).text, /Port 'my file\.py' --to go\./);
  } finally {
    await client.close();
  }
});

Deno.test("[IO-3] the category map of a list over the budget counts only the skills the model may see", async () => {
  const home = makeTree({
    "config.yaml": "skills:\n  mcp_list_max_skills: 1\n",
    "skills/ops/deploy/SKILL.md": skill("deploy", "Ship.", "disable-model-invocation: true\n"),
    "skills/ops/rollback/SKILL.md": skill("rollback", "Undo."),
    "skills/ops/release/SKILL.md": skill("release", "Tag.", "disable-model-invocation: true\n"),
    "skills/secret/launch/SKILL.md": skill("launch", "Go.", "disable-model-invocation: true\n"),
    "skills/docs/readme/SKILL.md": skill("readme", "Write."),
    "skills/loose/SKILL.md": skill("loose", "No category."),
  });
  const client = await connectStdio(home);
  try {
    const map = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
    equal(map.count, 3);
    deepEqual(
      map.categories.map((c: { category: string; count: number }) => [c.category, c.count]),
      [
        ["docs", 1],
        ["ops", 1],
      ],
    );
    equal(map.uncategorized, 1);
  } finally {
    await client.close();
  }
});
