/**
 * `sandbox CMD …` reads the command's line with that command's own grammar (issue 22 item
 * 8, [X-3]): a line `CMD …` refuses as a usage error, `sandbox CMD …` refuses with the very
 * same message, usage line and exit code — in text and in JSON — instead of planning it
 * (`sandbox sync` without `--from` used to fail with "Not permitted by the sandbox"). A
 * reading command's plan holds for any arguments, so `sandbox view` still prints one.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";

/** Lines each command refuses before doing anything. */
const REFUSED: string[][] = [
  ["sync"],
  ["sync", "--from"],
  ["edit"],
  ["init"],
  ["create"],
  ["setup"],
  ["enable"],
  ["patch", "x"],
  ["view", "a", "b", "c"],
  ["list", "--bogus"],
  ["graph", "--bogus", "x"],
  ["hub"],
  ["hub", "install"],
  ["hub", "scan"],
  ["hub", "frob"],
  ["mcp", "--http", "--host", "0.0.0.0"],
];

Deno.test("[X-3] sandbox CMD gives CMD's own usage errors, word for word, text and JSON", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A.") });
  try {
    for (const line of REFUSED) {
      const plain = await cli(["--home", home, ...line]);
      const planned = await cli(["--home", home, "sandbox", ...line]);
      equal(plain.code, 2, `${line.join(" ")}: ${plain.stderr}`);
      deepEqual(
        [planned.code, planned.stderr, planned.stdout],
        [plain.code, plain.stderr, plain.stdout],
        line.join(" "),
      );
    }
    const json = await cliJson(["--home", home, "sandbox", "sync"]);
    equal(json.code, 2);
    deepEqual(json.json, (await cliJson(["--home", home, "sync"])).json);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[X-3] sandbox still plans what the command accepts: a reading command without its arguments, options after the words, and after '--'", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "A.") });
  const from = makeTree({ "b/SKILL.md": skill("b", "B.") });
  try {
    for (
      const line of [
        ["view"],
        ["search"],
        ["view", "a", "--json"],
        ["graph", "--format", "dot"],
        ["sync", "--from", from],
        ["--", "prompt", "--preload", "a"],
      ]
    ) {
      const r = await cliJson(["--home", home, "sandbox", ...line]);
      equal(r.code, 0, `${line.join(" ")}: ${r.stderr}`);
      ok(Array.isArray((r.json.plan as { read: string[] }).read), line.join(" "));
    }
    const graph = await cliJson(["--home", home, "sandbox", "graph", "--format", "dot"]);
    ok((graph.json.deno_command as string).endsWith(" graph --format dot"));
  } finally {
    removeTrees(home, from);
  }
});
