/**
 * [C-8] Every `console` example of the docs (README.md and docs/*.md) is a transcript this
 * test runs: each `$` line in a fresh copy of `examples/` and `fixtures/` with a `skillrt`
 * command on PATH (the CLI with the warden's flags), its stdout and stderr compared with the
 * lines below it. Only the absolute path of the copy is ignored: the docs write it as `…`.
 * Commands to type without a shown output stand in `sh` blocks.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { removeTrees, REPO } from "../helpers.ts";
import { userDocs } from "./user_docs.ts";

interface Step {
  command: string;
  expected: string;
}

interface Transcript {
  /** Where it stands: `docs/file.md line N`. */
  where: string;
  steps: Step[];
}

/** The console blocks of the docs, each a list of commands with their expected output. */
function transcripts(): Transcript[] {
  return userDocs().flatMap((doc) => blocksOf(doc.path, doc.text));
}

function blocksOf(path: string, text: string): Transcript[] {
  const lines = text.split("\n");
  const out: Transcript[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```console") continue;
    const block: Transcript = { where: `${path} line ${i + 1}`, steps: [] };
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
 * example's own) is shown as `$demo`, the name the docs give it.
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

Deno.test("[C-8] every console example of the docs prints what the docs show", async () => {
  const blocks = transcripts();
  ok(blocks.length >= 16, `${blocks.length} console blocks`);
  for (const block of blocks) {
    const dir = workdir();
    try {
      const outputs = await runBlock(dir, block.steps);
      block.steps.forEach((step, i) =>
        equal(
          outputs[i].trimEnd(),
          step.expected.trimEnd(),
          `${block.where}: $ ${step.command}`,
        )
      );
    } finally {
      removeTrees(dir);
    }
  }
});

Deno.test("[C-8] the docs' examples write nothing into the checkout's examples/home", () => {
  const lines = userDocs().flatMap((doc) => doc.text.split("\n"));
  const writing =
    /^\$ skillrt --home examples\/home (create|patch|write-file|remove-file|delete|init|bundle (create|edit|delete)|disable|enable|run)\b/;
  deepEqual(lines.filter((l) => writing.test(l) || /^\$ mkdir /.test(l)), []);
});
