/**
 * [IO-3] over MCP, through the SDK's real client against the real CLI's server: a
 * `disable-model-invocation` skill is neither named nor served by any model-facing path —
 * skill_view (SKILL.md, a section, a file), skill_run, its not-found answer's close names,
 * skills_search, resources/read and the completion of a resource's name — under any
 * spelling that resolves to it (case, fullwidth: checked after resolution). The slash path
 * (prompts/get) still serves it, and a person still views it at the CLI.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { McpError } from "@modelcontextprotocol/sdk/types.js";
import { connectStdio, firstText } from "./mcp_helpers.ts";
import { cliJson, makeTree, skill } from "../helpers.ts";

/** A home with the hidden `deploy` (body and a file) beside a visible `deplo` and `alpha`. */
function hiddenHome(): string {
  return makeTree({
    "config.yaml": "skills: {}\n",
    "skills/ops/deploy/SKILL.md": skill(
      "deploy",
      "Deploys to production.",
      "disable-model-invocation: true\n",
      "# deploy\n\nDEPLOY-BODY\n\n## Steps\n\nDEPLOY-STEPS\n",
    ),
    "skills/ops/deploy/references/keys.md": "DEPLOY-FILE\n",
    "skills/ops/deploy/scripts/go.sh": "echo DEPLOY-RAN\n",
    "skills/deplo/SKILL.md": skill("deplo", "Close to deploy.", "", "# deplo\n\nDEPLO-BODY\n"),
    "skills/alpha/SKILL.md": skill("alpha", "Alpha."),
  });
}

/** Asserts the ordinary not-found answer for `name`, naming only what the model may see. */
function assertNotFound(answer: Record<string, unknown>, name: string): void {
  equal(answer.success, false, name);
  equal(answer.error, `Skill '${name}' not found.`);
  deepEqual((answer.available_skills as string[]).toSorted(), ["alpha", "deplo"], name);
  ok((answer.suggestions as string[]).every((s) => s === "deplo"), name);
  equal(answer.hint, "Use skills_list to see all available skills");
  ok(!/DEPLOY-|Deploys/.test(JSON.stringify(answer)), JSON.stringify(answer));
}

/** A client that may write to `home`, its `skill_manage` call, and the hidden SKILL.md as it was. */
async function writingClient(home: string) {
  const client = await connectStdio(home, ["--allow-writes"]);
  const manage = (args: Record<string, unknown>) =>
    client.callTool({ name: "skill_manage", arguments: args });
  const file = `${home}/skills/ops/deploy/SKILL.md`;
  return { client, manage, file, before: Deno.readTextFileSync(file) };
}

const refusal = (call: Promise<unknown>) =>
  call.then(() => undefined, (e: unknown) => e as McpError | undefined);

Deno.test("[IO-3] over MCP: a disable-model-invocation skill is not found by skill_view under any spelling, nor named among the close names", async () => {
  const home = hiddenHome();
  const client = await connectStdio(home, ["--allow-run"]);
  try {
    const view = (args: Record<string, unknown>) =>
      client.callTool({ name: "skill_view", arguments: args });
    for (const name of ["deploy", "ｄｅｐｌｏｙ", "ops/deploy", "ops/deploy/", "DEPLOY"]) {
      const answer = await view({ name });
      equal(answer.isError, true, name);
      assertNotFound(firstText(answer), name);
    }
    for (const args of [{ name: "deploy", section: "steps" }, { name: "deploy", brief: true }]) {
      assertNotFound(firstText(await view(args)), "deploy");
    }
    const file = await view({ name: "ｄｅｐｌｏｙ", file_path: "references/keys.md" });
    assertNotFound(firstText(file), "ｄｅｐｌｏｙ");
    const run = await client.callTool({
      name: "skill_run",
      arguments: { name: "ｄｅｐｌｏｙ", path: "scripts/go.sh" },
    });
    assertNotFound(firstText(run), "ｄｅｐｌｏｙ");
    // A near miss names the visible neighbours only.
    const near = firstText(await view({ name: "deplyo" }));
    deepEqual(near.available_skills, ["deplo", "alpha"]);
    ok(!JSON.stringify(near).includes("deploy"), JSON.stringify(near));
    const search = firstText(
      await client.callTool({ name: "skills_search", arguments: { query: "deploys production" } }),
    );
    ok(!JSON.stringify(search).includes("DEPLOY"), JSON.stringify(search));
    ok(!search.skills.some((s: { name: string }) => s.name === "deploy"));
    equal(firstText(await view({ name: "deplo" })).name, "deplo"); // its neighbour still serves
  } finally {
    await client.close();
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[IO-3] over MCP: resources/read and completions follow the model's list; prompts/get and the CLI still serve the skill", async () => {
  const home = hiddenHome();
  const client = await connectStdio(home);
  try {
    for (
      const uri of [
        "skill://deploy",
        "skill://DEPLOY",
        `skill://${encodeURIComponent("ｄｅｐｌｏｙ")}`,
        "skill://deploy#steps",
        "skill://deploy/references/keys.md",
      ]
    ) {
      const error = await refusal(client.readResource({ uri }));
      equal(error?.code, -32002, uri);
      ok(/^MCP error -32002: Skill '.+' not found\.$/.test(error!.message), error!.message);
    }
    const done = await client.complete({
      ref: { type: "ref/resource", uri: "skill://{name}" },
      argument: { name: "name", value: "dep" },
    });
    deepEqual(done.completion.values, ["deplo"]);
    const got = await client.getPrompt({ name: "deploy" });
    ok((got.messages[0].content as { text: string }).text.includes("DEPLOY-BODY"));
  } finally {
    await client.close();
  }
  const cli = await cliJson(["--home", home, "view", "ｄｅｐｌｏｙ"]);
  equal(cli.code, 0, cli.stderr);
  equal(cli.json.name, "deploy");
  Deno.removeSync(home, { recursive: true });
});

Deno.test("[IO-3] over MCP: skill_manage on a disable-model-invocation skill is not found (a patch's preview would show its text); its neighbour is still patched", async () => {
  const home = hiddenHome();
  const { client, manage, file, before } = await writingClient(home);
  try {
    for (
      const args of [
        { action: "patch", name: "ｄｅｐｌｏｙ", old_string: "nothing like it", new_string: "x" },
        { action: "delete", name: "deploy" },
        { action: "remove_file", name: "ops/deploy", file_path: "references/keys.md" },
      ]
    ) {
      assertNotFound(firstText(await manage(args)), args.name);
    }
    equal(Deno.readTextFileSync(file), before);
    equal(Deno.readTextFileSync(`${home}/skills/ops/deploy/references/keys.md`), "DEPLOY-FILE\n");
    const patched = firstText(
      await manage({ action: "patch", name: "deplo", old_string: "DEPLO-BODY", new_string: "NEW" }),
    );
    equal(patched.success, true, JSON.stringify(patched));
  } finally {
    await client.close();
    Deno.removeSync(home, { recursive: true });
  }
});

/** The refusal of a name a hidden skill has: it names nothing and does not say the name exists. */
const UNUSABLE = "The name cannot be used for this skill; choose another name.";

Deno.test("[IO-3] over MCP: skill_manage create with a hidden skill's name is refused without saying it exists, nothing written; prompt-argument completion does not offer it", async () => {
  const home = hiddenHome();
  Deno.mkdirSync(`${home}/skills/review`);
  Deno.writeTextFileSync(
    `${home}/skills/review/SKILL.md`,
    skill("review", "Reviews a skill.", 'argument-hint: "[skill]"\n'),
  );
  const { client, manage, file, before } = await writingClient(home);
  try {
    const content = skill("deploy", "Mine now.", "", "# deploy\n\nTAKEN\n");
    // The attack, and variants: in another category, in its own category.
    for (const extra of [{}, { category: "tools" }, { category: "ops" }]) {
      const answer = firstText(
        await manage({ action: "create", name: "deploy", content, ...extra }),
      );
      equal(answer.success, false, JSON.stringify(answer));
      equal(answer.error, UNUSABLE);
      ok(
        !/exists|ops\/deploy|Deploys|DEPLOY-/.test(JSON.stringify(answer)),
        JSON.stringify(answer),
      );
    }
    // Variants: a new name whose content declares the hidden one, an edit or a patch renaming to it.
    for (
      const args of [
        { action: "create", name: "fresh2", content },
        { action: "edit", name: "alpha", content },
        { action: "patch", name: "alpha", old_string: "name: alpha", new_string: "name: deploy" },
      ]
    ) {
      const answer = firstText(await manage(args));
      equal(answer.error, UNUSABLE, JSON.stringify(answer));
    }
    equal(Deno.readTextFileSync(`${home}/skills/alpha/SKILL.md`), skill("alpha", "Alpha."));
    equal(Deno.readTextFileSync(file), before);
    deepEqual([...Deno.readDirSync(`${home}/skills`)].map((e) => e.name).sort(), [
      "alpha",
      "deplo",
      "ops",
      "review",
    ]);
    // A visible skill's name still answers "already exists"; an unused name is created.
    const taken = firstText(
      await manage({
        action: "create",
        name: "deplo",
        content: content.replace("deploy", "deplo"),
      }),
    );
    ok(String(taken.error).startsWith("A skill named 'deplo' already exists at "), taken.error);
    const made = firstText(
      await manage({
        action: "create",
        name: "fresh",
        content: content.replace("deploy", "fresh"),
      }),
    );
    equal(made.success, true, JSON.stringify(made));
    // Completion of a prompt's skill argument offers only what the model may see.
    const done = await client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "skill", value: "dep" },
    });
    deepEqual(done.completion, { values: ["deplo"], total: 1, hasMore: false });
    // The hidden skill's own prompt is still on the slash path: its argument completes alike.
    const own = await client.complete({
      ref: { type: "ref/prompt", name: "deploy" },
      argument: { name: "name", value: "DEP" },
    });
    deepEqual(own.completion.values, ["deplo"]);
  } finally {
    await client.close();
    Deno.removeSync(home, { recursive: true });
  }
});
