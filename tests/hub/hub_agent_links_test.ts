/**
 * Agent skill folders ([H-5]) and hub installs into them ([HUB-8]) against planted links.
 * Another agent's folder is written by other programs too, so
 * anything in it may be a planted link: the hub's lock and audit log there, and a
 * category folder, are never read or written through one ([S-9], [X-6]). Each attack
 * runs the real CLI against a temp HOME with a canary outside every home and root, and
 * asserts the exact refusal and that nothing changed on disk.
 */
import { equal, match, ok, rejects } from "node:assert/strict";
import { appendAudit } from "../../src/hub/audit.ts";

import { cli, makeCanary, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";

/** The CLI's module cache, kept when HOME points at a temp folder. */
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

/** A temp HOME with Claude's skills folder, a skillrt home, and a source skill to install. */
function world(): { user: string; home: string; claude: string; source: string } {
  const user = Deno.realPathSync(makeTree({
    ".claude/skills/mine/SKILL.md": skill("mine", "Claude's own skill."),
    ".hermes/skills/.keep": "",
    "src/s1/SKILL.md": skill("s1", "A skill to install."),
  }));
  return {
    user,
    home: `${user}/.hermes`,
    claude: `${user}/.claude/skills`,
    source: `${user}/src/s1`,
  };
}

function run(user: string, home: string, args: string[]) {
  return cli(["--home", home, ...args], { env: { HOME: user, DENO_DIR } });
}

Deno.test("[S-9][X-6][H-5] hub install --agent refuses an audit.log link planted in the agent's folder before writing anything; the canary is untouched", async () => {
  const w = world();
  const canary = makeCanary();
  try {
    Deno.mkdirSync(`${w.claude}/.hub`);
    Deno.symlinkSync(canary.file, `${w.claude}/.hub/audit.log`);
    const before = snapshot(w.user);
    const r = await run(w.user, w.home, ["hub", "install", "--agent", "claude", w.source, "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(
      r.stderr,
      `skillrt: Refusing to install: '${w.claude}/.hub/audit.log' is a symbolic link.\n`,
    );
    equal(Deno.readTextFileSync(canary.file), `${canary.secret}\n`);
    equal(snapshot(w.user), before);
  } finally {
    removeTrees(w.user, canary.dir);
  }
});

Deno.test("[S-9][H-5] hub audit --agent never prints the target of a linked audit.log", async () => {
  const w = world();
  const canary = makeCanary();
  try {
    Deno.mkdirSync(`${w.claude}/.hub`);
    Deno.symlinkSync(canary.file, `${w.claude}/.hub/audit.log`);
    for (const extra of [[], ["--verify"]]) {
      const r = await run(w.user, w.home, ["hub", "audit", "--agent", "claude", ...extra]);
      equal(r.code, 1, r.stderr);
      equal(r.stdout, "");
      equal(
        r.stderr,
        `skillrt: Refusing to read through a symbolic link: '${w.claude}/.hub/audit.log'.\n`,
      );
    }
  } finally {
    removeTrees(w.user, canary.dir);
  }
});

Deno.test("[S-9][H-5] a lock.json link in the agent's folder is never read through: install and uninstall refuse, nothing changes", async () => {
  const w = world();
  const canary = makeCanary();
  try {
    Deno.mkdirSync(`${w.claude}/.hub`);
    Deno.writeTextFileSync(
      canary.file,
      JSON.stringify({ version: 1, installed: { mine: { install_path: "mine" } } }),
    );
    const content = Deno.readTextFileSync(canary.file);
    Deno.symlinkSync(canary.file, `${w.claude}/.hub/lock.json`);
    const before = snapshot(w.user);
    const install = await run(w.user, w.home, [
      "hub",
      "install",
      "--agent",
      "claude",
      w.source,
      "--yes",
    ]);
    equal(install.code, 1, install.stderr);
    equal(
      install.stderr,
      `skillrt: Refusing to install: '${w.claude}/.hub/lock.json' is a symbolic link.\n`,
    );
    const gone = await run(w.user, w.home, ["hub", "uninstall", "--agent", "claude", "mine"]);
    equal(gone.code, 1, gone.stderr);
    equal(
      gone.stderr,
      `skillrt: Hub lock file '${w.claude}/.hub/lock.json' is a symbolic link, which skillrt never reads through; it was left as it is. Fix or remove it first.\n`,
    );
    ok(Deno.statSync(`${w.claude}/mine/SKILL.md`).isFile);
    equal(Deno.readTextFileSync(canary.file), content);
    equal(snapshot(w.user), before);
  } finally {
    removeTrees(w.user, canary.dir);
  }
});

Deno.test("[X-6][H-5] a category folder that is a link: hub install --category (even --force) neither writes nor deletes through it", async () => {
  const w = world();
  const outside = makeTree({ "s1/keep.txt": "outside\n" });
  try {
    for (const [root, agent] of [[w.claude, ["--agent", "claude"]], [`${w.home}/skills`, []]]) {
      Deno.symlinkSync(outside, `${root}/cat`);
      const before = snapshot(w.user);
      const r = await run(w.user, w.home, [
        "hub",
        "install",
        ...agent,
        "--category",
        "cat",
        w.source,
        "--yes",
        "--force",
      ]);
      equal(r.code, 1, r.stderr);
      equal(
        r.stderr,
        `skillrt: Refusing to use '${root}/cat': it is a symbolic link, and skillrt never installs or removes through one.\n`,
      );
      equal(Deno.readTextFileSync(`${outside}/s1/keep.txt`), "outside\n");
      equal([...Deno.readDirSync(outside)].map((e) => e.name).join(","), "s1");
      equal(snapshot(w.user), before);
    }
  } finally {
    removeTrees(w.user, outside);
  }
});

Deno.test("[X-6][H-5] hub uninstall --agent of a lock entry whose category is a link removes nothing outside", async () => {
  const w = world();
  const outside = makeTree({ "victim/keep.txt": "outside\n" });
  try {
    Deno.mkdirSync(`${w.claude}/.hub`);
    Deno.writeTextFileSync(
      `${w.claude}/.hub/lock.json`,
      JSON.stringify({ version: 1, installed: { x: { install_path: "cat/victim" } } }),
    );
    Deno.symlinkSync(outside, `${w.claude}/cat`);
    const before = snapshot(w.user);
    const r = await run(w.user, w.home, ["hub", "uninstall", "--agent", "claude", "x"]);
    equal(r.code, 1, r.stderr);
    equal(
      r.stderr,
      `skillrt: Refusing to use '${w.claude}/cat': it is a symbolic link, and skillrt never installs or removes through one.\n`,
    );
    equal(Deno.readTextFileSync(`${outside}/victim/keep.txt`), "outside\n");
    equal(snapshot(w.user), before);
  } finally {
    removeTrees(w.user, outside);
  }
});

Deno.test("[S-9] the audit log is appended in one place that never writes through a link (a link planted after the install's checks)", async () => {
  const root = Deno.realPathSync(makeTree({ ".hub/.keep": "" }));
  const canary = makeCanary();
  try {
    Deno.symlinkSync(canary.file, `${root}/.hub/audit.log`);
    await rejects(
      appendAudit(root, "2026-01-01T00:00:00.000Z INSTALL x y:local safe"),
      (e: Error) => {
        match(e.message, /^Refusing to read through a symbolic link: '.*\/\.hub\/audit\.log'\.$/);
        return true;
      },
    );
    equal(Deno.readTextFileSync(canary.file), `${canary.secret}\n`);
    ok(Deno.lstatSync(`${root}/.hub/audit.log`).isSymlink);
  } finally {
    removeTrees(root, canary.dir);
  }
});

/** Makes a git repository of a folder (one commit). */
async function gitRepo(tree: string): Promise<void> {
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "skills"]]) {
    const done = await new Deno.Command("git", {
      args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
      cwd: tree,
      stdout: "null",
      stderr: "null",
    }).output();
    equal(done.success, true);
  }
}

Deno.test("[S-9][X-6][HUB-8] a bare-name install from the configured collections never clones through a linked .hub in the agent's folder", async () => {
  const w = world();
  const repo = makeTree({ "pdf/SKILL.md": skill("pdf", "Read PDF files.") });
  const outside = makeTree({ ".keep": "" });
  try {
    await gitRepo(repo);
    Deno.writeTextFileSync(
      `${w.home}/config.yaml`,
      `skills:\n  hub:\n    collections:\n      - file://${repo}\n`,
    );
    Deno.symlinkSync(outside, `${w.claude}/.hub`);
    const before = snapshot(w.user);
    const r = await run(w.user, w.home, ["hub", "install", "--agent", "claude", "pdf", "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(r.stderr, `skillrt: Refusing to install: '${w.claude}/.hub' is a symbolic link.\n`);
    equal([...Deno.readDirSync(outside)].map((e) => e.name).join(","), ".keep");
    equal(snapshot(w.user), before);
  } finally {
    removeTrees(w.user, repo, outside);
  }
});

Deno.test("[S-9][H-5] hub verify --agent of a planted lock never lists or hashes a folder a link points at", async () => {
  const w = world();
  const outside = makeTree({ "id_rsa": "key\n", "inner/secret_name.pem": "s\n" });
  try {
    Deno.mkdirSync(`${w.claude}/.hub`);
    Deno.writeTextFileSync(
      `${w.claude}/.hub/lock.json`,
      JSON.stringify({
        version: 1,
        installed: {
          x: { install_path: "cat/inner", content_hash: "sha256:0", files: {} },
          y: { install_path: "direct", content_hash: "sha256:0", files: {} },
        },
      }),
    );
    Deno.symlinkSync(outside, `${w.claude}/cat`);
    Deno.symlinkSync(outside, `${w.claude}/direct`);
    const before = snapshot(w.user);
    const r = await run(w.user, w.home, ["hub", "verify", "--agent", "claude"]);
    equal(r.code, 1, r.stderr);
    equal(r.stdout, "x: missing\ny: missing\n");
    equal(snapshot(w.user), before);
  } finally {
    removeTrees(w.user, outside);
  }
});
