/**
 * Every `@example` in the code runs (issue 28: std-style examples, checked by
 * `deno test --doc`): the examples of `mod.ts`, `main.ts` and everything below `src/` are
 * type-checked and run as `deno test --doc` does, in a child process, and all pass.
 */
import { equal, match } from "node:assert/strict";
import { REPO } from "../helpers.ts";

Deno.test("deno test --doc: every @example of mod.ts, main.ts and src/ type-checks and runs", () => {
  const out = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--doc",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--no-prompt",
      "-q",
      "mod.ts",
      "main.ts",
      "src/",
    ],
    cwd: REPO,
    env: { NO_COLOR: "1" },
  }).outputSync();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const failed = text.split("\n").filter((line) => /FAILED|^error/.test(line));
  equal(out.code, 0, failed.join("\n"));
  match(text, /ok \| \d+ passed \| 0 failed/);
});
