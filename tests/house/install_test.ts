/**
 * [C-6] `deno task install` puts a `skillrt` command on PATH that runs from any folder with
 * the warden's flags, and relative paths are the user's — also under `deno task`, which
 * runs in the project folder (`INIT_CWD`).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { userCwd } from "../../src/home/host.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { installArgs, installedNote } from "../../scripts/install.ts";
import { childEnv } from "../child_env.ts";
import { makeTree, removeTrees, REPO, skill } from "../helpers.ts";

const dec = new TextDecoder();

/**
 * Runs a program with only what Deno needs (its cache, certificates, PATH), HOME and `env`
 * (no INIT_CWD of the test run's own `deno task`).
 */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = new Deno.Command(cmd, {
    args,
    cwd,
    env: childEnv({ HOME: Deno.env.get("HOME") ?? cwd, ...env }),
    clearEnv: true,
    stdin: "null",
  }).outputSync();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * `deno install --global` resolves the npm packages afresh (not from deno.lock), so it asks
 * the registry even when everything is cached: without the registry the test is ignored,
 * saying why.
 */
async function registryUnreachable(): Promise<string> {
  const registry = Deno.env.get("NPM_CONFIG_REGISTRY") ?? "https://registry.npmjs.org/";
  try {
    const r = await fetch(registry, { method: "HEAD", signal: AbortSignal.timeout(10_000) });
    await r.body?.cancel();
    return "";
  } catch (error) {
    return ` (ignored: deno install --global needs the npm registry ${registry}: ${error})`;
  }
}
const offline = await registryUnreachable();

Deno.test({
  name:
    `[C-6] deno task install: a skillrt command on PATH, relative paths resolved where the user is${offline}`,
  ignore: offline !== "",
}, () => {
  const root = makeTree({});
  const work = makeTree({ "SKILL.md": skill("from-here", "Made from a relative path.") });
  try {
    const installed = run(Deno.execPath(), ["task", "-q", "install", "--root", root], REPO);
    equal(installed.code, 0, installed.stderr);
    const bin = `${root}/bin/skillrt`;
    equal(installed.stdout, `${installedNote(root, Deno.env.get("PATH") ?? "")}\n`);
    const script = Deno.readTextFileSync(bin);
    for (const flag of [...WARDEN_FLAGS, "--unstable-worker-options"]) {
      ok(script.includes(flag), `${flag} missing from ${script}`);
    }
    Deno.mkdirSync(`${work}/home`);
    const env = { PATH: `${root}/bin:${Deno.env.get("PATH")}`, NO_COLOR: "1" };
    const made = run(
      "skillrt",
      ["--home", "home", "create", "from-here", "--file", "SKILL.md"],
      work,
      env,
    );
    equal(made.code, 0, made.stderr);
    equal(
      Deno.readTextFileSync(`${work}/home/skills/from-here/SKILL.md`),
      skill("from-here", "Made from a relative path."),
    );
    const listed = run("skillrt", ["--home", "home", "list", "--json"], work, env);
    deepEqual(JSON.parse(listed.stdout).skills.map((s: { name: string }) => s.name), ["from-here"]);
    const gone = run(Deno.execPath(), ["task", "-q", "uninstall", "--root", root], REPO);
    equal(gone.code, 0, gone.stderr);
    deepEqual([...Deno.readDirSync(`${root}/bin`)].map((e) => e.name), []);
    const again = run(Deno.execPath(), ["task", "-q", "uninstall", "--root", root], REPO);
    equal(again.code, 1);
    equal(again.stderr, "skillrt is not installed here: nothing to uninstall.\n");
  } finally {
    removeTrees(root, work);
  }
});

Deno.test("[C-6] deno task skillrt: relative paths are the user's folder (INIT_CWD), not the project's", () => {
  const work = makeTree({ "home/skills/here/SKILL.md": skill("here", "Found relative.") });
  try {
    const r = run(
      Deno.execPath(),
      [
        "task",
        "-q",
        "--config",
        `${REPO}/deno.json`,
        "skillrt",
        "--home",
        "home",
        "list",
        "--json",
      ],
      work,
      { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
    );
    equal(r.code, 0, r.stderr);
    deepEqual(JSON.parse(r.stdout).skills.map((s: { name: string }) => s.name), ["here"]);
    // INIT_CWD counts only when running in the project folder: elsewhere it is stale.
    equal(userCwd(work, "/no/such/project"), Deno.cwd());
    equal(userCwd(work, Deno.cwd()), work);
    deepEqual(installArgs("/r").slice(-2), ["--unstable-worker-options", "/r/main.ts"]);
  } finally {
    removeTrees(work);
  }
});

Deno.test("[C-6] deno task install says where the command is, and how to put it on PATH when it is not", () => {
  equal(installedNote("/r", "/usr/bin:/r/bin/"), "Installed /r/bin/skillrt. Try: skillrt --help");
  equal(
    installedNote("/home/u/.deno/", "/usr/bin:/r/bin"),
    "Installed /home/u/.deno/bin/skillrt.\n" +
      '/home/u/.deno/bin is not on your PATH; add it: export PATH="/home/u/.deno/bin:$PATH"',
  );
});
