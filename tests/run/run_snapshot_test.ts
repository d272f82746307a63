/**
 * [RUN-3]: an approval binds every file of the skill, and what runs is the snapshot that
 * was asked about (red team hF: a changed helper ran under the old approval; files swapped
 * while the question waited ran unapproved). With the real bubblewrap, real scripts, and
 * for Deno without bubblewrap the snapshot in the skill folder's place.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { readApprovals } from "../../src/run/consent.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, tempDir } from "../helpers.ts";
import { hubHome, MCP_NOT_APPROVED, NOT_APPROVED, refusal } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

Deno.test({
  name: `[RUN-3] an approval binds every file: a changed sourced helper or module asks again${why}`,
  ignore,
}, async () => {
  const home = hubHome({
    "scripts/run.sh": '. "$(dirname "$0")/lib.sh"\nmain\n',
    "scripts/lib.sh": "main() { echo benign; }\n",
    "scripts/main.py": "import helper\nhelper.main()\n",
    "scripts/helper.py": "def main():\n    print('benign')\n",
  });
  const rt = new SkillRuntime({ home });
  const work = tempDir();
  for (const script of ["scripts/run.sh", "scripts/main.py"]) {
    equal((await rt.run("hubby", script, { workdir: work, yes: true })).stdout, "benign\n");
    equal((await rt.run("hubby", script, { workdir: work, approvedOnly: true })).exitCode, 0);
  }
  Deno.writeTextFileSync(`${home}/skills/hubby/scripts/lib.sh`, "main() { echo CHANGED; }\n");
  equal(
    await refusal(rt.run("hubby", "scripts/run.sh", { workdir: work, approvedOnly: true })),
    MCP_NOT_APPROVED("scripts/run.sh", "hubby"),
  );
  equal(
    await refusal(rt.run("hubby", "scripts/run.sh", { workdir: work })),
    NOT_APPROVED("scripts/run.sh", "hubby", "hub").slice("skillrt: ".length, -1),
  );
  // Variant: the Python module the entry script imports; and a file that is new.
  Deno.writeTextFileSync(`${home}/skills/hubby/scripts/helper.py`, "def main():\n    print(1)\n");
  equal(
    await refusal(rt.run("hubby", "scripts/main.py", { workdir: work, approvedOnly: true })),
    MCP_NOT_APPROVED("scripts/main.py", "hubby"),
  );
  equal((await rt.run("hubby", "scripts/main.py", { workdir: work, yes: true })).stdout, "1\n");
  Deno.writeTextFileSync(`${home}/skills/hubby/scripts/sitecustomize.py`, "print('planted')\n");
  equal(
    await refusal(rt.run("hubby", "scripts/main.py", { workdir: work, approvedOnly: true })),
    MCP_NOT_APPROVED("scripts/main.py", "hubby"),
  );
});

Deno.test({
  name:
    `[RUN-3] what runs is the snapshot asked about: files swapped while the prompt waits do not${why}`,
  ignore,
}, async () => {
  const home = hubHome({
    "scripts/hi.sh": '. "$(dirname "$0")/lib.sh"\necho benign\n',
    "scripts/lib.sh": "true\n",
  });
  const rt = new SkillRuntime({ home });
  const scratch = Deno.realPathSync(tempDir());
  const questions: string[] = [];
  const r = await rt.run("hubby", "scripts/hi.sh", {
    workdir: tempDir(),
    host: { ...HOST, scratch },
    confirm: (question) => {
      questions.push(question);
      const dir = `${home}/skills/hubby/scripts`;
      Deno.writeTextFileSync(`${dir}/hi.sh`, "echo UNAPPROVED\n");
      // Variant: the helper it sources, swapped too.
      Deno.writeTextFileSync(`${dir}/lib.sh`, "echo UNAPPROVED-HELPER\n");
      return Promise.resolve(true);
    },
  });
  equal(r.exitCode, 0, r.stderr);
  equal(r.stdout, "benign\n");
  equal(questions.length, 1);
  ok(
    questions[0].includes('\n    | . "$(dirname "$0")/lib.sh"\n    | echo benign\n'),
    questions[0],
  );
  ok(questions[0].includes("\n    scripts/lib.sh (5 bytes)\n"), questions[0]);
  // The approval is of the snapshot that ran; the changed files are not approved.
  equal(readApprovals(`${home}/skills`)[0].files, r.filesSha256);
  equal(
    await refusal(rt.run("hubby", "scripts/hi.sh", { workdir: tempDir(), approvedOnly: true })),
    MCP_NOT_APPROVED("scripts/hi.sh", "hubby"),
  );
  deepEqual([...Deno.readDirSync(scratch)], [], "the snapshot was removed");
});

Deno.test({
  name: `[RUN-3] Deno without bubblewrap runs the snapshot in the skill folder's place${
    HOST.deno ? "" : " (ignored: no deno executable found)"
  }`,
  ignore: HOST.deno === undefined,
}, async () => {
  const home = hubHome({
    "scripts/main.ts":
      'console.log(Deno.readTextFileSync(new URL("../references/r.txt", import.meta.url)));\n',
    "references/r.txt": "approved reference",
  });
  const scratch = Deno.realPathSync(tempDir());
  const skillDir = Deno.realPathSync(`${home}/skills/hubby`);
  const noBox = { ...HOST, bwrap: undefined, bwrapProblem: "absent here", scratch };
  const r = await new SkillRuntime({ home }).run("hubby", "scripts/main.ts", {
    workdir: tempDir(),
    host: noBox,
    confirm: () => {
      Deno.writeTextFileSync(`${skillDir}/scripts/main.ts`, 'console.log("UNAPPROVED");\n');
      Deno.writeTextFileSync(`${skillDir}/references/r.txt`, "UNAPPROVED reference");
      return Promise.resolve(true);
    },
  });
  equal(r.sandbox, "deno");
  equal(r.exitCode, 0, r.stderr);
  equal(r.stdout, "approved reference\n");
  const script = r.commandLine.find((a) => a.endsWith("/scripts/main.ts"))!;
  ok(script.startsWith(`${scratch}/`), script);
  ok(!r.commandLine.some((a) => a.includes(skillDir)), r.commandLine.join(" "));
  deepEqual([...Deno.readDirSync(scratch)], [], "the snapshot was removed");
});

Deno.test({
  name:
    `[RUN-3] a file that links out of the skill, or a FIFO, refuses the run; nothing runs${why}`,
  ignore,
}, async () => {
  const outside = tempDir();
  Deno.writeTextFileSync(`${outside}/canary`, "CANARY");
  const home = hubHome({ "scripts/hi.sh": "echo ran > ran\n" });
  Deno.symlinkSync(`${outside}/canary`, `${home}/skills/hubby/scripts/leak`);
  const rt = new SkillRuntime({ home });
  const work = tempDir();
  const said = await refusal(rt.run("hubby", "scripts/hi.sh", { workdir: work, yes: true })) ??
    "ran";
  ok(
    said.startsWith(
      "Refusing to run 'scripts/hi.sh' of skill 'hubby': its file 'scripts/leak' cannot be read inside it (",
    ),
    said,
  );
  equal(said.split("\n").length, 1, "one line");
  // Variant: a FIFO (opening it would wait for a writer forever).
  Deno.removeSync(`${home}/skills/hubby/scripts/leak`);
  const fifo = new Deno.Command("mkfifo", { args: [`${home}/skills/hubby/scripts/pipe`] });
  equal((await fifo.output()).code, 0);
  const fifoWhy = await refusal(rt.run("hubby", "scripts/hi.sh", { workdir: work, yes: true }));
  ok(fifoWhy?.includes("its file 'scripts/pipe' cannot be read inside it"), fifoWhy);
  // Variant: a linked folder (to a folder outside).
  Deno.removeSync(`${home}/skills/hubby/scripts/pipe`);
  Deno.symlinkSync(outside, `${home}/skills/hubby/refs`);
  equal(
    await refusal(rt.run("hubby", "scripts/hi.sh", { workdir: work, yes: true })),
    "Refusing to run 'scripts/hi.sh' of skill 'hubby': its folder 'refs' is a link.",
  );
  deepEqual([...Deno.readDirSync(work)], [], "nothing ran");
  equal(readApprovals(`${home}/skills`).length, 0, "nothing was approved");
});

Deno.test({
  name: `[RUN-3] the snapshot keeps execute bits: a script starts its sibling by path${why}`,
  ignore,
}, async () => {
  const home = hubHome({
    "scripts/run.sh": '"$(dirname "$0")/step.sh"\n',
    "scripts/step.sh": "#!/bin/sh\necho step ran\n",
  });
  Deno.chmodSync(`${home}/skills/hubby/scripts/step.sh`, 0o755);
  const r = await new SkillRuntime({ home }).run("hubby", "scripts/run.sh", {
    workdir: tempDir(),
    yes: true,
  });
  equal(r.stderr, "");
  equal(r.stdout, "step ran\n");
});

Deno.test({
  name: `[RUN-3] the CLI's scratch folder is gone after a run, a refusal and a failed script${why}`,
  ignore,
}, async () => {
  const home = hubHome({ "scripts/hi.sh": "echo hi\n", "scripts/fail.sh": "exit 7\n" });
  const tmp = tempDir();
  const run = (args: string[]) =>
    cli(["--home", home, "run", "hubby", ...args], { cwd: tempDir(), env: { TMPDIR: tmp } });
  const refused = await run(["scripts/hi.sh"]);
  equal(refused.code, 3, refused.stderr);
  deepEqual([...Deno.readDirSync(tmp)], [], "after a refusal");
  const ran = await run(["scripts/hi.sh", "--yes"]);
  equal(ran.stdout, "hi\n", ran.stderr);
  deepEqual([...Deno.readDirSync(tmp)], [], "after a run");
  equal((await run(["scripts/fail.sh", "--yes"])).code, 7);
  deepEqual([...Deno.readDirSync(tmp)], [], "after a failed script");
});
