/**
 * [S-9] Symbolic links that leave the roots, attacked through the real CLI and the MCP
 * SDK client: a canary outside the home and every root must appear in no output.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { connectOver, skillrtTransport } from "../mcp/mcp_helpers.ts";
import { listSkillFiles } from "../../src/view/skill_files.ts";
import { cli, type CliResult, makeTree, skill } from "../helpers.ts";

const TOKEN = `CANARY-${crypto.randomUUID()}`;

/** The secrets, outside the home and every root: a whole skill, a references folder, a category text. */
function makeCanary(): string {
  return makeTree({
    "skill/SKILL.md":
      `---\nname: canary\ndescription: ${TOKEN} description\n---\n\n${TOKEN} body\n`,
    "skill/references/inner.md": `# Inner\n\n${TOKEN} inner\n`,
    "refs/canary.md": `# ${TOKEN} title\n\n${TOKEN} paragraph\n`,
    "DESCRIPTION.md": `---\ndescription: ${TOKEN} category\n---\n`,
  });
}

/** Plants every link attack of [S-9] in the root folder `root`. */
function plant(root: string, canary: string): void {
  makeTree({
    "good/SKILL.md": skill("good", "a plain skill"),
    "md-link/notes.txt": "a folder whose SKILL.md is a link\n",
    "refs/SKILL.md": skill("refs", "references linked out"),
    "onefile/SKILL.md": skill("onefile", "one file linked out"),
    "onefile/references/fine.md": "# Fine\n\nInside.\n",
    "cat/inner/SKILL.md": skill("inner", "in a category"),
  }, root);
  Deno.symlinkSync(`${canary}/skill`, `${root}/linked-skill`);
  Deno.symlinkSync(`${canary}/skill/SKILL.md`, `${root}/md-link/SKILL.md`);
  Deno.symlinkSync(`${canary}/refs`, `${root}/refs/references`);
  Deno.symlinkSync(`${canary}/refs/canary.md`, `${root}/onefile/references/canary.md`);
  Deno.symlinkSync(`${canary}/skill/SKILL.md`, `${root}/leak.md`);
  Deno.symlinkSync(`${canary}/DESCRIPTION.md`, `${root}/cat/DESCRIPTION.md`);
}

interface Attack {
  home: string;
  /** The real root the attacks were planted in. */
  root: string;
  /** Name prefix: `evil:` for the plugin root. */
  prefix: string;
  cwd?: string;
  cleanup: string[];
}

function attackIn(kind: "external" | "project" | "plugin"): Attack {
  const canary = makeCanary();
  const home = makeTree({ "skills/mine/SKILL.md": skill("mine", "the user's own") });
  if (kind === "external") {
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  external_dirs: [ext]\n");
    Deno.mkdirSync(`${home}/ext`);
    plant(`${home}/ext`, canary);
    return { home, root: Deno.realPathSync(`${home}/ext`), prefix: "", cleanup: [home, canary] };
  }
  if (kind === "plugin") {
    Deno.mkdirSync(`${home}/plugins/evil/skills`, { recursive: true });
    plant(`${home}/plugins/evil/skills`, canary);
    const root = Deno.realPathSync(`${home}/plugins/evil/skills`);
    return { home, root, prefix: "evil:", cleanup: [home, canary] };
  }
  const repo = makeTree({ ".git/HEAD": "ref: refs/heads/main\n" });
  Deno.mkdirSync(`${repo}/.agents/skills`, { recursive: true });
  plant(`${repo}/.agents/skills`, canary);
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    `skills:\n  trusted_project_dirs: [${JSON.stringify(repo)}]\n`,
  );
  const root = Deno.realPathSync(`${repo}/.agents/skills`);
  return { home, root, prefix: "", cwd: repo, cleanup: [home, canary, repo] };
}

async function run(a: Attack, args: string[], seen: string[]): Promise<CliResult> {
  const r = await cli(["--home", a.home, ...args], { cwd: a.cwd });
  seen.push(r.stdout, r.stderr);
  return r;
}

async function runJson(a: Attack, args: string[], seen: string[]) {
  const r = await run(a, [...args, "--json"], seen);
  return { ...r, json: JSON.parse(r.stdout) };
}

const REFUSE = "Refusing to follow a symbolic link that leaves the skill roots";

async function attack(kind: "external" | "project" | "plugin"): Promise<void> {
  const a = attackIn(kind);
  const p = a.prefix;
  const seen: string[] = [];
  try {
    const list = await runJson(a, ["list"], seen);
    const names = list.json.skills.map((s: { name: string }) => s.name).sort();
    deepEqual(names, [`${p}good`, `${p}inner`, `${p}onefile`, `${p}refs`, "mine"].sort());
    const doctor = await runJson(a, ["doctor"], seen);
    deepEqual(
      doctor.json.diagnostics
        .filter((d: { code: string }) => d.code === "symlink.outside_roots")
        .map((d: { path: string }) => d.path).sort(),
      [`${a.root}/leak.md`, `${a.root}/linked-skill`, `${a.root}/md-link/SKILL.md`],
    );
    for (
      const [name, link] of [["linked-skill", "linked-skill"], ["md-link", "md-link/SKILL.md"]]
    ) {
      const view = await runJson(a, ["view", `${p}${name}`], seen);
      equal(view.code, 1);
      equal(view.json.error, `${REFUSE}: '${a.root}/${link}'.`);
      await run(a, ["view", `${p}${name}`], seen);
      await run(a, ["invoke", `${p}${name}`], seen);
    }
    if (kind !== "plugin") { // a plugin has no flat skills
      const leak = await runJson(a, ["view", "leak"], seen);
      equal(leak.json.error, `${REFUSE}: '${a.root}/leak.md'.`);
    }
    for (
      const [name, file] of [["refs", "references/canary.md"], ["onefile", "references/canary.md"]]
    ) {
      const escape = await runJson(a, ["view", `${p}${name}`, file], seen);
      equal(escape.code, 1);
      equal(escape.json.error, `Path escapes allowed directory: ${file}`);
      await run(a, ["view", `${p}${name}`, file], seen);
    }
    const refs = await runJson(a, ["view", `${p}refs`], seen);
    equal(refs.json.success, true);
    equal(refs.json.linked_files, null);
    deepEqual(refs.json.file_summaries, []);
    const onefile = await runJson(a, ["view", `${p}onefile`], seen);
    deepEqual(onefile.json.linked_files.references, ["references/fine.md"]);
    deepEqual(onefile.json.file_summaries.map((f: { path: string }) => f.path), [
      "references/fine.md",
    ]);
    const good = await runJson(a, ["view", `${p}good`], seen);
    equal(good.json.success, true);
    for (
      const args of [
        ["list"],
        ["list", "--categories"],
        ["list", "--categories", "--json"],
        ["search", "canary"],
        ["search", "canary", "--json"],
        ["prompt"],
        ["doctor"],
        ["validate"],
        ["graph", "--format", "json"],
        ["view", `${p}refs`],
        ["invoke", `${p}refs`],
        ["invoke", `${p}onefile`, "--json"],
      ]
    ) await run(a, args, seen);
    const all = seen.join("\n");
    ok(!all.includes(TOKEN), `the canary leaked:\n${all.slice(all.indexOf(TOKEN) - 300)}`);
  } finally {
    for (const dir of a.cleanup) Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("[S-9] an external dir's links out of the roots are never followed: skill folder, SKILL.md, references/, one file, flat skill, DESCRIPTION.md", async () => {
  await attack("external");
});

Deno.test("[S-9] a trusted project root's links out of the roots are never followed", async () => {
  await attack("project");
});

Deno.test("[S-9] a plugin root's links out of the roots are never followed", async () => {
  await attack("plugin");
});

Deno.test("[S-9][F-1] the local root follows the user's own link to a skill elsewhere (Level 0, 1 and 2), but never a link out of the skill", async () => {
  const canary = makeCanary();
  const home = makeTree({ "skills/mine/SKILL.md": skill("mine", "M") });
  Deno.symlinkSync(`${canary}/skill`, `${home}/skills/linked`);
  Deno.symlinkSync(`${canary}/refs`, `${home}/skills/mine/references`);
  try {
    const list = await cli(["--home", home, "list", "--json"]);
    const skills = JSON.parse(list.stdout).skills;
    deepEqual(skills.map((s: { name: string }) => s.name), ["canary", "mine"]);
    equal(skills[0].description, `${TOKEN} description`);
    const view = JSON.parse((await cli(["--home", home, "view", "canary", "--json"])).stdout);
    equal(
      view.content,
      `---\nname: canary\ndescription: ${TOKEN} description\n---\n\n${TOKEN} body\n`,
    );
    deepEqual(view.linked_files.references, ["references/inner.md"]);
    deepEqual(view.file_summaries, [{
      path: "references/inner.md",
      bytes: `# Inner\n\n${TOKEN} inner\n`.length,
      title: "Inner",
      summary: `${TOKEN} inner`,
    }]);
    const file = await cli(["--home", home, "view", "canary", "references/inner.md"]);
    equal(file.code, 0);
    equal(file.stdout, `# Inner\n\n${TOKEN} inner\n`);
    const mine = JSON.parse((await cli(["--home", home, "view", "mine", "--json"])).stdout);
    equal(mine.linked_files, null);
    const out = await cli(["--home", home, "view", "mine", "references/canary.md", "--json"]);
    equal(JSON.parse(out.stdout).error, "Path escapes allowed directory: references/canary.md");
    ok(!(out.stdout + out.stderr).includes(TOKEN));
  } finally {
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(canary, { recursive: true });
  }
});

Deno.test("[S-9][MCP-1] MCP skill_view, resources and prompts never serve content behind a link out of an external dir", async () => {
  const a = attackIn("external");
  const server = skillrtTransport(a.home);
  const client = await connectOver(server);
  const seen: string[] = [];
  const call = async (args: Record<string, string>) => {
    const r = await client.callTool({ name: "skill_view", arguments: args });
    const text = (r.content as { text: string }[])[0].text;
    seen.push(text);
    return { isError: r.isError === true, json: JSON.parse(text) };
  };
  const refused = async (read: () => Promise<unknown>) => {
    try {
      seen.push(JSON.stringify(await read()));
      return "";
    } catch (error) {
      seen.push((error as Error).message);
      return (error as Error).message;
    }
  };
  try {
    const file = await call({ name: "refs", file_path: "references/canary.md" });
    equal(file.isError, true);
    equal(file.json.error, "Path escapes allowed directory: references/canary.md");
    const one = await call({ name: "onefile", file_path: "references/canary.md" });
    equal(one.json.error, "Path escapes allowed directory: references/canary.md");
    const linked = await call({ name: "linked-skill" });
    equal(linked.json.error, `${REFUSE}: '${a.root}/linked-skill'.`);
    equal((await call({ name: "md-link" })).json.error, `${REFUSE}: '${a.root}/md-link/SKILL.md'.`);
    deepEqual((await call({ name: "refs" })).json.file_summaries, []);
    const resources = await client.listResources();
    seen.push(JSON.stringify(resources));
    deepEqual(resources.resources.map((r: { name: string }) => r.name).sort(), [
      "good",
      "inner",
      "mine",
      "onefile",
      "refs",
    ]);
    ok((await refused(() => client.readResource({ uri: "skill://refs/references/canary.md" })))
      .includes("Path escapes allowed directory: references/canary.md"));
    ok((await refused(() => client.readResource({ uri: "skill://md-link" }))).includes(REFUSE));
    ok((await refused(() => client.readResource({ uri: "skill://linked-skill/SKILL.md" })))
      .includes(REFUSE));
    ok((await refused(() => client.getPrompt({ name: "linked-skill" }))).includes(REFUSE));
    seen.push(JSON.stringify(await client.listPrompts()));
    const all = seen.join("\n");
    ok(!all.includes(TOKEN), `the canary leaked:\n${all}`);
  } finally {
    await client.close();
    for (const dir of a.cleanup) Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("[S-2] a SKILL.md below a skill's support folder is no skill, by the walk or by path", async () => {
  const home = makeTree({
    "skills/s/SKILL.md": skill("s", "S"),
    "skills/s/references/x/SKILL.md": skill("x", "inside references"),
    "skills/s/evals/e/SKILL.md": skill("e", "inside evals"),
    "skills/s/assets/deep/y/SKILL.md": skill("y", "deep inside assets"),
    "skills/s/references/flat.md": "# Flat\n\nnot a flat skill\n",
  });
  try {
    const list = JSON.parse((await cli(["--home", home, "list", "--json"])).stdout);
    deepEqual(list.skills.map((s: { name: string }) => s.name), ["s"]);
    for (const name of ["s/references/x", "s/evals/e", "s/assets/deep/y", "s/references/flat"]) {
      const r = JSON.parse((await cli(["--home", home, "view", name, "--json"])).stdout);
      equal(r.error, `Skill '${name}' not found.`);
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[S-9] a project's or plugin's skills folder that is itself a link out of the project or plugin is not used", async () => {
  const canary = makeCanary();
  const repo = makeTree({ ".git/HEAD": "ref: refs/heads/main\n", ".hermes/notes.txt": "n\n" });
  const outside = makeTree({ "skills/x/SKILL.md": skill("x", TOKEN) });
  Deno.symlinkSync(outside, `${repo}/.agents`);
  Deno.symlinkSync(canary, `${repo}/.hermes/skills`);
  const home = makeTree({
    "skills/mine/SKILL.md": skill("mine", "M"),
    "plugins/evil/README.md": "a plugin\n",
    "plugins/good/skills/tool/SKILL.md": skill("tool", "T"),
    "config.yaml": `skills:\n  trusted_project_dirs: [${JSON.stringify(repo)}]\n`,
  });
  Deno.symlinkSync(canary, `${home}/plugins/evil/skills`);
  try {
    const seen: string[] = [];
    for (const args of [["list"], ["list", "--json"], ["doctor"], ["prompt"], ["view", "canary"]]) {
      const r = await cli(["--home", home, ...args], { cwd: repo });
      seen.push(r.stdout, r.stderr);
    }
    const list = await cli(["--home", home, "list", "--json"], { cwd: repo });
    deepEqual(JSON.parse(list.stdout).skills.map((s: { name: string }) => s.name), [
      "good:tool",
      "mine",
    ]);
    const doctor = JSON.parse(
      (await cli(["--home", home, "doctor", "--json"], { cwd: repo })).stdout,
    );
    const realRepo = Deno.realPathSync(repo);
    deepEqual(
      doctor.diagnostics.filter((d: { code: string }) => d.code === "symlink.outside_roots")
        .map((d: { path: string }) => d.path).sort(),
      [
        `${Deno.realPathSync(home)}/plugins/evil/skills`,
        `${realRepo}/.agents/skills`,
        `${realRepo}/.hermes/skills`,
      ].sort(),
    );
    const all = seen.join("\n");
    ok(!all.includes(TOKEN), `the canary leaked:\n${all}`);
  } finally {
    for (const dir of [home, repo, canary, outside]) Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("[S-9][F-1] links that stay inside are followed in an external dir: a skill folder or a SKILL.md linked within the roots, a file linked to a sibling", async () => {
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "ext/real/s/SKILL.md": skill("s", "the real one"),
    "ext/real/s/assets/data.md": "# Data\n\nThe data.\n",
    "skills/mine/SKILL.md": skill("mine", "M"),
  });
  Deno.symlinkSync(`${home}/ext/real/s`, `${home}/ext/alias`);
  Deno.symlinkSync("../assets/data.md", `${home}/ext/real/s/references.md`);
  Deno.mkdirSync(`${home}/ext/real/s/references`);
  Deno.symlinkSync("../assets/data.md", `${home}/ext/real/s/references/data.md`);
  Deno.symlinkSync(`${home}/skills/mine`, `${home}/ext/to-local`);
  Deno.mkdirSync(`${home}/ext/md-in-root`);
  Deno.symlinkSync(`${home}/skills/mine/SKILL.md`, `${home}/ext/md-in-root/SKILL.md`);
  try {
    const alias = JSON.parse((await cli(["--home", home, "view", "alias", "--json"])).stdout);
    equal(alias.name, "s");
    deepEqual(alias.linked_files.references, ["references/data.md"]);
    deepEqual(alias.file_summaries.map((f: { path: string }) => f.path), [
      "references/data.md",
      "assets/data.md",
    ]);
    const file = await cli(["--home", home, "view", "alias", "references/data.md"]);
    equal(file.code, 0);
    equal(file.stdout, "# Data\n\nThe data.\n");
    const local = await cli(["--home", home, "view", "to-local", "--json"]);
    equal(JSON.parse(local.stdout).name, "mine");
    const md = JSON.parse((await cli(["--home", home, "view", "md-in-root", "--json"])).stdout);
    equal(md.content, skill("mine", "M"));
    const doctor = JSON.parse((await cli(["--home", home, "doctor", "--json"])).stdout);
    deepEqual(doctor.diagnostics.filter((d: { code: string }) => d.code.startsWith("symlink")), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[V-2][F-1] the skill's file list keeps a real support folder next to an alias of it, ends link cycles, and drops links out", () => {
  const canary = makeCanary();
  const dir = makeTree({ "references/x.md": "x\n", "b/f.md": "f\n", "a/keep.txt": "k\n" });
  Deno.symlinkSync(`${dir}/references`, `${dir}/docs`);
  Deno.symlinkSync(`${dir}/b`, `${dir}/a/l1`);
  Deno.symlinkSync(`${dir}/a`, `${dir}/b/l2`);
  Deno.symlinkSync(dir, `${dir}/references/up`);
  Deno.symlinkSync(`${canary}/refs`, `${dir}/assets`);
  Deno.symlinkSync(`${canary}/refs/canary.md`, `${dir}/templates.md`);
  try {
    deepEqual(listSkillFiles(dir), {
      references: ["references/x.md"],
      templates: [],
      assets: [],
      scripts: [],
      other: ["a/keep.txt", "a/l1/f.md", "b/f.md", "b/l2/keep.txt", "docs/x.md"],
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(canary, { recursive: true });
  }
});
