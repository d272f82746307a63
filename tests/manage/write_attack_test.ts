/**
 * Attacks on writes, through the real CLI ([U-1], [X-6], [X-7], [S-9], [SY-1], [U-2],
 * [HUB-1]): a canary outside the home must come out unchanged and unread, and the
 * legitimate case next to each attack still works.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { git } from "../hub/git_helpers.ts";
import {
  cli,
  cliJson,
  makeCanary,
  makeTree,
  removeTrees,
  REPO,
  skill,
  snapshot,
} from "../helpers.ts";

const EXT_CONFIG = "skills:\n  external_dirs: [ext]\n";

function assertNoLeak(secret: string, ...outputs: { stdout: string; stderr: string }[]): void {
  for (const o of outputs) ok(!(o.stdout + o.stderr).includes(secret), "the canary leaked");
}

Deno.test("[U-1][X-6] view counts uses only in <home>/skills/.usage.json, never through a planted link", async () => {
  const canary = makeCanary();
  const home = makeTree({
    "skills/own/SKILL.md": skill("own", "Own."),
    "ext/theirs/SKILL.md": skill("theirs", "Cloned."),
    "config.yaml": EXT_CONFIG,
  });
  try {
    // A cloned repository ships counter files as links to a file of the user's.
    Deno.symlinkSync(canary.file, `${home}/ext/.usage.json.tmp`);
    Deno.symlinkSync(canary.file, `${home}/ext/.usage.json`);
    // A leftover temp file in the home is a link too (planted, or a crash's leftover).
    Deno.symlinkSync(canary.file, `${home}/skills/.usage.json.tmp`);
    const ext = snapshot(`${home}/ext`);
    for (const name of ["theirs", "own", "theirs"]) {
      const r = await cli(["--home", home, "view", name]);
      equal(r.code, 0, r.stderr);
      assertNoLeak(canary.secret, r);
    }
    equal(Deno.readTextFileSync(canary.file), `${canary.secret}\n`);
    equal(snapshot(`${home}/ext`), ext, "an external root was written");
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.theirs.view_count, usage.own.view_count], [2, 1]);
    equal(Deno.lstatSync(`${home}/skills/.usage.json`).isFile, true);
  } finally {
    removeTrees(canary.dir, home);
  }
});

Deno.test("[S-9][SY-1] sync --from refuses a skill linked out of the source and a destination linked out of the root", async () => {
  const canary = makeCanary();
  const outsideSkill = makeTree({ "SKILL.md": skill("evil", "Evil."), "x.txt": canary.secret });
  const from = makeTree({ "good/SKILL.md": skill("good", "Good.") });
  const home = makeTree({ "skills/.keep": "" });
  try {
    Deno.symlinkSync(outsideSkill, `${from}/evil`);
    const before = snapshot(`${home}/skills`);
    const r = await cliJson(["--home", home, "sync", "--from", from]);
    equal(r.code, 1);
    equal(
      r.json.error,
      `Refusing to sync from '${from}': 'evil' is a symbolic link that leaves it.`,
    );
    equal(snapshot(`${home}/skills`), before);
    Deno.removeSync(`${from}/evil`);
    // The destination is a link of the user's home to a folder elsewhere: not written through.
    Deno.symlinkSync(canary.dir, `${home}/skills/good`);
    const canaryBefore = snapshot(canary.dir);
    const through = await cliJson(["--home", home, "sync", "--from", from]);
    equal(through.code, 1);
    match(String(through.json.error), /^Refusing to write through a symbolic link: '.*good'\.$/);
    equal(snapshot(canary.dir), canaryBefore);
    // The legitimate case: the same sync into a plain home copies the skill.
    Deno.removeSync(`${home}/skills/good`);
    const ok1 = await cliJson(["--home", home, "sync", "--from", from]);
    equal(ok1.code, 0, ok1.stderr);
    deepEqual(ok1.json.copied, ["good"]);
  } finally {
    removeTrees(canary.dir, outsideSkill, from, home);
  }
});

Deno.test("[U-1][U-2] curator restore honours origin_path only inside the local root", async () => {
  const canary = makeCanary();
  const home = makeTree({ "skills/.archive/gone/SKILL.md": skill("gone", "Archived.") });
  try {
    const origin = `../../..${canary.dir}/restored`;
    Deno.writeTextFileSync(
      `${home}/skills/.usage.json`,
      JSON.stringify({ gone: { state: "archived", origin_path: origin } }),
    );
    const before = snapshot(home);
    const r = await cliJson(["--home", home, "curator", "restore", "gone"]);
    equal(r.code, 1);
    equal(
      r.json.error,
      `Cannot restore 'gone': its recorded origin '${origin}' is not a path inside the skills folder.`,
    );
    equal(snapshot(home), before);
    deepEqual([...Deno.readDirSync(canary.dir)].map((e) => e.name), ["canary.txt"]);
    // A plain origin inside the root is honoured, category included.
    Deno.writeTextFileSync(
      `${home}/skills/.usage.json`,
      JSON.stringify({ gone: { state: "archived", origin_path: "cat/gone" } }),
    );
    const good = await cliJson(["--home", home, "curator", "restore", "gone"]);
    equal(good.code, 0, good.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/cat/gone/SKILL.md`), skill("gone", "Archived."));
  } finally {
    removeTrees(canary.dir, home);
  }
});

Deno.test("[S-9][HUB-1] a git //subpath that is a link cannot copy a local folder into the install", async () => {
  const canary = makeCanary();
  Deno.writeTextFileSync(`${canary.dir}/SKILL.md`, skill("loot", canary.secret));
  const repo = makeTree({ "real/SKILL.md": skill("real", "Real.") });
  const home = makeTree({ "skills/.keep": "" });
  try {
    Deno.symlinkSync(canary.dir, `${repo}/loot`);
    Deno.symlinkSync(`${canary.dir}/SKILL.md`, `${repo}/real/linked.md`);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "v1");
    const before = snapshot(`${home}/skills`);
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `git+file://${repo}//loot`,
      "--yes",
    ]);
    equal(r.code, 1);
    equal(
      r.json.error,
      "Refusing to install: 'loot' passes through a symbolic link in the repository.",
    );
    assertNoLeak(canary.secret, r);
    equal(snapshot(`${home}/skills`, /\/\.hub/), before);
    // A file linked out of the skill refuses the install too; a plain skill installs.
    const linked = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `git+file://${repo}//real`,
      "--yes",
    ]);
    equal(linked.code, 1);
    equal(linked.json.error, "Refusing to install: 'linked.md' is a symbolic link.");
    Deno.removeSync(`${repo}/real/linked.md`);
    git(repo, "commit", "-q", "-am", "v2");
    const good = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `git+file://${repo}//real`,
      "--yes",
    ]);
    equal(good.code, 0, good.stderr);
  } finally {
    removeTrees(canary.dir, repo, home);
  }
});

Deno.test("[X-7] file names with control characters are refused by write-file and by hub installs", async () => {
  const home = makeTree({ "skills/demo/SKILL.md": skill("demo", "Demo.") });
  const work = makeTree({ "content.md": "# A\n" });
  try {
    const before = snapshot(home, /\/\.hub/);
    for (const name of ["references/a\nb.md", "references/a\x1b[2Jb.md", "references/a\x7fb.md"]) {
      const r = await cliJson([
        "--home",
        home,
        "write-file",
        "demo",
        name,
        "--file",
        `${work}/content.md`,
      ]);
      equal(r.code, 1);
      match(
        String(r.json.error),
        /^Refusing the file name '.*\\x(0a|1b|7f).*': names may not contain control characters\.$/,
      );
    }
    equal(snapshot(home), before);
    const archive = `${work}/packed.tar.gz`;
    const made = new Deno.Command("python3", {
      args: [`${REPO}/tests/fixtures/make_archive.py`, "control-name", archive],
    }).outputSync();
    equal(made.success, true);
    const r = await cliJson(["--home", home, "hub", "install", archive, "--yes"]);
    equal(r.code, 1);
    equal(
      r.json.error,
      "Refusing the archive: entry 'packed/references/a\\x1b]0;pwned\\x07\\x0ab.md' has a control character in its name.",
    );
    equal(snapshot(home, /\/\.hub/), before);
    const good = await cliJson([
      "--home",
      home,
      "write-file",
      "demo",
      "references/ok.md",
      "--file",
      `${work}/content.md`,
    ]);
    equal(good.code, 0, good.stderr);
  } finally {
    removeTrees(home, work);
  }
});

Deno.test("[X-7] text output shows control characters from skill content; --json keeps them escaped", async () => {
  const title = "\x1b]0;pwned\x07";
  const clear = "\x1b[2J\x1b[H";
  const clip = "\x1b]52;c;ZXZpbA==\x07";
  const home = makeTree({
    "skills/esc/SKILL.md": skill(
      "esc",
      `Title ${title} here`,
      "",
      `# Esc\n\n${clear}${clip}bell\x07 cr\rX\ttab\n`,
    ),
  });
  try {
    const list = await cli(["--home", home, "list"]);
    equal(list.code, 0);
    ok(!list.stdout.includes("\x1b") && !list.stdout.includes("\x07"));
    ok(list.stdout.includes("Title ^[]0;pwned^G here"), list.stdout);
    const view = await cli(["--home", home, "view", "esc"]);
    equal(view.code, 0, view.stderr);
    ok(view.stdout.includes("^[[2J^[[H^[]52;c;ZXZpbA==^Gbell^G cr^MX\ttab\n"), view.stdout);
    // deno-lint-ignore no-control-regex
    ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(view.stdout + view.stderr));
    const json = await cliJson(["--home", home, "view", "esc"]);
    ok(String(json.json.content).includes(`${clear}${clip}bell\x07`));
  } finally {
    removeTrees(home);
  }
});
