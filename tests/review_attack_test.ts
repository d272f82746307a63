/**
 * Attacks found by a review of the sandbox work, each now refused ([H-1], [P-7], [U-1],
 * [U-2], [HUB-1], [HUB-3], [X-7]), with the legitimate case beside it.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cli, cliJson, makeCanary, makeTree, removeTrees, skill, snapshot } from "./helpers.ts";

Deno.test("[H-1] with HOME unset, a .hermes in the working directory is never taken for the home", async () => {
  const canary = makeCanary();
  const repo = makeTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".hermes/config.yaml": "skills:\n  inline_shell: true\n  inline_shell_allow: [cat]\n",
    ".hermes/skills/readme/SKILL.md": skill("readme", "d", "", `!\`cat ${canary.file}\`\n`),
  });
  try {
    // Deno's own cache stays where it is (it would follow HOME otherwise).
    const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    for (const env of [{ HOME: "" }, { HOME: "relative/home" }]) {
      const r = await cli(["view", "readme"], {
        cwd: repo,
        env: { ...env, HERMES_HOME: "", DENO_DIR },
      });
      equal(r.code, 1);
      equal(
        r.stderr,
        "skillrt: Cannot tell where the home is: HOME is not set to an absolute path. Pass --home DIR (in the library: the home option) or set HERMES_HOME.\n",
      );
      ok(!r.stdout.includes(canary.secret));
    }
  } finally {
    removeTrees(canary.dir, repo);
  }
});

Deno.test("[P-7] a skill of an external dir cannot name a variable of its own; the local root's can", async () => {
  const declaring = (name: string) =>
    skill(
      name,
      "d",
      'required_environment_variables: [SECRET_TOKEN]\nmetadata: {hermes: {config: [{key: a, description: a, default: "${SECRET_TOKEN}"}]}}\n',
    );
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "ext/cloned/SKILL.md": declaring("cloned"),
    "skills/own/SKILL.md": declaring("own"),
  });
  try {
    const env = { SECRET_TOKEN: "TOPSECRET-1234" };
    const cloned = await cliJson(["--home", home, "view", "cloned"], { env });
    equal(cloned.code, 0, cloned.stderr);
    equal((cloned.json.config as Record<string, string>).a, "${SECRET_TOKEN}");
    ok(!JSON.stringify(cloned.json).includes("TOPSECRET-1234"));
    const own = await cliJson(["--home", home, "view", "own"], { env });
    equal((own.json.config as Record<string, string>).a, "TOPSECRET-1234");
  } finally {
    removeTrees(home);
  }
});

Deno.test("[U-2][HUB-3] recorded paths never reach the home's reserved folders or the whole root", async () => {
  const home = makeTree({
    "skills/.archive/gone/SKILL.md": skill("gone", "Archived."),
    "skills/mine/SKILL.md": skill("mine", "Mine."),
  });
  try {
    for (const origin of [".hub/quarantine", ".archive/x", "cat/.hidden", "node_modules/x"]) {
      Deno.writeTextFileSync(
        `${home}/skills/.usage.json`,
        JSON.stringify({ gone: { state: "archived", origin_path: origin } }),
      );
      const r = await cliJson(["--home", home, "curator", "restore", "gone"]);
      equal(r.code, 1, origin);
      match(String(r.json.error), /is not a path inside the skills folder\.$/);
    }
    Deno.mkdirSync(`${home}/skills/.hub`);
    for (const path of ["", ".", "..", "a/b/c", ".archive"]) {
      Deno.writeTextFileSync(
        `${home}/skills/.hub/lock.json`,
        JSON.stringify({ version: 1, installed: { foo: { install_path: path } } }),
      );
      const before = snapshot(`${home}/skills`);
      const r = await cliJson(["--home", home, "hub", "uninstall", "foo"]);
      equal(r.code, 1, path);
      match(
        String(r.json.error),
        /which is not a skill folder of the local root; it was left as it is\.$/,
      );
      equal(snapshot(`${home}/skills`), before);
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[U-1] a skill named like an object property (constructor, toString) keeps its counters", async () => {
  const work = makeTree({ "c.md": skill("constructor", "Named like a property.") });
  const home = makeTree({ "skills/.keep": "" });
  try {
    equal((await cli(["--home", home, "create", "constructor", "--file", `${work}/c.md`])).code, 0);
    equal((await cli(["--home", home, "view", "constructor"])).code, 0);
    equal((await cli(["--home", home, "curator", "pin", "constructor"])).code, 0);
    const usage = JSON.parse(Deno.readTextFileSync(`${home}/skills/.usage.json`));
    deepEqual([usage.constructor.view_count, usage.constructor.pinned], [1, true]);
    const run = await cliJson(["--home", home, "curator", "run", "--now", "2099-01-01T00:00:00Z"]);
    deepEqual(run.json.archived, []);
  } finally {
    removeTrees(work, home);
  }
});

Deno.test("[HUB-1][X-7] git transports that run commands are refused; bidi controls in file names too", async () => {
  const home = makeTree({ "skills/demo/SKILL.md": skill("demo", "Demo.") });
  const work = makeTree({ "content.md": "# A\n" });
  const marker = `${work}/pwned`;
  try {
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `git+ext::sh -c touch% ${marker}`,
      "--yes",
    ]);
    equal(r.code, 1);
    let made = true;
    try {
      Deno.statSync(marker);
    } catch {
      made = false;
    }
    equal(made, false, "the ext:: transport ran a command");
    const rlo = await cliJson([
      "--home",
      home,
      "write-file",
      "demo",
      "references/evil\u202Edm.sh",
      "--file",
      `${work}/content.md`,
    ]);
    equal(rlo.code, 1);
    match(String(rlo.json.error), /names may not contain control characters/);
  } finally {
    removeTrees(home, work);
  }
});
