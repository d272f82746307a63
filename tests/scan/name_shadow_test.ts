/**
 * A stranger's skill cannot shadow the user's own ([S-1], issue 22 item 3): an install
 * that would add a skill answering to a name a skill of any root already answers to —
 * after NFKC and case folding — is refused, naming both, with nothing written; and where
 * such a pair exists already (a home from before), every command serves the user's own.
 * Real archives, a real git repository, a real HTTP server, the real CLI and MCP client.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { indexRecords } from "../../src/scan/skill_index.ts";
import { collisionKey } from "../../src/scan/name_key.ts";
import type { SkillRecord } from "../../src/scan/record.ts";
import {
  assertAbsent,
  cliJson,
  makeTree,
  removeTrees,
  skill,
  snapshot,
  tempDir,
} from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";
import { serveFolder } from "../hub/site_helpers.ts";

const MINE = "The user's own hello.";

/** `hub install ARGS…` in `home`, as JSON. */
const install = (home: string, args: string[]) =>
  cliJson(["--home", home, "hub", "install", ...args]);

/** A home whose local root holds the user's `devops/hello` (and `extra`). */
function userHome(extra: Record<string, string> = {}): string {
  return Deno.realPathSync(makeTree({
    "skills/devops/hello/SKILL.md": skill("hello", MINE, "", "# mine\n\nThe user's steps.\n"),
    ...extra,
  }));
}

/** A `pack.tar.gz` of a collection: folder → declared name, each under `pack/`. */
async function pack(skills: Record<string, string>): Promise<string> {
  const files: Record<string, string> = {};
  for (const [folder, name] of Object.entries(skills)) {
    files[`pack/${folder}/SKILL.md`] = skill(name, "A stranger's skill.", "", "# theirs\n");
  }
  const tree = makeTree(files);
  const tgz = `${tempDir()}/pack.tar.gz`;
  const tar = await new Deno.Command("tar", { args: ["-czf", tgz, "-C", tree, "pack"] }).output();
  equal(tar.success, true);
  removeTrees(tree);
  return tgz;
}

const refusal = (home: string, name = "hello", as = "") =>
  `Refusing to install '${name}': the skill at ${home}/skills/devops/hello already answers to that name${as}; install it under another with --name.`;

/** Everything below the home but the usage counters (a refused install writes nothing else). */
const tree = (home: string) => snapshot(home, /\.usage\.json|\/\.hub\/(lock\.json|audit\.log)/);

async function viewsMine(home: string): Promise<void> {
  const view = await cliJson(["--home", home, "view", "hello"]);
  equal(view.code, 0, view.stderr);
  deepEqual([view.json.path, view.json.description], ["devops/hello", MINE]);
}

Deno.test("[S-1][HUB-8] the attack: a collection's 'hello', fullwidth 'ｈｅｌｌｏ' or 'HELLO' beside the user's devops/hello is refused, nothing written", async () => {
  for (const declared of ["hello", "ｈｅｌｌｏ", "HELLO"]) {
    const home = userHome();
    const tgz = await pack({ x1: declared, other: "other" });
    try {
      const r = await install(home, [tgz, "--all", "--yes"]);
      equal(r.code, 1, r.stderr);
      deepEqual(
        (r.json.installed as { name: string }[]).map((i) => i.name),
        ["other"],
        declared,
      );
      deepEqual(r.json.failed, [
        { name: "hello", path: "pack/x1", blocked: false, error: refusal(home) },
      ]);
      assertAbsent(`${home}/skills/hello`);
      assertAbsent(`${home}/skills/.hub/quarantine/hello`);
      assertAbsent(`${home}/skills/.hub/quarantine`, "the quarantine is removed");
      const lock = JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
      deepEqual(Object.keys(lock.installed), ["other"]);
      await viewsMine(home);
    } finally {
      removeTrees(home, tgz.replace(/\/pack\.tar\.gz$/, ""));
    }
  }
});

Deno.test("[S-1][HUB-8] --name installs it under another name: its SKILL.md answers to that name, the user's keeps 'hello'", async () => {
  const home = userHome();
  const tgz = await pack({ x1: "hello", other: "other" });
  try {
    const r = await install(home, [tgz, "--skill", "hello", "--name", "hello-theirs", "--yes"]);
    equal(r.code, 0, r.stderr);
    const installed = (r.json.installed as Record<string, unknown>[])[0];
    deepEqual([installed.name, installed.declared_name, installed.warnings], [
      "hello-theirs",
      "hello",
      [],
    ]);
    ok(
      Deno.readTextFileSync(`${home}/skills/hello-theirs/SKILL.md`).startsWith(
        "---\nname: hello-theirs\n",
      ),
    );
    const list = await cliJson(["--home", home, "list"]);
    deepEqual((list.json.skills as { name: string }[]).map((s) => s.name).sort(), [
      "hello",
      "hello-theirs",
    ]);
    await viewsMine(home);
  } finally {
    removeTrees(home, tgz.replace(/\/pack\.tar\.gz$/, ""));
  }
});

Deno.test("[S-1] a variant: the user's skill is named in fullwidth letters ('ｈｅｌｌｏ', folder 'greeter'); a git repository's 'hello' is refused", async () => {
  const home = Deno.realPathSync(makeTree({
    "skills/devops/greeter/SKILL.md": skill("ｈｅｌｌｏ", MINE),
  }));
  const repo = makeTree({ "skills/hello/SKILL.md": skill("hello", "From a repository.") });
  for (const args of [["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "v1"]]) {
    const git = await new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@e", ...args],
      cwd: repo,
    }).output();
    equal(git.success, true);
  }
  try {
    const before = tree(home);
    const r = await install(home, [`git+file://${repo}#main//skills/hello`, "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(
      r.json.error,
      `Refusing to install 'hello': the skill at ${home}/skills/devops/greeter already answers to that name (as 'ｈｅｌｌｏ'); install it under another with --name.`,
    );
    equal(tree(home), before);
  } finally {
    removeTrees(home, repo);
  }
});

Deno.test("[S-1] a variant: a skill of an external root already answers to the name; a single local folder is refused", async () => {
  const work = Deno.realPathSync(makeTree({
    "home/skills/.keep": "",
    "ext/tools/hello/SKILL.md": skill("hello", "The external dir's hello."),
    "src/hello/SKILL.md": skill("hello", "A download."),
  }));
  const home = `${work}/home`;
  try {
    Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  external_dirs: [${work}/ext]\n`);
    const before = tree(home);
    const r = await install(home, [`${work}/src/hello`, "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(
      r.json.error,
      `Refusing to install 'hello': the skill at ${work}/ext/tools/hello already answers to that name; install it under another with --name.`,
    );
    equal(tree(home), before);
  } finally {
    removeTrees(work);
  }
});

Deno.test("[S-1][HUB-8] two entries of one collection ('hello', 'HELLO'): --all installs neither; one by path, then the other beside it is refused, --force or not", async () => {
  const home = Deno.realPathSync(makeTree({ "skills/.keep": "" }));
  const tgz = await pack({ a: "hello", b: "HELLO" });
  try {
    const all = await install(home, [tgz, "--all", "--yes"]);
    equal(all.code, 1);
    const why =
      "Not installed: 2 skills of this source are named 'hello' (pack/a, pack/b); choose one by its path.";
    deepEqual(all.json.failed, [
      { name: "hello", path: "pack/a", blocked: false, error: why },
      { name: "hello", path: "pack/b", blocked: false, error: why },
    ]);
    const one = await install(home, [tgz, "--skill", "pack/a", "--yes"]);
    equal(one.code, 0, one.stderr);
    const other = await install(home, [
      tgz,
      "--skill",
      "pack/b",
      "--category",
      "more",
      "--force",
      "--yes",
    ]);
    equal(other.code, 1);
    deepEqual((other.json.failed as { error: string }[]).map((f) => f.error), [
      `Refusing to install 'hello': the skill at ${home}/skills/hello already answers to that name; install it under another with --name.`,
    ]);
    assertAbsent(`${home}/skills/more`);
  } finally {
    removeTrees(home, tgz.replace(/\/pack\.tar\.gz$/, ""));
  }
});

Deno.test("[S-1] a variant: a skill inside the one installed ('innocent/sub/hello') is refused too", async () => {
  const home = userHome();
  const src = Deno.realPathSync(makeTree({
    "innocent/SKILL.md": skill("innocent", "Looks harmless."),
    "innocent/sub/hello/SKILL.md": skill("Hello", "Rides along."),
  }));
  try {
    const before = tree(home);
    const r = await install(home, [`${src}/innocent`, "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(
      r.json.error,
      `Refusing to install 'innocent': the skill 'Hello' inside it (at sub/hello) would share its name with the skill at ${home}/skills/devops/hello (as 'hello').`,
    );
    equal(tree(home), before);
  } finally {
    removeTrees(home, src);
  }
});

Deno.test("[S-1][HUB-8] a variant: in a new home, one --all run: 'hello' after 'alpha' (which holds a 'hello' inside) is refused", async () => {
  const home = Deno.realPathSync(tempDir()); // no skills folder yet: the run makes it
  const tree = makeTree({
    "pack/alpha/SKILL.md": skill("alpha", "Alpha."),
    "pack/alpha/sub/hello/SKILL.md": skill("hello", "Rides along."),
    "pack/hello/SKILL.md": skill("hello", "A stranger's hello."),
  });
  const tgz = `${tempDir()}/pack.tar.gz`;
  const tar = await new Deno.Command("tar", { args: ["-czf", tgz, "-C", tree, "pack"] }).output();
  equal(tar.success, true);
  try {
    const r = await install(home, [tgz, "--all", "--yes"]);
    equal(r.code, 1, r.stderr);
    deepEqual((r.json.installed as { name: string }[]).map((i) => i.name), ["alpha"]);
    deepEqual((r.json.failed as { error: string }[]).map((f) => f.error), [
      `Refusing to install 'hello': the skill at ${home}/skills/alpha/sub/hello already answers to that name; install it under another with --name.`,
    ]);
    assertAbsent(`${home}/skills/hello`);
  } finally {
    removeTrees(home, tree, tgz.replace(/\/pack\.tar\.gz$/, ""));
  }
});

Deno.test("[S-1][HUB-1] a variant: a well-known index's 'hello' (served on 127.0.0.1) is refused", async () => {
  const work = Deno.realPathSync(tempDir());
  const src = makeTree({ "hello/SKILL.md": skill("hello", "Published hello.") });
  const published = await cliJson([
    "--home",
    `${work}/pub`,
    "hub",
    "publish",
    src,
    "--out",
    `${work}/site`,
  ]);
  equal(published.code, 0, published.stderr);
  const served = serveFolder(`${work}/site`);
  const home = userHome();
  try {
    const before = tree(home);
    const url = `${served.base}/.well-known/agent-skills/index.json#hello`;
    const r = await install(home, [url, "--yes"]);
    equal(r.code, 1, r.stderr);
    equal(r.json.error, refusal(home));
    equal(tree(home), before);
  } finally {
    await served.close();
    removeTrees(work, src, home);
  }
});

Deno.test("[S-1][H-5] a variant: hub install --agent claude of a skill named like one of the user's local root is refused, Claude's folder untouched", async () => {
  const user = Deno.realPathSync(makeTree({
    ".hermes/skills/tools/shared/SKILL.md": skill("shared", MINE),
    "src/shared/SKILL.md": skill("Shared", "A download."),
  }));
  const home = `${user}/.hermes`;
  // The CLI's module cache, kept when HOME points at a temp folder.
  const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  try {
    const r = await cliJson(
      ["--home", home, "hub", "install", `${user}/src/shared`, "--agent", "claude", "--yes"],
      { env: { HOME: user, DENO_DIR } },
    );
    equal(r.code, 1, r.stderr);
    equal(
      r.json.error,
      `Refusing to install 'shared': the skill at ${home}/skills/tools/shared already answers to that name; install it under another with --name.`,
    );
    assertAbsent(`${user}/.claude/skills/shared`);
    assertAbsent(`${user}/.claude/skills/.hub/quarantine`);
  } finally {
    removeTrees(user);
  }
});

/**
 * A home from before the fix: the hub put `hello` at the top of the local root (its lock
 * says so) beside the user's `devops/hello` and `tools/greet` (named `greeting`).
 */
function shadowedHome(): string {
  return Deno.realPathSync(makeTree({
    "skills/devops/hello/SKILL.md": skill("hello", MINE, "", "# mine\n\nThe user's steps.\n"),
    "skills/devops/hello/references/notes.md": "# Mine\n",
    "skills/hello/SKILL.md": skill("hello", "A stranger's hello.", "", "# theirs\n"),
    "skills/hello/references/notes.md": "# Theirs\n",
    "skills/.hub/lock.json": JSON.stringify({
      version: 1,
      installed: {
        hello: { source: "pack.tar.gz", trust_level: "community", install_path: "hello" },
      },
    }),
  }));
}

Deno.test("[S-1][S-7] a hub skill beside the user's: list, view, a file, prompt, preload and doctor all take the user's", async () => {
  const home = shadowedHome();
  try {
    const list = await cliJson(["--home", home, "list"]);
    deepEqual(list.json.skills, [
      { name: "hello", description: MINE, category: "devops", tags: [] },
    ]);
    await viewsMine(home);
    const file = await cliJson(["--home", home, "view", "hello", "references/notes.md"]);
    equal(file.json.content, "# Mine\n");
    const prompt = await cliJson(["--home", home, "prompt", "--preload", "hello"]);
    ok((prompt.json.prompt as string).includes(`${home}/skills/devops/hello/SKILL.md`));
    ok((prompt.json.prompt as string).includes("The user's steps."));
    ok(!(prompt.json.prompt as string).includes("theirs"));
    const doctor = await cliJson(["--home", home, "doctor"]);
    deepEqual(doctor.json.shadowed, [
      { name: "hello", path: `${home}/skills/hello`, shadowed_by: `${home}/skills/devops/hello` },
    ]);
    deepEqual(doctor.json.ambiguous, []);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[S-1] a hub skill beside the user's over MCP: skills_list and skill_view (and its file) take the user's", async () => {
  const home = shadowedHome();
  const client = await connectStdio(home);
  try {
    const list = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
    deepEqual((list.skills as { name: string; description: string }[]).map((s) => s.description), [
      MINE,
    ]);
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "hello" } }),
    );
    deepEqual([view.path, view.description], ["devops/hello", MINE]);
    const file = firstText(
      await client.callTool({
        name: "skill_view",
        arguments: { name: "hello", file_path: "references/notes.md" },
      }),
    );
    equal(file.content, "# Mine\n");
  } finally {
    await client.close();
    removeTrees(home);
  }
});

Deno.test("[S-1] a variant: the user's skill answers by its frontmatter name only (tools/greet named 'hello')", async () => {
  const home = Deno.realPathSync(makeTree({
    "skills/tools/greet/SKILL.md": skill("hello", MINE),
    "skills/hello/SKILL.md": skill("hello", "A stranger's hello."),
    "skills/.hub/lock.json": JSON.stringify({
      version: 1,
      installed: { hello: { source: "x", trust_level: "community", install_path: "hello" } },
    }),
  }));
  try {
    const view = await cliJson(["--home", home, "view", "hello"]);
    deepEqual([view.json.path, view.json.description], ["tools/greet", MINE]);
    const list = await cliJson(["--home", home, "list"]);
    deepEqual((list.json.skills as { description: string }[]).map((s) => s.description), [MINE]);
  } finally {
    removeTrees(home);
  }
});

/** A record of the local root `/r` at `path`. */
const rec = (path: string, name = "hello"): SkillRecord => ({
  name,
  description: path,
  category: null,
  tags: [],
  relatedSkills: [],
  path,
  skillDir: `/r/${path}`,
  file: `/r/${path}/SKILL.md`,
  root: "/r",
  source: "local",
  about: {},
  invocation: {},
  frontmatter: {},
  diagnostics: [],
});

Deno.test("[S-1][S-7] indexRecords: the user's own wins over hub skills of its root in any order; two hub ones stay ambiguous", () => {
  const hub = (r: SkillRecord) => r.path.startsWith("hub");
  const index = indexRecords([rec("hub1/hello"), rec("a/b/hello")], undefined, [], hub);
  const entry = index.entries.get("hello")!;
  deepEqual([entry.record.path, entry.ambiguous], ["a/b/hello", false]);
  deepEqual(index.shadowed.map((r) => r.path), ["hub1/hello"]);
  const two = indexRecords(
    [rec("hub1/hello"), rec("hub2/ｈｅｌｌｏ", "ｈｅｌｌｏ")],
    undefined,
    [],
    hub,
  );
  deepEqual(two.entries.get("hello")!.matches.map((r) => r.path), [
    "hub1/hello",
    "hub2/ｈｅｌｌｏ",
  ]);
  const own = indexRecords([rec("a/hello"), rec("b/hello")], undefined, [], hub);
  equal(own.entries.get("hello")!.ambiguous, true, "two of the user's own are ambiguous");
  deepEqual(
    ["HELLO", "ｈｅｌｌｏ", "Ｈｅｌｌｏ", "hello"].map(collisionKey),
    ["hello", "hello", "hello", "hello"],
  );
});

Deno.test("[M-6] names are compared after NFKC: folder against name:, resolution by name, duplicates, disabled", async () => {
  const composed = "caf\u00e9"; // é as one code point
  const decomposed = "cafe\u0301"; // e + combining acute accent
  const dir = makeTree({ [`${composed}/SKILL.md`]: skill(decomposed, "Coffee.") });
  const home = makeTree({
    [`skills/a/${composed}/SKILL.md`]: skill(composed, "One."),
    [`skills/b/${decomposed}/SKILL.md`]: skill(decomposed, "Two."),
    [`skills/tea/SKILL.md`]: skill(decomposed.replace("caf", "th"), "Tea."),
  });
  try {
    const v = await cliJson(["validate", dir, "--profile", "agentskills"]);
    equal(v.code, 0, JSON.stringify(v.json.findings));
    // Two spellings of one name in one root: one entry, ambiguous ([S-7]).
    const list = await cliJson(["--home", home, "list"]);
    const skills = list.json.skills as { name: string; ambiguous?: boolean; matches?: string[] }[];
    equal(skills.filter((s) => s.name.normalize("NFKC") === composed).length, 1);
    deepEqual(skills.find((s) => s.ambiguous)?.matches, [`a/${composed}`, `b/${decomposed}`]);
    // Resolution by frontmatter name, in the other spelling.
    const tea = await cliJson(["--home", home, "view", "th\u00e9"]);
    equal(tea.code, 0, tea.stderr);
    equal(tea.json.description, "Tea.");
    // Disabled in one spelling hides and refuses the other.
    Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  disabled: ["th\u00e9"]\n`);
    const off = await cliJson(["--home", home, "view", decomposed.replace("caf", "th")]);
    equal(off.code, 1);
    match(String(off.json.error), /is disabled\.$/);
  } finally {
    removeTrees(dir, home);
  }
});
