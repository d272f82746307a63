/**
 * `validate` ([M-5], [M-6]): a folder without SKILL.md, frontmatter that is not valid YAML under
 * each profile, and the one code and severity doctor gives the same problem ([C-4]), through the
 * real CLI on temporary folders.
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

Deno.test("[C-4][M-5] doctor and validate give a frontmatter problem one code and one severity", async () => {
  const home = makeTree({
    "skills/colon/SKILL.md": "---\nname: colon\ndescription: Use it: when needed\n---\n\nBody.\n",
    "skills/broken/SKILL.md": "---\nname: broken\ndescription: [unclosed\n---\n\nBody.\n",
    "skills/unclosed/SKILL.md": "---\nname: unclosed\ndescription: never closed\n",
    "skills/bare/SKILL.md": "# Bare\n\nNo frontmatter at all.\n",
    "skills/fine/SKILL.md": skill("fine", "Fine."),
  });
  try {
    const doctor = await cliJson(["--home", home, "doctor"]);
    const validate = await cliJson(["--home", home, "validate"]);
    type Said = { path?: string; file?: string; code?: string; rule?: string; severity: string };
    const said = (list: Said[]) =>
      list.filter((d) => (d.code ?? d.rule ?? "").startsWith("frontmatter."))
        .map((d) => [(d.path ?? d.file ?? "").slice(home.length), d.code ?? d.rule, d.severity])
        .sort();
    const expected = [
      ["/skills/bare/SKILL.md", "frontmatter.missing", "error"],
      ["/skills/broken/SKILL.md", "frontmatter.yaml_invalid", "error"],
      ["/skills/colon/SKILL.md", "frontmatter.yaml_repaired", "warning"],
      ["/skills/unclosed/SKILL.md", "frontmatter.unclosed", "error"],
    ];
    deepEqual(said(doctor.json.diagnostics as Said[]), expected);
    deepEqual(said(validate.json.findings as Said[]), expected);
    deepEqual([doctor.code, validate.code], [1, 1]);
  } finally {
    removeTrees(home);
  }
});
