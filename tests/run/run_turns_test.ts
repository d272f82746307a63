/**
 * [RUN-2] Runs take turns by work dir, machine-wide (red team hR): a run in `/p` and one in
 * `/p/sub` — of another home — overlapped, and the second lost the read-only kept folders
 * the first box made; now nested work dirs wait for each other, in any home, while sibling
 * work dirs run side by side. The locks live in the user's one folder of turns
 * (`$XDG_RUNTIME_DIR/skillrt-turns` when that is the user's 0700 folder, else
 * `~/.cache/skillrt/turns`). Real bwrap for the runs.
 */
import { equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { inWorkDirTurn, machineTurnsFolder } from "../../src/run/work_dir_turns.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { removeTrees, tempDir } from "../helpers.ts";
import { hubHome } from "./run_helpers.ts";
import { existsHere } from "../../src/home/paths.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

/** A home with the hub skill `hubby` whose scripts are `scripts/NAME.sh` → text. */
const home = (scripts: Record<string, string>) =>
  hubHome(Object.fromEntries(Object.entries(scripts).map(([n, t]) => [`scripts/${n}.sh`, t])));

const run = (h: string, script: string, workdir: string) =>
  new SkillRuntime({ home: h }).run("hubby", `scripts/${script}.sh`, { workdir, yes: true });

async function until(path: string, tries: number): Promise<void> {
  for (let i = 0; i < tries && !existsHere(path); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits (at most 30 s) for `release` in the work dir, then says whether it came. */
const WAITS =
  "touch started\nfor i in $(seq 1 600); do [ -e release ] && { echo released; exit 0; }; sleep 0.05; done\necho alone\n";

Deno.test({
  name: `a run in a folder of another run's work dir, of another home, waits its turn${why}`,
  ignore,
}, async () => {
  const work = tempDir();
  Deno.mkdirSync(`${work}/sub`);
  const outer = home({ waits: WAITS });
  const inner = home({ marks: "touch started\necho inner ran\n" });
  try {
    const first = run(outer, "waits", work);
    await until(`${work}/started`, 400);
    ok(existsHere(`${work}/started`), "the outer script started");
    const second = run(inner, "marks", `${work}/sub`);
    await until(`${work}/sub/started`, 20);
    equal(existsHere(`${work}/sub/started`), false, "the inner run ran beside the outer one");
    Deno.writeTextFileSync(`${work}/release`, "");
    const [a, b] = await Promise.all([first, second]);
    equal(a.stdout, "released\n", a.stderr);
    equal(b.stdout, "inner ran\n", b.stderr);
    // Variant: the other way round — the outer run waits for the inner one.
    for (const f of ["release", "started", "sub/started"]) Deno.removeSync(`${work}/${f}`);
    const innerWaits = home({ waits: WAITS });
    const outerMarks = home({ marks: "touch started\necho outer ran\n" });
    try {
      const third = run(innerWaits, "waits", `${work}/sub`);
      await until(`${work}/sub/started`, 400);
      const fourth = run(outerMarks, "marks", work);
      await until(`${work}/started`, 20);
      equal(existsHere(`${work}/started`), false, "the outer run ran beside the inner one");
      Deno.writeTextFileSync(`${work}/sub/release`, "");
      const [c, d] = await Promise.all([third, fourth]);
      equal(c.stdout, "released\n", c.stderr);
      equal(d.stdout, "outer ran\n", d.stderr);
    } finally {
      removeTrees(innerWaits, outerMarks);
    }
  } finally {
    removeTrees(work, outer, inner);
  }
});

Deno.test({ name: `sibling work dirs run side by side${why}`, ignore }, async () => {
  const work = tempDir();
  for (const d of ["a", "b"]) Deno.mkdirSync(`${work}/${d}`);
  const h = home({ waits: WAITS, marks: "echo b ran\n" });
  try {
    const a = run(h, "waits", `${work}/a`);
    await until(`${work}/a/started`, 400);
    // b finishes while a still waits: it never waited for a's turn.
    const b = await run(h, "marks", `${work}/b`);
    equal(b.stdout, "b ran\n", b.stderr);
    Deno.writeTextFileSync(`${work}/a/release`, "");
    equal((await a).stdout, "released\n");
  } finally {
    removeTrees(work, h);
  }
});

Deno.test("turns in one process: nested paths take turns from / down, siblings share", async () => {
  const folder = tempDir();
  const log: string[] = [];
  let release = () => {};
  const held = new Promise<void>((r) => release = r);
  try {
    const outer = inWorkDirTurn(folder, "/p", async () => {
      log.push("outer");
      await held;
      log.push("outer done");
    });
    const sibling = inWorkDirTurn(folder, "/q", () => log.push("sibling"));
    await sibling;
    const inner = inWorkDirTurn(folder, "/p/sub", () => log.push("inner"));
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([outer, inner]);
    equal(log.join(", "), "outer, sibling, outer done, inner");
  } finally {
    removeTrees(folder);
  }
});

Deno.test("the folder of turns: the user's 0700 runtime folder, else the home's cache", () => {
  const runtime = tempDir();
  const h = tempDir();
  try {
    Deno.chmodSync(runtime, 0o700);
    equal(machineTurnsFolder(runtime, h), `${runtime}/skillrt-turns`);
    Deno.chmodSync(runtime, 0o755);
    equal(machineTurnsFolder(runtime, h), `${h}/.cache/skillrt/turns`);
    equal(machineTurnsFolder(`${runtime}/absent`, h), `${h}/.cache/skillrt/turns`);
    equal(machineTurnsFolder("relative", undefined), undefined);
    // Variant: a 0700 folder whose owner is not the home's is not the user's own (as root,
    // the folder is given to nobody; as anyone else, the home is `/`, root's).
    Deno.chmodSync(runtime, 0o700);
    const root = Deno.statSync(runtime).uid === 0;
    if (root) Deno.chownSync(runtime, 65534, 65534);
    const home = root ? h : "/";
    equal(machineTurnsFolder(runtime, home), `${home === "/" ? "" : home}/.cache/skillrt/turns`);
  } finally {
    removeTrees(runtime, h);
  }
});
