/**
 * [C-8] Every `console` example in the README is a transcript this test runs: each `$`
 * line in a fresh copy of `examples/` and `fixtures/` with a `skillrt` command on PATH (the
 * CLI with the warden's flags), its stdout and stderr compared with the lines below it. Only
 * the absolute path of the copy is ignored: the README writes it as `…`. Commands to type
 * without a shown output stand in `sh` blocks.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
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
  Deno.mkdirSync(`${dir}/tmp`);
  Deno.writeTextFileSync(
    `${dir}/bin/skillrt`,
    `#!/bin/sh\nexec "${Deno.execPath()}" run ${WARDEN_FLAGS.join(" ")} "${REPO}/main.ts" "$@"\n`,
  );
  Deno.chmodSync(`${dir}/bin/skillrt`, 0o755);
  return dir;
}

/** A step's place in the one shell session of its block. */
const MARK = (i: number) => `@@skillrt-readme-step-${i}@@`;

/**
 * Runs a block's steps in one shell session (a `cd` or a variable carries to the next step, as
 * for a reader), each step's stdout and stderr after its mark; a `mktemp` folder (TMPDIR is the
 * example's own) is shown as `$demo`, the name the README gives it.
 */
async function runBlock(dir: string, steps: Step[]): Promise<string[]> {
  const script = steps.map((s, i) => `printf '\\n%s\\n' '${MARK(i)}'\n${s.command} 2>&1`)
    .join("\n");
  const out = await new Deno.Command("bash", {
    args: ["-c", script],
    cwd: dir,
    env: {
      PATH: `${dir}/bin:${Deno.env.get("PATH")}`,
      NO_COLOR: "1",
      INIT_CWD: dir,
      TMPDIR: `${dir}/tmp`,
    },
    stdin: "null",
  }).output();
  // The example's folder is shown as `…`, this checkout as `/path/to/skillrt`.
  const got = new TextDecoder().decode(out.stdout)
    .replace(new RegExp(`${dir}/tmp/tmp\\.[A-Za-z0-9]+`, "g"), "$demo")
    .replaceAll(dir, "…").replaceAll(REPO, "/path/to/skillrt");
  return steps.map((_, i) => {
    const start = got.indexOf(`\n${MARK(i)}\n`);
    const end = i + 1 < steps.length ? got.indexOf(`\n${MARK(i + 1)}\n`) : got.length;
    return start < 0 ? "(the step did not run)" : got.slice(start + MARK(i).length + 2, end);
  });
}

Deno.test("[C-8] every console example of the README prints what the README shows", async () => {
  const blocks = transcripts();
  ok(blocks.length >= 10, `${blocks.length} console blocks`);
  for (const block of blocks) {
    const dir = workdir();
    try {
      const outputs = await runBlock(dir, block.steps);
      block.steps.forEach((step, i) =>
        equal(
          outputs[i].trimEnd(),
          step.expected.trimEnd(),
          `README line ${block.line}: $ ${step.command}`,
        )
      );
    } finally {
      removeTrees(dir);
    }
  }
});

Deno.test("[C-8] the README's examples write nothing into the checkout's examples/home", () => {
  const lines = Deno.readTextFileSync(`${REPO}/README.md`).split("\n");
  const writing =
    /^\$ skillrt --home examples\/home (create|patch|write-file|remove-file|delete|init|bundle (create|edit|delete)|disable|enable|run)\b/;
  deepEqual(lines.filter((l) => writing.test(l) || /^\$ mkdir /.test(l)), []);
});
