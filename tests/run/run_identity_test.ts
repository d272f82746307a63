/**
 * [RUN-2][RUN-3] What runs is what was checked and approved (red team hR): (1) the approved
 * snapshot is bound last, so a declared read of the skill's parent does not cover it
 * with the live folder that another user may change while
 * the question waits; (2) the work dir bound is the folder checked, by device and inode —
 * one swapped for a link meanwhile is refused by the box; (3) a declared variable's value
 * never stands on bwrap's command line (every user of the machine may read it in
 * /proc/PID/cmdline) nor in the result's. Real bwrap; ignored, with the reason, where
 * bubblewrap is not usable.
 */
import { equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { makeTree, removeTrees, skill, tempDir } from "../helpers.ts";

const HOST = probeSandboxHost();
const ignore = HOST.bwrap === undefined;
const why = ignore ? ` (ignored: ${HOST.bwrapProblem})` : "";

const READS_PARENT = "metadata:\n  skillrt:\n    permissions:\n      read: ['..']\n";

/** A home whose external root `<base>/ext` holds `tool` (declaring `frontmatter`) with `scripts/go.sh`. */
function external(base: string, frontmatter = ""): string {
  const home = makeTree({ "skills/.keep": "" });
  makeTreeAt(`${base}/ext/tool`, {
    "SKILL.md": skill("tool", "an external tool", frontmatter),
    "scripts/go.sh": "echo approved text ran\n",
  });
  Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  external_dirs: [${base}/ext]\n`);
  return home;
}

function makeTreeAt(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    Deno.mkdirSync(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${path}`, text);
  }
}

/** Runs tool's script, changing it on disk while the question waits. */
function runSwapped(home: string, base: string, workdir: string) {
  return new SkillRuntime({ home }).run("tool", "scripts/go.sh", {
    workdir,
    confirm: () => {
      Deno.writeTextFileSync(`${base}/ext/tool/scripts/go.sh`, "echo other code ran\n");
      return Promise.resolve(true);
    },
  });
}

Deno.test({
  name:
    `the approved snapshot runs even where a declared read of the skill's parent holds the skill folder${why}`,
  ignore,
}, async () => {
  const base = tempDir();
  const work = tempDir();
  const home = external(base, READS_PARENT);
  try {
    const r = await runSwapped(home, base, work);
    equal(r.exitCode, 0, r.stderr);
    equal(r.stdout, "approved text ran\n");
    // Variant: the parent declared by its absolute path.
    Deno.writeTextFileSync(`${base}/ext/tool/scripts/go.sh`, "echo approved text ran\n");
    const absolute = external(base, READS_PARENT.replace("'..'", `'${base}/ext'`));
    const again = await runSwapped(absolute, base, work);
    equal(again.exitCode, 0, again.stderr);
    equal(again.stdout, "approved text ran\n");
    removeTrees(absolute);
  } finally {
    removeTrees(base, work, home);
  }
});

Deno.test({
  name: `a work dir swapped for a link while the question waits is refused by the box${why}`,
  ignore,
}, async () => {
  const base = tempDir();
  const shared = tempDir();
  const victim = tempDir();
  const home = external(base);
  const work = `${shared}/team`;
  Deno.mkdirSync(work);
  try {
    const running = new SkillRuntime({ home }).run("tool", "scripts/go.sh", {
      workdir: work,
      confirm: () => {
        Deno.renameSync(work, `${shared}/moved`);
        Deno.symlinkSync(victim, work);
        return Promise.resolve(true);
      },
    });
    // Refused before the box when the swap is seen first, else by the box (its own check).
    const refused = await running.then(
      (r) => r.stderr ?? "",
      (e: Error) => e.message,
    );
    ok(
      refused.includes("is not the folder that was checked (a link was swapped in?)"),
      refused,
    );
    equal([...Deno.readDirSync(victim)].length, 0, "nothing was written where the link points");
  } finally {
    removeTrees(base, shared, victim, home);
  }
});

Deno.test({
  name:
    `a declared variable's value reaches the script but stands on no command line, bwrap's or the result's${why}`,
  ignore,
}, async () => {
  const secret = `tok-${crypto.randomUUID()}`;
  const env = "metadata:\n  skillrt:\n    permissions:\n      env: [MYAPP_TEST_TOKEN]\n";
  const home = makeTree({
    "skills/tool/SKILL.md": skill("tool", "uses a token", env),
    // The box's pid 1 is a fork of bwrap: its cmdline is what `ps` shows every user.
    "skills/tool/scripts/go.sh":
      'tr "\\0" "\\n" < /proc/1/cmdline | grep -c -- "$MYAPP_TEST_TOKEN"\necho "len=${#MYAPP_TEST_TOKEN}"\n',
  });
  const work = tempDir();
  try {
    const r = await new SkillRuntime({ home }).run("tool", "scripts/go.sh", {
      workdir: work,
      envValues: () => Promise.resolve({ MYAPP_TEST_TOKEN: secret }),
    });
    equal(r.stdout, `0\nlen=${secret.length}\n`, r.stderr);
    ok(!r.commandLine.some((a) => a.includes(secret)), "the value is not in command_line");
  } finally {
    removeTrees(home, work);
  }
});
