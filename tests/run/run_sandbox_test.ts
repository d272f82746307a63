/**
 * [RUN-1], [RUN-2], [RUN-5]: skills' scripts run by the real CLI in the real sandbox —
 * bubblewrap for Python and shell, Deno (inside the same box) for TypeScript — and each
 * attack is held: a canary under the user's home and in /root, writes outside the work
 * dir or into the skill, the network, an undeclared secret, a process left behind, time
 * and output. Ignored, with the reason, where bubblewrap is not usable.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { probeSandboxHost } from "../../src/run/sandbox_host.ts";
import { OUTPUT_LIMIT } from "../../src/run/spawn.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, makeTree, REPO, skill, tempDir } from "../helpers.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { processesWith, uniqueSleep } from "./run_helpers.ts";

const HOST = probeSandboxHost();
const BWRAP = HOST.bwrap !== undefined;
const ignore = !BWRAP;
const why = BWRAP ? "" : ` (ignored: ${HOST.bwrapProblem})`;
const SECRET = `CANARY-${crypto.randomUUID()}`;
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;

const PERMISSIONS = `metadata:
  skillrt:
    permissions:
      read: [references]
      env: [DECLARED_VAR]
      run: [sleep]
`;

const home = makeTree({
  "skills/box/SKILL.md": skill("box", "scripts that try things", PERMISSIONS),
  "skills/box/references/data.txt": "reference data\n",
  "skills/box/scripts/ok.py": `import os, sys
print("args", sys.argv[1:])
print(open(os.path.join(os.path.dirname(__file__), "..", "references", "data.txt")).read().strip())
print("declared", os.environ.get("DECLARED_VAR"))
open("written.txt", "w").write("from the script")
sys.exit(7)
`,
  "skills/box/scripts/read.sh": `cat "$1" 2>&1; echo "rc=$?"\n`,
  "skills/box/scripts/write.sh": `for f in "$@"; do echo x > "$f" 2>&1; echo "rc=$?"; done\n`,
  "skills/box/scripts/connect.py": `import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    print("connected")
except OSError as e:
    print("refused", e)
`,
  "skills/box/scripts/env.sh":
    `echo "secret=[$SKILLRT_TEST_SECRET] declared=[$DECLARED_VAR] home=[$HOME]"\n`,
  "skills/box/scripts/background.sh": `sleep "$1" &\necho started\n`,
  "skills/box/scripts/sleep.sh": 'sleep "$1"\n',
  "skills/box/scripts/flood.py": `import sys
while True:
    sys.stdout.write("x" * 65536)
`,
  "skills/box/scripts/ok.ts":
    `const data = Deno.readTextFileSync(new URL("../references/data.txt", import.meta.url));
console.log("args", JSON.stringify(Deno.args), data.trim(), Deno.env.get("DECLARED_VAR"));
Deno.writeTextFileSync("deno-written.txt", "x");
let home = "unread";
try { Deno.readTextFileSync(Deno.args[0]); home = "READ"; } catch (e) { home = (e as Error).name; }
console.log("canary", home);
Deno.exit(5);
`,
  "skills/box/scripts/bg.ts": `new Deno.Command("sleep", { args: [Deno.args[0]] }).spawn().unref();
console.log("spawned");
`,
  "skills/box/scripts/missing": "#!/usr/bin/env skillrt-no-such-interpreter\necho hi\n",
});
const box = `${home}/skills/box`;

/** A fake user home holding a canary (the CLI's HOME). */
const userHome = makeTree({ ".ssh/id_canary": `${SECRET}\n` });
const userCanary = `${userHome}/.ssh/id_canary`;

function rootCanary(): string | undefined {
  const path = `/root/.skillrt-canary-${crypto.randomUUID()}`;
  try {
    Deno.writeTextFileSync(path, `${SECRET}\n`);
    return path;
  } catch {
    return undefined;
  }
}

async function run(args: string[], workDir = tempDir(), env: Record<string, string> = {}) {
  const result = await cli(["--home", home, "run", ...args], {
    cwd: workDir,
    env: {
      HOME: userHome,
      DENO_DIR,
      SKILLRT_TEST_SECRET: SECRET,
      DECLARED_VAR: "declared value",
      ...env,
    },
  });
  return { ...result, workDir };
}

Deno.test({
  name: `a Python script: declared read, work-dir write, declared env, args, exit code${why}`,
  ignore,
}, async () => {
  const r = await run(["box", "scripts/ok.py", "--", "a b", "--flag"]);
  equal(r.code, 7, r.stderr);
  equal(r.stdout, "args ['a b', '--flag']\nreference data\ndeclared declared value\n");
  equal(Deno.readTextFileSync(`${r.workDir}/written.txt`), "from the script");
});

Deno.test(
  { name: `reading a canary under the user's home or in /root is held${why}`, ignore },
  async () => {
    const inRoot = rootCanary();
    try {
      const r = await run(["box", "scripts/read.sh", "--", userCanary]);
      ok(!r.stdout.includes(SECRET), r.stdout);
      ok(/No such file/.test(r.stdout) && r.stdout.includes("rc=1"), r.stdout);
      // Variant: /root (or its canary) is not there either.
      const root = await run(["box", "scripts/read.sh", "--", inRoot ?? "/root/.bashrc"]);
      ok(!root.stdout.includes(SECRET) && root.stdout.includes("rc=1"), root.stdout);
    } finally {
      if (inRoot) Deno.removeSync(inRoot);
    }
  },
);

Deno.test(
  { name: `writing outside the work dir or into the skill folder is held${why}`, ignore },
  async () => {
    const outside = tempDir();
    const r = await run([
      "box",
      "scripts/write.sh",
      "--",
      `${outside}/escaped`,
      `${box}/planted`,
      "inside",
    ]);
    ok(!Deno.statSync(outside).isFile);
    equal([...Deno.readDirSync(outside)].length, 0, "nothing reached the folder outside");
    equal([...Deno.readDirSync(box)].some((e) => e.name === "planted"), false);
    // The two refused writes fail inside, the one in the work dir succeeds.
    const codes = r.stdout.split("\n").filter((l) => l.startsWith("rc="));
    equal(codes.length, 3, r.stdout);
    ok(codes[0] !== "rc=0" && codes[1] !== "rc=0" && codes[2] === "rc=0", r.stdout);
    equal(Deno.readTextFileSync(`${r.workDir}/inside`), "x\n");
  },
);

Deno.test({
  name: `a skills folder inside the work dir stays read-only (no planted skills)${why}`,
  ignore,
}, async () => {
  const work = makeTree({ "vendor/skills/kept/SKILL.md": skill("kept", "a root in the project") });
  const planted = makeTree({
    "skills/box2/SKILL.md": skill("box2", "writes"),
    "skills/box2/scripts/write.sh": `for f in "$@"; do echo x > "$f" 2>&1; echo "rc=$?"; done\n`,
    "skills/box2/scripts/write.ts":
      `try { Deno.writeTextFileSync(Deno.args[0], "x"); console.log("wrote"); } catch (e) { console.log((e as Error).name); }\n`,
    "config.yaml": `skills:\n  external_dirs: [${work}/vendor/skills]\n`,
  });
  const args = (script: string) => ["--home", planted, "run", "box2", script, "--"];
  const env = { HOME: userHome, DENO_DIR };
  const sh = await cli([...args("scripts/write.sh"), "vendor/skills/evil.md", "fine"], {
    cwd: work,
    env,
  });
  equal(sh.stdout.split("\n").filter((l) => l.startsWith("rc=")).length, 2, sh.stdout + sh.stderr);
  ok(!sh.stdout.startsWith("rc=0"), sh.stdout);
  equal(Deno.readTextFileSync(`${work}/fine`), "x\n");
  // Variant: a Deno script is denied the write by --deny-write.
  const ts = await cli([...args("scripts/write.ts"), "vendor/skills/evil.md"], { cwd: work, env });
  equal(ts.stdout, "NotCapable\n", ts.stderr);
  deepEqual([...Deno.readDirSync(`${work}/vendor/skills`)].map((e) => e.name), ["kept"]);
});

Deno.test(
  { name: `no network declared: a listener on 127.0.0.1 gets no connection${why}`, ignore },
  async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    let accepted = 0;
    const accepting = (async () => {
      for await (const conn of listener) {
        accepted++;
        conn.close();
      }
    })();
    try {
      const r = await run(["box", "scripts/connect.py", "--", String(listener.addr.port)]);
      ok(r.stdout.startsWith("refused"), r.stdout + r.stderr);
    } finally {
      listener.close();
      await accepting.catch(() => {});
    }
    equal(accepted, 0);
  },
);

Deno.test({
  name: `an undeclared secret is not in the environment; a declared one is${why}`,
  ignore,
}, async () => {
  const r = await run(["box", "scripts/env.sh"]);
  equal(r.stdout, "secret=[] declared=[declared value] home=[/tmp/.home]\n");
  ok(!r.stdout.includes(SECRET));
});

Deno.test({ name: `a process left behind ends with the script${why}`, ignore }, async () => {
  const marker = uniqueSleep();
  const r = await run(["box", "scripts/background.sh", "--", marker]);
  equal(r.code, 0, r.stderr);
  equal(r.stdout, "started\n");
  equal((await processesWith(`sleep ${marker}`)).length, 0, "the background sleep is gone");
});

Deno.test({ name: `running past --timeout kills the whole tree${why}`, ignore }, async () => {
  const marker = uniqueSleep();
  const r = await run(["box", "scripts/sleep.sh", "--timeout", "1", "--", marker]);
  equal(r.code, 124);
  ok(r.stderr.includes("ran past its time limit of 1s and was killed"), r.stderr);
  equal((await processesWith(`sleep ${marker}`)).length, 0);
});

Deno.test(
  { name: `Ctrl-C (SIGINT to the CLI) ends the script's whole tree${why}`, ignore },
  async () => {
    const marker = uniqueSleep();
    const args = ["--home", home, "run", "box", "scripts/sleep.sh", "--", marker];
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, ...args],
      cwd: tempDir(),
      env: { HOME: userHome, DENO_DIR },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Wait (on the process table, not a clock) until the script runs, then interrupt the CLI.
    for (let i = 0; i < 3000 && (await processesWith(`sleep ${marker}`)).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    equal((await processesWith(`sleep ${marker}`)).length, 1, "the script is running");
    child.kill("SIGINT");
    const out = await child.output();
    equal(out.code, 130);
    equal((await processesWith(`sleep ${marker}`)).length, 0);
  },
);

Deno.test({ name: `flooding stdout is cut at 1 MiB with a marker${why}`, ignore }, async () => {
  const r = await run(["box", "scripts/flood.py"]);
  ok(r.code !== 0);
  ok(r.stdout.endsWith("the script was stopped]\n"), r.stdout.slice(-200));
  ok(
    r.stdout.length <= OUTPUT_LIMIT + 200 && r.stdout.length >= OUTPUT_LIMIT,
    String(r.stdout.length),
  );
});

Deno.test(
  { name: `a TypeScript script runs under deno with exactly the grant${why}`, ignore },
  async () => {
    const r = await run(["box", "scripts/ok.ts", "--", userCanary, "two words"]);
    equal(r.code, 5, r.stderr);
    const args = JSON.stringify([userCanary, "two words"]);
    equal(r.stdout, `args ${args} reference data declared value\ncanary NotCapable\n`);
    ok(Deno.statSync(`${r.workDir}/deno-written.txt`).isFile);
  },
);

Deno.test({
  name: `a Deno script's static import of a file outside the grant is held${why}`,
  ignore,
}, async () => {
  const secrets = makeTree({ "s.json": JSON.stringify({ secret: SECRET }) });
  const dir = makeTree({
    "skills/importer/SKILL.md": skill("importer", "imports"),
    "skills/importer/scripts/imp.ts":
      `import s from "${secrets}/s.json" with { type: "json" };\nconsole.log(JSON.stringify(s));\n`,
  });
  const r = await cli(["--home", dir, "run", "importer", "scripts/imp.ts"], {
    cwd: tempDir(),
    env: { HOME: userHome, DENO_DIR },
  });
  ok(r.code !== 0);
  ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), r.stdout + r.stderr);
});

Deno.test(
  { name: `a missing interpreter is refused before anything runs${why}`, ignore },
  async () => {
    const r = await run(["box", "scripts/missing"]);
    equal(r.code, 3);
    equal(
      r.stderr,
      "skillrt: Refusing to run 'scripts/missing' of skill 'box': its interpreter 'skillrt-no-such-interpreter' is not installed in the sandbox's system folders (/usr/local/bin:/usr/bin:/bin).\n",
    );
  },
);

Deno.test("without bubblewrap a Python script is refused with the install line; Deno still runs", async () => {
  // A PATH holding deno and nothing else: no bwrap to be found.
  const bin = tempDir();
  Deno.symlinkSync(Deno.execPath(), `${bin}/deno`);
  const env = { PATH: bin };
  const r = await run(["box", "scripts/ok.py"], tempDir(), env);
  equal(r.code, 3);
  ok(
    r.stderr.includes("bubblewrap (bwrap) is not installed: apt-get install bubblewrap"),
    r.stderr,
  );
  const d = await run(["box", "scripts/ok.ts", "--", userCanary], tempDir(), env);
  equal(d.code, 5, d.stderr);
  ok(d.stdout.includes("canary NotCapable"), d.stdout);
  ok(d.stderr.includes("runs under Deno's permissions alone"), d.stderr);
});

Deno.test("without bubblewrap a Deno script's process group is killed when it is done", async () => {
  const runtime = new SkillRuntime({ home });
  const marker = uniqueSleep();
  const result = await runtime.run("box", "scripts/bg.ts", {
    workdir: tempDir(),
    args: [marker],
    host: { ...HOST, bwrap: undefined },
  });
  equal(result.sandbox, "deno");
  equal(result.stdout, "spawned\n", result.stderr);
  equal((await processesWith(`sleep ${marker}`)).length, 0);
});
