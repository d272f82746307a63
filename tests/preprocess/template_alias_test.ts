/**
 * [P-8] Template aliases: `{baseDir}` stands for the skill folder like
 * `${HERMES_SKILL_DIR}` (text and inline-shell commands alike) when template_vars is on,
 * and the one table of aliases in docs/preprocessing.md is the code's table.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { TEMPLATE_ALIASES } from "../../src/preprocess/variables.ts";
import { cliJson, makeTree, removeTrees, REPO, skill } from "../helpers.ts";

Deno.test("[P-8] the docs' table of template aliases is the code's table, row for row", () => {
  const readme = Deno.readTextFileSync(`${REPO}/docs/preprocessing.md`);
  const block = /<!-- template-aliases:start -->([\s\S]*?)<!-- template-aliases:end -->/.exec(
    readme,
  );
  ok(block, "docs/preprocessing.md marks its table of template aliases");
  const rows = block[1].split("\n").filter((l) => l.startsWith("| ")).slice(1)
    .filter((l) => !/^\|\s*-/.test(l))
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  deepEqual(rows, TEMPLATE_ALIASES.map((a) => [`\`${a.written}\``, a.means, a.from]));
});

Deno.test("[P-8] {baseDir} becomes the skill folder in text and in inline shell; ${baseDir} and template_vars off leave it", async () => {
  const body = "Run {baseDir}/scripts/go.sh, not ${baseDir}; dir: !`echo {baseDir}`\n";
  const home = makeTree({
    "config.yaml": "skills:\n  inline_shell: true\n  inline_shell_allow: [echo]\n",
    "skills/tool/SKILL.md": skill("tool", "Uses its folder.", "", body),
  });
  try {
    const dir = `${home}/skills/tool`;
    const on = await cliJson(["--home", home, "view", "tool"]);
    equal(on.code, 0, on.stderr);
    equal(
      (on.json.content as string).split("---\n\n")[1],
      `Run ${dir}/scripts/go.sh, not \${baseDir}; dir: ${dir}\n`,
    );
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  template_vars: false\n");
    const off = await cliJson(["--home", home, "view", "tool"]);
    equal((off.json.content as string).split("---\n\n")[1], body);
  } finally {
    removeTrees(home);
  }
});
