/**
 * What a new user's first hour turned up (issue 26): two commands that name one problem
 * alike, unknown sub-actions that suggest the right one, a port in use said plainly and a
 * missing home that `list` does not pass over.
 */
import { deepEqual } from "node:assert/strict";
import { cliJson, makeTree, removeTrees, skill } from "./helpers.ts";

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
