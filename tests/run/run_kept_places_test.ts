/**
 * [RUN-1][RUN-2] No script writes a kept place (red team hR): a declared write naming a
 * nested repository's `.git` or a folder in it (as written, or through a link), or lying in
 * a folder shaped as a repository (a bare one), is refused before anything runs; so is a
 * work dir inside a `.git` or an agent's folder, or inside a bare repository — in the
 * library and at the command line (whose Worker reads what the check looks at).
 */
import { equal } from "node:assert/strict";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { lockFor, refusal } from "./run_helpers.ts";

/** A hub skill `hubby` declaring `writes`, with a script that writes a marker. */
function home(writes: string[]): string {
  const declared = `metadata:\n  skillrt:\n    permissions:\n      write: [${writes.join(", ")}]\n`;
  return makeTree({
    "skills/hubby/SKILL.md": skill("hubby", "writes", writes.length ? declared : ""),
    "skills/hubby/scripts/w.sh": "touch ran\n",
    "skills/.hub/lock.json": lockFor("hubby"),
  });
}

const REFUSED = (why: string) => `Refusing to run 'scripts/w.sh' of skill 'hubby': ${why}.`;
const run = (h: string, workdir: string) =>
  new SkillRuntime({ home: h }).run("hubby", "scripts/w.sh", { workdir, yes: true });

/** A bare repository's shape at `dir` (HEAD, objects/, refs/). */
function bare(dir: string): void {
  for (const d of ["objects", "refs/heads", "hooks"]) {
    Deno.mkdirSync(`${dir}/${d}`, { recursive: true });
  }
  Deno.writeTextFileSync(`${dir}/HEAD`, "ref: refs/heads/main\n");
}

Deno.test("a declared write into a nested .git, a link to one or a bare repository is refused", async () => {
  const work = tempDir();
  Deno.mkdirSync(`${work}/out`);
  Deno.mkdirSync(`${work}/vendor/lib/.git/hooks`, { recursive: true });
  Deno.symlinkSync(`${work}/vendor/lib/.git`, `${work}/gitlink`);
  bare(`${work}/mirror.git`);
  const kept = "'.git' is kept read-only (git and agents run what it holds)";
  const cases: [string[], string][] = [
    [["out", "vendor/lib/.git/hooks"], `write 'vendor/lib/.git/hooks' is refused: ${kept}`],
    [["vendor/lib/.git"], `write 'vendor/lib/.git' is refused: ${kept}`],
    [["gitlink"], `write 'gitlink' is refused: ${kept}`],
    [
      ["pkg/.claude"],
      "write 'pkg/.claude' is refused: '.claude' is kept read-only (git and agents run what it holds)",
    ],
    [
      ["mirror.git/hooks"],
      `write 'mirror.git/hooks' is refused: it lies in '${
        Deno.realPathSync(work)
      }/mirror.git', shaped as a git repository (git runs what its config names)`,
    ],
  ];
  const homes: string[] = [];
  try {
    for (const [writes, why] of cases) {
      const h = home(writes);
      homes.push(h);
      equal(await refusal(run(h, work)), REFUSED(why), writes.join(","));
    }
    equal(Deno.readDirSync(`${work}/vendor/lib/.git/hooks`).toArray().length, 0);
    equal([...Deno.readDirSync(work)].some((e) => e.name === "ran"), false, "nothing ran");
  } finally {
    removeTrees(work, ...homes);
  }
});

Deno.test("a work dir in a .git, an agent's folder or a bare repository is refused, in the library and the CLI", async () => {
  const top = tempDir();
  const real = Deno.realPathSync(top);
  Deno.mkdirSync(`${top}/proj/.git/hooks`, { recursive: true });
  Deno.mkdirSync(`${top}/proj/.claude`, { recursive: true });
  Deno.symlinkSync(`${top}/proj/.git`, `${top}/linked`);
  bare(`${top}/mirror.git`);
  const commonDir = `${top}/wt`;
  Deno.mkdirSync(`${commonDir}/sub`, { recursive: true });
  Deno.writeTextFileSync(`${commonDir}/commondir`, "../mirror.git\n");
  const h = home([]);
  const kept = (name: string) =>
    `the work dir may not be there: '${name}' is kept read-only (git and agents run what it holds)`;
  const shaped = (dir: string) =>
    `the work dir may not be there: it lies in '${dir}', shaped as a git repository (git runs what its config names)`;
  const cases: [string, string][] = [
    [`${top}/proj/.git`, kept(".git")],
    [`${top}/proj/.git/hooks`, kept(".git")],
    [`${top}/linked`, kept(".git")],
    [`${top}/proj/.claude`, kept(".claude")],
    [`${top}/mirror.git/hooks`, shaped(`${real}/mirror.git`)],
    [`${commonDir}/sub`, shaped(`${real}/wt`)],
  ];
  try {
    for (const [workdir, why] of cases) {
      equal(await refusal(run(h, workdir)), REFUSED(why), workdir);
      // (The CLI's Worker reads the work dir's real path only: a link is not a folder to it.)
      if (workdir.endsWith("/linked")) continue;
      const r = await cli([
        "--home",
        h,
        "run",
        "hubby",
        "scripts/w.sh",
        "--workdir",
        workdir,
        "--yes",
      ]);
      equal(r.stderr, `skillrt: ${REFUSED(why)}\n`, workdir);
      equal(r.code, 3);
    }
    for (const dir of ["proj/.git/hooks", "proj/.claude", "mirror.git/hooks", "wt/sub"]) {
      equal([...Deno.readDirSync(`${top}/${dir}`)].length, 0, `${dir}: nothing written`);
    }
  } finally {
    removeTrees(top, h);
  }
});
