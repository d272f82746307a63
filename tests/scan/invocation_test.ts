/**
 * [IO-3] Claude Code's invocation fields through the CLI and the library: the record reads
 * them in both spellings; `list --json` and `view --json` report them and `list` marks
 * them for people; the model's Level 0 (`prompt`, preload) never holds a
 * `disable-model-invocation` skill and reads `when_to_use` after the description (counted
 * in the budget); `invoke NAME --help` shows the `argument-hint`.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { splitFrontmatter } from "../../src/frontmatter/fence.ts";
import { buildRecord } from "../../src/scan/record.ts";
import { invocationOf } from "../../src/scan/invocation.ts";
import { SkillRuntime } from "../../mod.ts";
import { cli, cliJson, snapshot } from "../helpers.ts";
import { invocationHome } from "../invocation_helpers.ts";

Deno.test("[IO-3] the record reads the invocation fields in kebab-case and snake_case, and ignores what is not a flag", () => {
  const record = (yaml: string) =>
    buildRecord(
      {
        file: "/r/x/SKILL.md",
        dir: "/r/x",
        rel: "x",
        root: "/r",
        source: "local",
        fallbackName: "x",
      },
      splitFrontmatter(`---\nname: x\ndescription: d\n${yaml}---\n`),
    ).invocation;
  deepEqual(
    record(
      "disable-model-invocation: true\nuser-invocable: false\nwhen_to_use: Often.\nargument-hint: '[a]'\n",
    ),
    {
      disableModelInvocation: true,
      userInvocable: false,
      whenToUse: "Often.",
      argumentHint: "[a]",
    },
  );
  deepEqual(
    record(
      "disable_model_invocation: 'true'\nuser_invocable: 'no'\nwhen-to-use: |\n  Two\n  lines.\nargument_hint: <file>\n",
    ),
    {
      disableModelInvocation: true,
      userInvocable: false,
      whenToUse: "Two lines.",
      argumentHint: "<file>",
    },
  );
  // The defaults say nothing; a value that is not a flag is not one.
  deepEqual(record("disable-model-invocation: false\nuser-invocable: true\n"), {});
  deepEqual(
    record("disable-model-invocation: sometimes\nuser-invocable: [1]\nwhen_to_use: ''\n"),
    {},
  );
  equal(invocationOf({ when_to_use: "w".repeat(2000) }).whenToUse!.length, 1024);
  // Claude Code's documented `argument-hint: [issue-number]`, unquoted, is a YAML list.
  deepEqual(record("argument-hint: [issue-number]\n"), { argumentHint: "[issue-number]" });
  deepEqual(record("argument-hint: [a, 2]\n"), { argumentHint: "[a] [2]" });
  deepEqual(record("argument-hint: [{a: 1}]\n"), {});
});

Deno.test("[IO-3] list --json and view --json report the fields; list marks them for people", async () => {
  const home = invocationHome();
  const { json, code } = await cliJson(["--home", home, "list"]);
  equal(code, 0);
  const byName = Object.fromEntries(
    (json.skills as Record<string, unknown>[]).map((s) => [s.name, s]),
  );
  equal(json.count, 4); // people see every skill
  equal(byName.deploy.disable_model_invocation, true);
  equal(byName["legacy-notes"].user_invocable, false);
  equal(byName["fix-issue"].when_to_use, "When the user names an issue number.");
  equal(byName["fix-issue"].argument_hint, "[issue] [--dry-run]");
  equal(byName["fix-issue"].description, "Fix a GitHub issue."); // not merged for people
  deepEqual(Object.keys(byName.plain).sort(), ["category", "description", "name", "tags"]);

  const view = await cliJson(["--home", home, "view", "deploy"]);
  equal(view.code, 0); // viewable by its name
  equal(view.json.disable_model_invocation, true);
  equal(view.json.user_invocable, true);
  equal(view.json.when_to_use, null);
  equal(view.json.argument_hint, null);
  const fix = await cliJson(["--home", home, "view", "fix-issue"]);
  equal(fix.json.argument_hint, "[issue] [--dry-run]");
  equal(fix.json.when_to_use, "When the user names an issue number.");

  const text = await cli(["--home", home, "list"]);
  match(text.stdout, /deploy \(by name only: not shown to the model\)/);
  match(text.stdout, /legacy-notes \(not a slash command\)/);
  ok(!/plain \(/.test(text.stdout));
});

Deno.test("[IO-3] prompt: no disable-model-invocation skill, when_to_use after the description and counted in the budget", async () => {
  const home = invocationHome();
  const { json } = await cliJson(["--home", home, "prompt", "--format", "json"]);
  const block = JSON.parse(json.prompt as string).available_skills as {
    name: string;
    description: string;
  }[];
  deepEqual(block.map((s) => s.name).sort(), ["fix-issue", "legacy-notes", "plain"]);
  equal(
    block.find((s) => s.name === "fix-issue")!.description,
    "Fix a GitHub issue. When the user names an issue number.",
  );
  const xml = await cli(["--home", home, "prompt"]);
  ok(!xml.stdout.includes("deploy"));
  ok(xml.stdout.includes("Fix a GitHub issue. When the user names an issue number."));
  // The budget counts when_to_use: a budget short by its length still drops descriptions,
  // least used first (all unused: the later name first), until the block fits.
  const full = json.chars as number;
  equal(full, (json.prompt as string).length);
  const short = full - " When the user names an issue number.".length;
  const tight = await cliJson([
    "--home",
    home,
    "prompt",
    "--format",
    "json",
    "--budget-chars",
    String(short),
  ]);
  deepEqual(tight.json.descriptions_dropped, ["plain", "legacy-notes"]);
  ok((tight.json.chars as number) <= short);
});

Deno.test("[IO-3] prompt --preload refuses a disable-model-invocation skill (usage error, nothing written) and takes the others", async () => {
  const home = invocationHome();
  const before = snapshot(home);
  const refused = await cliJson(["--home", home, "prompt", "--preload", "plain,deploy"]);
  equal(refused.code, 2);
  equal(refused.json.success, false);
  match(refused.json.error as string, /^Cannot preload 'deploy': it sets disable-model-invocation/);
  equal(snapshot(home), before);
  const ok2 = await cliJson(["--home", home, "prompt", "--preload", "legacy-notes"]);
  equal(ok2.code, 0);
  deepEqual(ok2.json.preloaded, ["legacy-notes"]);
});

Deno.test("[IO-3] invoke NAME --help shows the skill's argument-hint; invoke --help stays the command's help", async () => {
  const home = invocationHome();
  const withHint = await cli(["--home", home, "invoke", "fix-issue", "--help"]);
  equal(withHint.code, 0);
  match(withHint.stdout, /^Usage: skillrt invoke/);
  match(withHint.stdout, /Arguments of 'fix-issue' \(argument-hint\): \[issue\] \[--dry-run\]/);
  const json = await cliJson(["--home", home, "invoke", "fix-issue", "-h"]);
  equal(json.json.argument_hint, "[issue] [--dry-run]");
  const none = await cli(["--home", home, "invoke", "plain", "--help"]);
  match(none.stdout, /'plain' declares no argument-hint/);
  const generic = await cli(["--home", home, "invoke", "--help"]);
  equal(generic.code, 0);
  ok(!generic.stdout.includes("argument-hint)"));
  // After '--' a '--help' is the instruction's word, not a request for help.
  const word = await cli(["--home", home, "invoke", "plain", "--", "--help"]);
  equal(word.code, 0);
  match(word.stdout, /alongside the skill invocation: --help/);
});

Deno.test("[IO-3] the library: list and search for the model leave out disable-model-invocation skills; for people (the default) they list them", async () => {
  const runtime = new SkillRuntime({ home: invocationHome() });
  try {
    const names = (r: { skills: { name: string }[] }) => r.skills.map((s) => s.name);
    deepEqual(names(await runtime.list()), ["deploy", "fix-issue", "legacy-notes", "plain"]);
    const model = await runtime.list({ audience: "model" });
    deepEqual(names(model), ["fix-issue", "legacy-notes", "plain"]);
    equal(model.skills[0].description, "Fix a GitHub issue. When the user names an issue number.");
    deepEqual(names(await runtime.search("production")), ["deploy"]);
    deepEqual(names(await runtime.search("production", { audience: "model" })), []);
  } finally {
    await runtime.close();
  }
});
