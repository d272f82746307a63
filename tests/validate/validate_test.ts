/**
 * `validate` ([M-5], [M-6]): a folder without SKILL.md, and frontmatter that is not valid YAML
 * under each profile, through the real CLI on temporary folders.
 */
import { cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { deepEqual, equal, match } from "node:assert/strict";

Deno.test("[M-6] validate PATH holding no SKILL.md (or only skill.md) is an error", async () => {
  const dir = makeTree({ "lower/skill.md": skill("lower", "Lower case only.") });
  try {
    const r = await cliJson(["validate", dir, "--profile", "agentskills"]);
    equal(r.code, 1);
    const findings = r.json.findings as { rule: string; message: string; severity: string }[];
    equal(findings[0].message, "Missing required file: SKILL.md");
    equal(findings[0].severity, "error");
  } finally {
    removeTrees(dir);
  }
});

Deno.test("[M-6] under agentskills and claude, frontmatter that is not valid YAML is an error; hermes repairs it with a warning", async () => {
  const dir = makeTree({
    "colon/SKILL.md": "---\nname: colon\ndescription: Use it: when needed\n---\n\nBody.\n",
  });
  try {
    const severity = async (profile: string) => {
      const r = await cliJson(["validate", dir, "--profile", profile]);
      const f = (r.json.findings as { rule: string; severity: string; message: string }[])
        .filter((x) => x.rule === "frontmatter.yaml_repaired");
      equal(f.length, 1, JSON.stringify(r.json));
      match(f[0].message, /^YAML frontmatter parse error: /);
      return [f[0].severity, r.code];
    };
    deepEqual(await severity("agentskills"), ["error", 1]);
    deepEqual(await severity("claude"), ["error", 1]);
    deepEqual(await severity("hermes"), ["warning", 0]);
    // Listing still repairs it: the skill shows with its whole description.
    const home = makeTree({
      "skills/colon/SKILL.md": Deno.readTextFileSync(`${dir}/colon/SKILL.md`),
    });
    try {
      const list = await cliJson(["--home", home, "list"]);
      equal((list.json.skills as { description: string }[])[0].description, "Use it: when needed");
    } finally {
      removeTrees(home);
    }
  } finally {
    removeTrees(dir);
  }
});
