import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { configParses, loadConfig, parseBool, parseConfig } from "../../src/home/config.ts";
import { expandPath, type HostFacts } from "../../src/home/host.ts";
import { findProjectRoot, resolveHome, resolveHomeLayout } from "../../src/home/layout.ts";
import { SkillrtError } from "../../src/errors.ts";
import { cli, makeCanary, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

const host = (cwd: string, user_home = "/nonexistent-home"): HostFacts =>
  testHost(cwd, { userHome: user_home });

Deno.test("[H-2] defaults, booleans in every spelling, timeout minimum", () => {
  const { config, problems } = parseConfig(
    "skills:\n  inline_shell: yes\n  template_vars: off\n  write_approval: 1\n  project_discovery: 'no'\n  inline_shell_timeout: 0\n",
  );
  equal(config.inline_shell, true);
  equal(config.template_vars, false);
  equal(config.write_approval, true);
  equal(config.project_discovery, false);
  equal(config.inline_shell_timeout, 10);
  equal(
    problems[0].message,
    "'skills.inline_shell_timeout' must be a number of at least 1; the default is used.",
  );
  deepEqual(parseConfig("").config.inline_shell_allow, ["date", "echo", "printf", "uname"]);
  equal(parseBool("ON"), true);
  equal(parseBool("maybe"), undefined);
});

Deno.test("[H-2] external_dirs as a string or a list; wrong types are problems, not silent", () => {
  deepEqual(parseConfig("skills:\n  external_dirs: ~/x\n").config.external_dirs, ["~/x"]);
  deepEqual(parseConfig("skills:\n  external_dirs: [a, b]\n").config.external_dirs, ["a", "b"]);
  const bad = parseConfig("skills:\n  disabled: {a: 1}\n");
  deepEqual(bad.config.disabled, []);
  equal(bad.problems[0].code, "config.type");
});

Deno.test("[H-2] a config.yaml that does not parse is an error naming the file and line", () => {
  throws(
    () => parseConfig("skills:\n  disabled: [a\n  x: : :\n", "/h/config.yaml"),
    (e: unknown) => {
      ok(e instanceof SkillrtError);
      ok(/^Config file '\/h\/config\.yaml:\d+' does not parse: /.test(e.message), e.message);
      return true;
    },
  );
});

Deno.test("[H-3] the parse is cached by file identity and callers get copies", () => {
  const home = makeTree({ "config.yaml": "skills:\n  disabled: [a]\n" });
  const parsed = configParses();
  const a = loadConfig(`${home}/config.yaml`);
  equal(configParses(), parsed + 1, "the first load parses");
  a.config.disabled.push("mutated");
  deepEqual(loadConfig(`${home}/config.yaml`).config.disabled, ["a"]);
  equal(configParses(), parsed + 1, "the second load of the unchanged file is a cache hit");
  Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  disabled: [a, bb]\n");
  deepEqual(loadConfig(`${home}/config.yaml`).config.disabled, ["a", "bb"]);
  equal(configParses(), parsed + 2, "a changed file is parsed again");
  equal(loadConfig(`${home}/missing.yaml`).exists, false);
});

Deno.test("[H-1] home: --home, else $HERMES_HOME, else ~/.hermes", () => {
  const h = host("/work", "/users/me");
  equal(resolveHome("rel", () => undefined, h), "/work/rel");
  equal(resolveHome(undefined, (n) => (n === "HERMES_HOME" ? "/hh" : undefined), h), "/hh");
  equal(resolveHome(undefined, () => undefined, h), "/users/me/.hermes");
  equal(resolveHome("~/x", () => undefined, h), "/users/me/x");
});

Deno.test("[H-3] expandPath: ~, ${VAR}, $VAR; unset left as written", () => {
  const env = (n: string) => ({ A: "/a", B: "b" } as Record<string, string>)[n];
  equal(expandPath("${A}/$B/$C/x", env, "/u"), "/a/b/$C/x");
  equal(expandPath("~/s", env, "/u"), "/u/s");
});

Deno.test("[H-3] external dirs: relative to home, real paths, duplicates and the local root dropped, missing skipped", () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "ext/b/SKILL.md": skill("b", "B"),
    "config.yaml": "skills:\n  external_dirs: [ext, ./ext, skills, missing, '${EXT_DIR}']\n",
  });
  Deno.symlinkSync(`${home}/ext`, `${home}/ext-link`);
  const setup = resolveHomeLayout({
    home,
    host: host(home),
    env: (n) => (n === "EXT_DIR" ? `${home}/ext-link` : undefined),
  });
  const real = Deno.realPathSync(home);
  deepEqual(setup.roots, [{ path: `${real}/skills`, source: "local" }, {
    path: `${real}/ext`,
    source: "external",
  }]);
  equal(setup.problems.filter((p) => p.code === "root.missing").length, 1);
  ok(setup.problems[0].message.includes("'missing'"));
});

Deno.test("[H-4][S-1] project skills only from a trusted project root, and never from the user's home", () => {
  const tree = makeTree({
    "proj/.git/HEAD": "ref: main\n",
    "proj/.hermes/skills/p/SKILL.md": skill("p", "P"),
    "proj/.agents/skills/q/SKILL.md": skill("q", "Q"),
    "proj/sub/deep/.keep": "",
    "home/skills/a/SKILL.md": skill("a", "A"),
  });
  const real = Deno.realPathSync(tree);
  const untrusted = resolveHomeLayout({
    home: `${tree}/home`,
    host: host(`${tree}/proj/sub/deep`),
  });
  equal(untrusted.projectRoot, `${real}/proj`);
  deepEqual(untrusted.roots.map((r) => r.source), ["local"]);
  Deno.writeTextFileSync(
    `${tree}/home/config.yaml`,
    `skills:\n  trusted_project_dirs: ['${tree}/proj']\n`,
  );
  const trusted = resolveHomeLayout({ home: `${tree}/home`, host: host(`${tree}/proj/sub/deep`) });
  // [S-1] amended: the local root first, then the trusted project's roots.
  deepEqual(trusted.roots.map((r) => [r.source, r.path]), [
    ["local", `${real}/home/skills`],
    ["project", `${real}/proj/.hermes/skills`],
    ["project", `${real}/proj/.agents/skills`],
  ]);
  Deno.writeTextFileSync(
    `${tree}/home/config.yaml`,
    `skills:\n  trusted_project_dirs: ['${tree}/proj']\n  project_discovery: false\n`,
  );
  deepEqual(
    resolveHomeLayout({ home: `${tree}/home`, host: host(`${tree}/proj`) }).roots.map((r) =>
      r.source
    ),
    ["local"],
  );
  equal(findProjectRoot(`${tree}/proj/sub`, `${tree}/proj`), null);
});

Deno.test("[H-2][HUB-1] skills.hub.indexes: a URL or a list of URLs; anything else is a problem", () => {
  deepEqual(
    parseConfig("skills:\n  hub:\n    indexes: [https://a.test, https://b.test]\n").config.hub
      .indexes,
    ["https://a.test", "https://b.test"],
  );
  const bad = parseConfig("skills:\n  hub:\n    indexes: 12\n", "/h/config.yaml");
  equal(bad.config.hub.indexes, undefined);
  deepEqual(bad.problems.map((p) => [p.code, p.message]), [[
    "config.type",
    "'skills.hub.indexes' must be a URL or a list of URLs; the default is used.",
  ]]);
});

Deno.test("[T-2] skills.hub.trusted_keys: label → ed25519 key line; bad entries dropped with a diagnostic", () => {
  const good = `ed25519:${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
  const ok1 = parseConfig(`skills:\n  hub:\n    trusted_keys:\n      team: "${good}"\n`);
  deepEqual(ok1.config.hub.trusted_keys, { team: good });
  deepEqual(ok1.problems, []);
  const bad = parseConfig(
    `skills:\n  hub:\n    trusted_keys:\n      team: "${good}"\n      other: "rsa:abc"\n`,
  );
  deepEqual(bad.config.hub.trusted_keys, { team: good });
  deepEqual(bad.problems.map((p) => p.message), [
    "'skills.hub.trusted_keys' must be a mapping of label to an 'ed25519:<base64>' key line; the default is used.",
  ]);
  const list = parseConfig(`skills:\n  hub:\n    trusted_keys: ["${good}"]\n`);
  deepEqual(list.config.hub.trusted_keys, {});
  equal(list.problems.length, 1);
});

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
