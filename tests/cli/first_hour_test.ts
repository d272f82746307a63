/**
 * What a new user's first hour turned up (issue 26): two commands that name one problem
 * alike, unknown sub-actions that suggest the right one, a port in use said plainly and a
 * missing home that `list` does not pass over.
 */
import { deepEqual } from "node:assert/strict";
import { PLANNED_COMMANDS } from "../../src/cli/command_table.ts";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";

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

Deno.test("[C-2] an unknown sub-action is a usage error that suggests the closest one", async () => {
  const home = makeTree({ "skills/fine/SKILL.md": skill("fine", "Fine.") });
  try {
    const lines: [string[], string][] = [
      [
        ["hub", "instal", "x"],
        "Unknown hub action 'instal'; did you mean install? Use install, search, list, uninstall, verify, check, update, scan, audit, publish, keygen, lock.",
      ],
      [
        ["bundle", "craete", "x"],
        "Unknown bundle action 'craete'; did you mean create? Use list, show, create, edit, delete.",
      ],
      [
        ["pending", "lst"],
        "Unknown pending action 'lst'; did you mean list? Use list, diff, approve, reject.",
      ],
      [
        ["curator", "stauts"],
        "Unknown curator action 'stauts'; did you mean status? Use status, run, pin, unpin, restore.",
      ],
      [
        ["validate", "--profile", "hermse"],
        "Unknown profile 'hermse'; did you mean hermes? Use hermes, agentskills, claude.",
      ],
      [
        ["sandbox", "lst"],
        `Unknown sandbox command 'lst'; did you mean list? Use ${PLANNED_COMMANDS.join(", ")}.`,
      ],
      [["completions", "bsh"], "Unknown shell 'bsh'; did you mean bash? Use bash, zsh, fish."],
      [
        ["hub", "zzzzzz"],
        "Unknown hub action 'zzzzzz'; use install, search, list, uninstall, verify, check, update, scan, audit, publish, keygen, lock.",
      ],
    ];
    for (const [args, message] of lines) {
      const r = await cli(["--home", home, ...args]);
      deepEqual([r.code, r.stdout, r.stderr], [2, "", `skillrt: ${message}\n`], args.join(" "));
      const j = await cliJson(["--home", home, ...args]);
      deepEqual([j.code, j.json.success, j.json.error], [2, false, message], args.join(" "));
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[T-3][C-3] mcp --http on a port another program holds: one line naming the port, exit 2", async () => {
  const home = makeTree({ "skills/fine/SKILL.md": skill("fine", "Fine.") });
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String(holder.addr.port);
  const message =
    `Port ${port} on 127.0.0.1 is already in use by another program; pick a free one with --port N.`;
  try {
    for (const extra of [[], ["--stateless"]]) {
      const r = await cli(["--home", home, "mcp", "--http", "--port", port, ...extra]);
      deepEqual([r.code, r.stdout, r.stderr], [2, "", `skillrt: ${message}\n`], extra.join(" "));
    }
    const j = await cliJson(["--home", home, "mcp", "--http", "--port", port]);
    deepEqual([j.code, j.json], [2, { success: false, error: message }]);
  } finally {
    holder.close();
    removeTrees(home);
  }
});
