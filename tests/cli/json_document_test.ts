/**
 * [C-2] One naming rule: library results are camelCase, JSON documents (CLI `--json`,
 * MCP results) keep the SPEC's snake_case names, converted in one place
 * (`src/json_document.ts`).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { fromJsonDocument, JSON_NAMES, toJsonDocument } from "../../src/json_document.ts";
import { SkillRuntime } from "../../mod.ts";
import { cliJson, DEMO_HOME } from "../helpers.ts";

const SNAKE = /^[a-z0-9]+(_[a-z0-9]+)+$/;

/** Every key of a document, depth first, skipping the subtrees of `skip`. */
function keysOf(value: unknown, skip: Set<string>, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, skip, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      if (!skip.has(k)) keysOf(v, skip, out);
    }
  }
  return out;
}

Deno.test("[C-2] toJsonDocument renames result fields only, never data keys or opaque values", () => {
  const doc = toJsonDocument({
    skillDir: "/s",
    linkedFiles: { references: ["a.md"] },
    frontmatter: { skillDir: "kept", related_skills: ["x"] },
    shellEnv: { MY_VAR: "1", skillDir: "kept" },
    categories: { relatedSkillsCategory: 1 },
    list: [{ readinessStatus: "available" }],
    ["__proto__"]: { polluted: true },
  });
  deepEqual(JSON.parse(JSON.stringify(doc)), {
    skill_dir: "/s",
    linked_files: { references: ["a.md"] },
    frontmatter: { skillDir: "kept", related_skills: ["x"] },
    shell_env: { MY_VAR: "1", skillDir: "kept" },
    categories: { relatedSkillsCategory: 1 },
    list: [{ readiness_status: "available" }],
    ["__proto__"]: { polluted: true },
  });
  equal(Object.getPrototypeOf(doc), Object.prototype);
  equal(Object.getPrototypeOf((doc as Record<string, object>)["__proto__"]), Object.prototype);
  equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("[C-2] every JSON name is the snake_case form of its field", () => {
  for (const [field, name] of Object.entries(JSON_NAMES)) {
    ok(SNAKE.test(name), name);
    equal(name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), field);
  }
});

Deno.test("[C-2] library view is camelCase; `view --json` holds the same fields in snake_case", async () => {
  const runtime = new SkillRuntime({ home: DEMO_HOME });
  const lib = await runtime.view("docker-basics");
  const libKeys = keysOf(lib, new Set(["frontmatter"]));
  for (const key of libKeys) ok(!key.includes("_"), `library field ${key} is not camelCase`);
  ok(libKeys.has("linkedFiles") && libKeys.has("skillDir") && libKeys.has("readinessStatus"));

  const { json } = await cliJson(["--home", DEMO_HOME, "view", "docker-basics"]);
  const cliKeys = keysOf(json, new Set(["frontmatter"]));
  for (const key of cliKeys) ok(!/[A-Z]/.test(key), `JSON field ${key} is not snake_case`);
  deepEqual(
    [...libKeys].map((k) => JSON_NAMES[k] ?? k).sort(),
    [...cliKeys].filter((k) => libKeys.has(k) || Object.values(JSON_NAMES).includes(k)).sort(),
  );
  equal(json.skill_dir, lib.skillDir);
  deepEqual(json.linked_files, lib.linkedFiles);
});

Deno.test("[C-2] library setup and prompt results are camelCase", async () => {
  const runtime = new SkillRuntime({ home: DEMO_HOME });
  equal(runtime.setup.homeExists, true);
  equal(runtime.setup.localRoot, `${Deno.realPathSync(DEMO_HOME)}/skills`);
  const prompt = await runtime.prompt({ budgetChars: 10_000 });
  equal(prompt.overBudget, false);
  equal(prompt.budgetChars, 10_000);
  equal(prompt.estimatedTokens, Math.ceil(prompt.prompt.length / 4));
});

Deno.test("[C-2] fromJsonDocument turns a JSON document back into camelCase fields", () => {
  const lib = {
    skillDir: "/s",
    frontmatter: { related_skills: ["x"] },
    list: [{ fileType: "md" }],
  };
  deepEqual(fromJsonDocument(JSON.parse(JSON.stringify(toJsonDocument(lib)))), lib);
});
