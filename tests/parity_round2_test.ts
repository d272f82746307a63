/**
 * Parity round two (issue 14), the conformance bugs taken so far, each against the real
 * behaviour it names.
 */
import { equal, ok } from "node:assert/strict";
import { firstParagraph } from "../src/level0/list.ts";
import { platformMatches } from "../src/level0/visibility.ts";
import { cliJson, makeTree, removeTrees, skill } from "./helpers.ts";

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

Deno.test("[M-2] a name over 64 characters gets Hermes's message", async () => {
  const home = makeTree({ "skills/.keep": "", "s.md": skill("x", "X.") });
  try {
    const r = await cliJson(["--home", home, "create", "a".repeat(65), "--file", `${home}/s.md`]);
    equal(r.code, 1);
    equal(r.json.error, "Skill name exceeds 64 characters.");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[L0-9] Termux and FreeBSD count as linux; termux and android name Android", () => {
  ok(platformMatches({ platforms: ["linux"] }, "android"));
  ok(platformMatches({ platforms: ["termux"] }, "android"));
  ok(platformMatches({ platforms: "android" }, "android"));
  ok(platformMatches({ platforms: ["linux"] }, "freebsd"));
  ok(!platformMatches({ platforms: ["termux"] }, "linux"));
  ok(!platformMatches({ platforms: ["macos"] }, "freebsd"));
});

Deno.test("[L0-9] a category description is the first paragraph of DESCRIPTION.md, lines joined", async () => {
  equal(
    firstParagraph("# Dev\n\nBuilding, shipping\nand debugging services.\n\nMore later.\n"),
    "Building, shipping and debugging services.",
  );
  const home = makeTree({
    "skills/dev/DESCRIPTION.md": "# Dev\n\nBuilding, shipping\nand debugging.\n\nOther.\n",
    "skills/dev/a/SKILL.md": skill("a", "A."),
  });
  try {
    const r = await cliJson(["--home", home, "list", "--categories"]);
    equal(
      (r.json.categories as { description: string }[])[0].description,
      "Building, shipping and debugging.",
    );
  } finally {
    removeTrees(home);
  }
});

Deno.test("[S-1] local first: the user's own version wins over a trusted project's", async () => {
  const proj = makeTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".agents/skills/dup/SKILL.md": skill("dup", "The project's."),
  });
  const home = makeTree({
    "skills/dup/SKILL.md": skill("dup", "Mine."),
    "config.yaml": `skills:\n  trusted_project_dirs: ['${proj}']\n`,
  });
  try {
    const r = await cliJson(["--home", home, "view", "dup"], { cwd: proj });
    equal(r.code, 0, r.stderr);
    equal([r.json.source, r.json.description].join(" "), "local Mine.");
  } finally {
    removeTrees(proj, home);
  }
});
