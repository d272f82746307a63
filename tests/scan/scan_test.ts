import { deepEqual, equal, ok } from "node:assert/strict";
import { DEFAULT_WALK_LIMITS, walkRoot } from "../../src/scan/walk.ts";
import { readRecord, scanRoot } from "../../src/scan/scan_root.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

const host = testHost;

Deno.test("[S-2] excluded folders at any depth and a skill's support folders are never entered", () => {
  const root = makeTree({
    "a/SKILL.md": skill("a", "A"),
    "a/references/inner/SKILL.md": skill("hidden-ref", "no"),
    "a/nested/SKILL.md": skill("nested", "N"),
    "x/node_modules/m/SKILL.md": skill("nm", "no"),
    "x/deep/.git/g/SKILL.md": skill("git", "no"),
    "x/deep/.venv/v/SKILL.md": skill("venv", "no"),
    "x/deep/__pycache__/p/SKILL.md": skill("pyc", "no"),
    "scripts/s/SKILL.md": skill("scripts-outside-skill", "yes"),
  });
  const walk = walkRoot(root, Deno.realPathSync(root));
  deepEqual(walk.skills.map((s) => s.rel), ["a", "a/nested", "scripts/s"]);
});

Deno.test("[S-2] symlinks are followed, each real folder visited once, cycles are safe", () => {
  const root = makeTree({ "real/b/SKILL.md": skill("b", "B") });
  const outside = makeTree({ "o/SKILL.md": skill("o", "O") });
  Deno.symlinkSync(`${root}/real`, `${root}/real/b/loop`);
  Deno.symlinkSync(`${root}/real`, `${root}/alias`);
  Deno.symlinkSync(`${outside}/o`, `${root}/linked`);
  const walk = walkRoot(root, Deno.realPathSync(root));
  deepEqual(walk.skills.map((s) => s.rel).sort(), ["alias/b", "linked"]);
});

Deno.test("[S-3] depth and directory bounds stop the walk with a diagnostic", () => {
  const root = makeTree({ "1/2/3/4/SKILL.md": skill("deep", "D"), "a/SKILL.md": skill("a", "A") });
  const shallow = walkRoot(root, Deno.realPathSync(root), { maxDepth: 2, maxDirs: 1000 });
  deepEqual(shallow.skills.map((s) => s.rel), ["a"]);
  equal(shallow.diagnostics[0].code, "walk.depth_limit");
  const few = walkRoot(root, Deno.realPathSync(root), { maxDepth: 8, maxDirs: 2 });
  equal(few.diagnostics.at(-1)!.code, "walk.dir_limit");
  equal(few.skills.length, 0);
});

Deno.test("[S-3] a missing root is skipped quietly", () => {
  const walk = walkRoot("/nonexistent/root", "/nonexistent/root");
  deepEqual([walk.skills, walk.flat, walk.diagnostics], [[], [], []]);
});

/** The record of a skill whose SKILL.md could not be read: the folder's name, one diagnostic. */
function unreadable(root: string, dir: string, why: string) {
  return {
    name: dir,
    description: "",
    category: null,
    tags: [],
    relatedSkills: [],
    path: dir,
    skillDir: `${root}/${dir}`,
    file: `${root}/${dir}/SKILL.md`,
    root,
    source: "local",
    about: {},
    invocation: {},
    frontmatter: {},
    diagnostics: [{
      severity: "error",
      code: "file.unreadable",
      message: `SKILL.md could not be read (${why}).`,
      path: `${root}/${dir}/SKILL.md`,
    }],
  };
}

Deno.test({
  name: Deno.build.os === "linux"
    ? "[S-3] an unreadable SKILL.md is a file.unreadable diagnostic on its record"
    : "[S-3] an unreadable SKILL.md is a file.unreadable diagnostic (ignored: needs Linux /proc)",
  ignore: Deno.build.os !== "linux",
  fn: () => {
    // Tests run as root, for whom no mode bit makes a file unreadable. /proc/self/mem is a
    // regular file (so the walk takes the folder for a skill) that Deno opens only with
    // --allow-all (NotCapable under the suite's flags); with --allow-all its read at offset 0
    // fails with EIO (a plain Error). Either way: found by the walk, not readable.
    const allowAll = Deno.permissions.querySync({ name: "ffi" }).state === "granted";
    const root = makeTree({ "ok/SKILL.md": skill("ok", "fine") });
    Deno.mkdirSync(`${root}/mem`);
    Deno.symlinkSync("/proc/self/mem", `${root}/mem/SKILL.md`);
    const scan = scanRoot({ path: root, source: "local" }, DEFAULT_WALK_LIMITS);
    deepEqual(scan.records.map((r) => [r.name, r.diagnostics.length]), [["mem", 1], ["ok", 0]]);
    deepEqual(scan.records[0], unreadable(root, "mem", allowAll ? "Error" : "NotCapable"));
    // A SKILL.md gone between the walk and the read (a concurrent delete) is told the same way.
    const walk = walkRoot(root, root);
    Deno.removeSync(`${root}/ok/SKILL.md`);
    const ok = walk.skills.find((s) => s.rel === "ok")!;
    deepEqual(readRecord(ok.dir, ok.rel, root, "local"), unreadable(root, "ok", "NotFound"));
  },
});

Deno.test("[S-4] no index on disk: an edit is visible to the very next list", async () => {
  const home = makeTree({ "skills/a/SKILL.md": skill("a", "first") });
  const rt = new SkillRuntime({ home, host: host(home) });
  equal((await rt.list()).skills[0].description, "first");
  Deno.writeTextFileSync(`${home}/skills/a/SKILL.md`, skill("a", "second"));
  Deno.mkdirSync(`${home}/skills/b`);
  Deno.writeTextFileSync(`${home}/skills/b/SKILL.md`, skill("b", "new"));
  deepEqual((await rt.list()).skills.map((s) => [s.name, s.description]), [["a", "second"], [
    "b",
    "new",
  ]]);
});

Deno.test("[S-1][S-7][R-3] higher-precedence root wins; the other is shadowed; same-root duplicates are ambiguous in list and view", async () => {
  const home = makeTree({
    "skills/dev/docker/SKILL.md": skill("docker", "local docker"),
    "skills/ops/docker/SKILL.md": skill("docker", "ops docker"),
    "skills/tools/git/SKILL.md": skill("git", "local git"),
    "ext/git/SKILL.md": skill("git", "external git"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const rt = new SkillRuntime({ home, host: host(home) });
  const list = await rt.list();
  const docker = list.skills.find((s) => s.name === "docker")!;
  equal(docker.ambiguous, true);
  deepEqual(docker.matches, ["dev/docker", "ops/docker"]);
  equal(list.skills.filter((s) => s.name === "docker").length, 1);
  equal(list.skills.find((s) => s.name === "git")!.description, "local git");
  const index = rt.catalog().index();
  equal(index.shadowed.length, 1);
  equal(index.shadowed[0].description, "external git");
  let err: Record<string, unknown> = {};
  try {
    await rt.view("docker");
  } catch (e) {
    err = (e as { toJSON(): Record<string, unknown> }).toJSON();
  }
  deepEqual(err, {
    success: false,
    error:
      "Ambiguous skill name 'docker': 2 skills match. Refusing to guess — load one explicitly by its categorized path.",
    matches: ["dev/docker", "ops/docker"],
    hint:
      "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique.",
  });
  equal((await rt.view("ops/docker")).description, "ops docker");
  equal((await rt.view("git")).description, "local git");
});

Deno.test("[S-8] legacy flat skills are viewable by name but not listed", async () => {
  const home = makeTree({
    "skills/notes.md": "# Notes\n\nFlat skill body.\n",
    "skills/cat/old.md": "# Old\n\nOld body.\n",
    "skills/a/SKILL.md": skill("a", "A"),
  });
  const rt = new SkillRuntime({ home, host: host(home) });
  deepEqual((await rt.list()).skills.map((s) => s.name), ["a"]);
  const v = await rt.view("notes");
  equal(v.content, "# Notes\n\nFlat skill body.\n");
  equal(v.linkedFiles, null);
  equal((await rt.view("old")).description, "Old body.");
  equal((await rt.viewFile("notes", "anything.md")).content, "# Notes\n\nFlat skill body.\n");
  ok((await rt.view("cat/old")).content.includes("Old body."));
});

Deno.test("[S-1] local first: the user's own version wins over a trusted project's", async () => {
  const proj = makeTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".agents/skills/dup/SKILL.md": skill("dup", "The project's."),
  });
  const home = makeTree({
    "skills/dup/SKILL.md": skill("dup", "Mine."),
    "config.yaml": `skills:\n  trusted_project_dirs: ['${proj}']\n`,
  });
  try {
    const r = await cliJson(["--home", home, "view", "dup"], { cwd: proj });
    equal(r.code, 0, r.stderr);
    equal([r.json.source, r.json.description].join(" "), "local Mine.");
  } finally {
    removeTrees(proj, home);
  }
});

Deno.test("[S-2] _deprecated/ is never walked, and not served by path either (like .archive)", async () => {
  const home = makeTree({
    "skills/_deprecated/old/SKILL.md": skill("old", "Old."),
    "skills/dev/_deprecated/older/SKILL.md": skill("older", "Older."),
    "skills/dev/new/SKILL.md": skill("new", "New."),
  });
  try {
    const list = await cliJson(["--home", home, "list"]);
    deepEqual((list.json.skills as { name: string }[]).map((s) => s.name), ["new"]);
    for (const name of ["old", "_deprecated/old", "dev/_deprecated/older"]) {
      const r = await cliJson(["--home", home, "view", name]);
      equal(r.code, 1, name);
      equal(r.json.error, `Skill '${name}' not found.`);
    }
  } finally {
    removeTrees(home);
  }
});
