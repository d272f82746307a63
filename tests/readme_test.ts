/**
 * [C-8] Every `console` example in the README is a transcript this test runs: each `$`
 * line in a fresh copy of `examples/` and `fixtures/` with a `skillrt` command on PATH (the
 * CLI with the warden's flags), its stdout and stderr compared with the lines below it. Only
 * the absolute path of the copy is ignored: the README writes it as `…`. Commands to type
 * without a shown output stand in `sh` blocks.
 */
import { equal, ok } from "node:assert/strict";
import { WARDEN_FLAGS } from "../src/sandbox/warden_flags.ts";
import { removeTrees, REPO } from "./helpers.ts";

interface Step {
  command: string;
  expected: string;
}

/** The console blocks of the README, each a list of commands with their expected output. */
function transcripts(): { line: number; steps: Step[] }[] {
  const lines = Deno.readTextFileSync(`${REPO}/README.md`).split("\n");
  const out: { line: number; steps: Step[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```console") continue;
    const block = { line: i + 1, steps: [] as Step[] };
    for (i++; lines[i] !== "```"; i++) {
      if (lines[i].startsWith("$ ")) block.steps.push({ command: lines[i].slice(2), expected: "" });
      else block.steps.at(-1)!.expected += lines[i] + "\n";
    }
    out.push(block);
  }
  return out;
}

function workdir(): string {
  const dir = Deno.makeTempDirSync({ prefix: "skillrt-readme-" });
  for (const folder of ["examples", "fixtures"]) {
    const cp = new Deno.Command("cp", { args: ["-a", `${REPO}/${folder}`, dir] }).outputSync();
    equal(cp.success, true);
  }
  Deno.mkdirSync(`${dir}/bin`);
  Deno.writeTextFileSync(
    `${dir}/bin/skillrt`,
    `#!/bin/sh\nexec "${Deno.execPath()}" run ${WARDEN_FLAGS.join(" ")} "${REPO}/main.ts" "$@"\n`,
  );
  Deno.chmodSync(`${dir}/bin/skillrt`, 0o755);
  return dir;
}

Deno.test("[C-8] every console example of the README prints what the README shows", async () => {
  const blocks = transcripts();
  ok(blocks.length >= 10, `${blocks.length} console blocks`);
  for (const block of blocks) {
    const dir = workdir();
    try {
      for (const step of block.steps) {
        const out = await new Deno.Command("bash", {
          args: ["-c", `${step.command} 2>&1`],
          cwd: dir,
          env: { PATH: `${dir}/bin:${Deno.env.get("PATH")}`, NO_COLOR: "1", INIT_CWD: dir },
          stdin: "null",
        }).output();
        // The example's folder is shown as `…`, this checkout as `/path/to/skillrt`.
        const got = new TextDecoder().decode(out.stdout).replaceAll(dir, "…")
          .replaceAll(REPO, "/path/to/skillrt");
        equal(
          got.trimEnd(),
          step.expected.trimEnd(),
          `README line ${block.line}: $ ${step.command}`,
        );
      }
    } finally {
      removeTrees(dir);
    }
  }
});
