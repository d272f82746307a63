/**
 * Write grants are exact targets: never `/`, the user's home, the skillrt home or a
 * folder above a root — on fresh homes, populated homes, and homes with unreadable or
 * linked folders; the warden refuses a plan that breaks the rule (exit 3).
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { planOf } from "../../src/cli/planning.ts";
import type { CommandRequest } from "../../src/worker/request.ts";
import { isInside, realPathOrUndefined } from "../../src/home/paths.ts";
import { type HomeLayout, resolveHomeLayout } from "../../src/home/layout.ts";
import { checkWrites, unsafeWrite, writeFence } from "../../src/warden/write_guard.ts";
import {
  cli,
  cliJson,
  makeTree,
  removeTrees,
  skill,
  tempDir,
  testHost,
  usageGrant,
} from "../helpers.ts";

const SKILL = skill("demo", "A demo skill.");

/** Every writing command line worth planning, for a home holding skill `demo`. */
function writingLines(from: string): string[][] {
  return [
    ["create", "fresh", "--category", "newcat"],
    ["create", "fresh2"],
    ["edit", "demo"],
    ["patch", "demo", "--old", "Do the thing.", "--new", "Do it."],
    ["delete", "demo"],
    ["write-file", "demo", "references/a.md"],
    ["remove-file", "demo", "references/a.md"],
    ["sync", "--from", from],
    ["curator", "run"],
    ["curator", "pin", "demo"],
    ["curator", "restore", "demo"],
    ["hub", "install", from + "/upstream"],
    ["hub", "uninstall", "demo"],
    ["hub", "update"],
  ];
}

function assertFenced(writes: string[], setup: HomeLayout, where: string): void {
  const roots = [setup.localRoot, ...setup.roots.map((r) => r.path)];
  for (const w of writes) {
    ok(w !== "/", `${where}: grants /`);
    ok(w !== setup.host.userHome, `${where}: grants the user's home`);
    ok(w !== setup.home, `${where}: grants the skillrt home`);
    for (const root of roots) ok(w === root || !isInside(w, root), `${where}: ${w} holds ${root}`);
    ok(isInside(setup.home, w) || roots.some((r) => isInside(r, w)), `${where}: ${w} outside`);
  }
}

Deno.test("[X-6] the fence: /, the user's home, the skillrt home and folders above a root are refused", () => {
  const setup = resolveHomeLayout({
    home: "/u/me/.hermes",
    host: testHost("/u/me", { userHome: "/u/me" }),
  });
  const fence = writeFence(setup, () => undefined);
  const cases: [string, string | undefined][] = [
    ["/", "no command may write it as a whole"],
    ["/u/me", "no command may write it as a whole"],
    ["/u/me/.hermes", "no command may write it as a whole"],
    ["/u", "no command may write it as a whole"],
    ["/u/me/.hermes/skills", undefined],
    ["/u/me/.hermes/skills/x", undefined],
    ["/u/me/.hermes/pending/skills", undefined],
    [
      "/u/me/elsewhere",
      "it is outside the home, every skills folder and every output named on the command line",
    ],
    ["/u/me/.hermes/skills/../../x", "it is not an absolute, normal path"],
    ["relative/x", "it is not an absolute, normal path"],
  ];
  // "/u" is above the local root: the forbidden list does not hold it, the root rule does.
  cases[3][1] = "it contains the skills folder '/u/me/.hermes/skills'";
  for (const [path, why] of cases) equal(unsafeWrite(path, fence), why, path);
  try {
    checkWrites("sync", ["/"], setup, () => undefined);
    ok(false, "a plan writing / was accepted");
  } catch (error) {
    equal((error as { exitCode: number }).exitCode, 3);
    match((error as Error).message, /Refusing the sandbox plan of 'sync'.*'\/'/);
  }
});

Deno.test("[X-6][T-1] an output named on the command line is admitted, never /, the user's home, the home or above them", () => {
  const setup = resolveHomeLayout({
    home: "/u/me/.hermes",
    host: testHost("/u/me", { userHome: "/u/me" }),
  });
  const outputs = ["/u/me/site", "/", "/u/me", "/u", "/u/me/.hermes", "/srv/site"];
  const fence = writeFence(setup, () => undefined, outputs);
  deepEqual(fence.outputs, ["/u/me/site", "/srv/site"]);
  equal(unsafeWrite("/u/me/site", fence), undefined);
  equal(unsafeWrite("/u/me/site/.well-known/x", fence), undefined);
  equal(unsafeWrite("/srv/site", fence), undefined);
  equal(
    unsafeWrite("/u/me/other", fence),
    "it is outside the home, every skills folder and every output named on the command line",
  );
  // A named output that really is a link to the user's home is refused as that.
  const linked = writeFence(setup, (p) => (p === "/srv/site" ? "/u/me" : undefined), outputs);
  deepEqual(linked.outputs, ["/u/me/site"]);
  for (const bad of ["/", "/u/me", "/u"]) {
    throws(
      () => checkWrites("hub", [bad], setup, () => undefined, { outputs: [bad] }),
      /Refusing the sandbox plan of 'hub'/,
    );
  }
});

Deno.test("[X-6] every writing command, fresh and populated home: the exact grant stays inside the home", async () => {
  const user = makeTree({ "upstream-src/keep": "" });
  const from = makeTree({ "upstream/SKILL.md": skill("upstream", "Up."), "b/SKILL.md": SKILL });
  const fresh = `${user}/fresh-home`; // does not exist: the default-home case, via HERMES_HOME
  const populated = makeTree({ "skills/cat/demo/SKILL.md": SKILL });
  try {
    for (const home of [fresh, populated]) {
      for (const line of writingLines(from)) {
        const r = await cliJson(["sandbox", ...line], {
          env: { HERMES_HOME: home, HOME: user },
          cwd: user,
        });
        if (r.code !== 0) {
          // Refusals of the command itself (no such skill) are fine; a grant never is.
          ok(!("plan" in r.json), `${line.join(" ")}: ${r.stdout}`);
          continue;
        }
        const setup = resolveHomeLayout({ home, host: testHost(user, { userHome: user }) });
        assertFenced((r.json.plan as { write: string[] }).write, setup, `${home}: ${line[0]}`);
      }
    }
    // `sandbox` only plans: the fresh home was not created by it.
    equal(realPathOrUndefined(fresh), undefined);
    // The create on a fresh default home writes exactly the new skill's folder.
    const r = await cliJson(["sandbox", "create", "fresh", "--category", "c"], {
      env: { HERMES_HOME: fresh, HOME: user },
    });
    ok((r.json.plan as { write: string[] }).write.includes(`${fresh}/skills/c`));
  } finally {
    removeTrees(user, from, populated);
  }
});

Deno.test("[X-6] property: random writing commands over random home states never grant above the home", async () => {
  const user = makeTree({ "upstream/SKILL.md": skill("upstream", "Up.") });
  const homes: string[] = [];
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          skills: fc.boolean(),
          category: fc.constantFrom("none", "dir", "unreadable", "link-out"),
          demo: fc.boolean(),
          external: fc.boolean(),
          line: fc.integer({ min: 0, max: writingLines("").length - 1 }),
        }),
        async (state) => {
          const home = Deno.makeTempDirSync({ dir: user, prefix: "home-" });
          homes.push(home);
          if (state.skills) Deno.mkdirSync(`${home}/skills`);
          if (state.skills && state.category === "dir") Deno.mkdirSync(`${home}/skills/cat`);
          if (state.skills && state.category === "unreadable") {
            Deno.mkdirSync(`${home}/skills/cat`, { mode: 0o000 });
          }
          if (state.skills && state.category === "link-out") {
            Deno.symlinkSync(user, `${home}/skills/cat`);
          }
          if (state.skills && state.demo) {
            makeTree({ "skills/demo/SKILL.md": SKILL }, home);
          }
          if (state.external) {
            makeTree({
              "ext/x/SKILL.md": skill("x", "X."),
              "config.yaml": "skills:\n  external_dirs: [ext]\n",
            }, home);
          }
          const [command, ...args] = writingLines(user)[state.line];
          const setup = resolveHomeLayout({ home, host: testHost(user, { userHome: user }) });
          const request: CommandRequest = {
            command,
            args: args.filter((a) => !a.startsWith("--")),
            options: optionsOf(args),
            global: { json: true, color: false },
          };
          const where = `${JSON.stringify(state)} ${command}`;
          let planned;
          try {
            planned = await planOf(request, setup);
          } catch (error) {
            // The fence may refuse only what a link out of the home made hostile.
            equal(state.category, "link-out", `${where}: ${error}`);
            equal((error as { exitCode?: number }).exitCode, 3, String(error));
            return;
          }
          if ("plan" in planned) assertFenced(planned.plan.write, setup, where);
          else equal(planned.outcome.exitCode, 1, `${where}: ${planned.outcome.stderr}`);
        },
      ),
      { numRuns: 60 },
    );
  } finally {
    for (const h of homes) {
      try {
        Deno.chmodSync(`${h}/skills/cat`, 0o755);
      } catch {
        // Not made unreadable.
      }
    }
    removeTrees(user);
  }
});

function optionsOf(args: string[]): Record<string, string | boolean> {
  const options: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith("--")) continue;
    const key = args[i].slice(2).replace(/-(\w)/g, (_, c) => c.toUpperCase());
    const value = args[i + 1];
    if (value !== undefined && !value.startsWith("--")) {
      options[key] = value;
      i++;
    } else options[key] = true;
  }
  if (!("content" in options)) options.content = SKILL;
  return options;
}

Deno.test("[H-1][X-6] an explicit --home that does not exist: writing commands refuse with a hint and make nothing", async () => {
  const parent = makeTree({});
  try {
    const home = `${parent}/typo`;
    const file = `${parent}/SKILL.md`;
    Deno.writeTextFileSync(file, skill("x", "X."));
    const r = await cliJson(["--home", home, "create", "x", "--file", file]);
    equal(r.code, 1);
    equal(r.json.error, `The home '${home}' does not exist; nothing was written.`);
    match(String(r.json.hint), /Create it first/);
    equal(realPathOrUndefined(home), undefined);
    // The default home (HERMES_HOME here) is created on the first write, as Hermes does.
    const bad = await cli(["create", "x"], { env: { HERMES_HOME: home } }); // no content
    deepEqual([bad.code, realPathOrUndefined(home)], [1, undefined]);
    const made = await cli(["create", "x", "--file", file], { env: { HERMES_HOME: home } });
    equal(made.code, 0, made.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/x/SKILL.md`), skill("x", "X."));
  } finally {
    removeTrees(parent);
  }
});

Deno.test("[X-3][X-6] sandbox shows the exact grant of commands with options of their own (sync --from, curator run --dry-run, -- hub install … --name)", async () => {
  const home = makeTree({ "skills/.keep": "" });
  const from = makeTree({ "a/SKILL.md": skill("a", "A."), "b/c/SKILL.md": skill("c", "C.") });
  try {
    const sync = await cliJson(["--home", home, "sandbox", "sync", "--from", from]);
    equal(sync.code, 0, sync.stderr);
    deepEqual((sync.json.plan as { write: string[] }).write, [
      `${home}/skills/.bundled_folders`,
      `${home}/skills/.bundled_folders.tmp`,
      `${home}/skills/.bundled_manifest`,
      `${home}/skills/.bundled_manifest.lock`,
      `${home}/skills/.bundled_manifest.lock.break`,
      `${home}/skills/.bundled_manifest.tmp`,
      `${home}/skills/a`,
      `${home}/skills/b`,
    ]);
    const dry = await cliJson(["--home", home, "sandbox", "curator", "run", "--dry-run"]);
    deepEqual((dry.json.plan as { write: string[] }).write, []);
    const named = await cliJson([
      "--home",
      home,
      "sandbox",
      "--",
      "hub",
      "install",
      `${from}/a`,
      "--name",
      "baz",
    ]);
    deepEqual(
      (named.json.plan as { write: string[] }).write,
      [
        `${home}/skills/.hub`,
        ...usageGrant(home),
        `${home}/skills/baz`,
      ].sort(),
    );
  } finally {
    removeTrees(home, from);
  }
});

Deno.test("[X-3][X-6][T-4] hub install --from-lock grants each skill's folder by the lock's names and its sources' hosts and programs; hub lock export --out the file and its temporary file only", async () => {
  const home = makeTree({ "skills/.keep": "" });
  const work = tempDir();
  const hash = `sha256:${"a".repeat(64)}`;
  const entry = (source: string, extra = {}) => ({
    source,
    content_hash: hash,
    trust_level: "community",
    ...extra,
  });
  Deno.writeTextFileSync(
    `${work}/team.lock.json`,
    JSON.stringify({
      $schema: "urn:skillrt:hub-lock:v1",
      version: 1,
      skills: {
        tool: entry("git+https://git.example.test/t.git", { ref: "a".repeat(40), category: "dev" }),
        web: entry("https://files.example.test/web.tar.gz"),
      },
    }),
  );
  try {
    const plan = await cliJson(
      ["--home", home, "sandbox", "hub", "install", "--from-lock", "team.lock.json"],
      { cwd: work },
    );
    equal(plan.code, 0, plan.stdout + plan.stderr);
    const p = plan.json.plan as { write: string[]; net: string[]; run: string[]; read: string[] };
    deepEqual(
      p.write,
      [`${home}/skills/.hub`, ...usageGrant(home), `${home}/skills/dev`, `${home}/skills/web`]
        .sort(),
    );
    deepEqual(p.net, ["files.example.test"]);
    deepEqual(p.run, ["git"]);
    ok(p.read.includes(`${work}/team.lock.json`), p.read.join(" "));
    const out = await cliJson(
      ["--home", home, "sandbox", "hub", "lock", "export", "--out", "team.lock.json"],
      { cwd: work },
    );
    deepEqual((out.json.plan as { write: string[] }).write, [
      `${work}/team.lock.json`,
      `${work}/team.lock.json.tmp`,
    ]);
  } finally {
    removeTrees(home, work);
  }
});
