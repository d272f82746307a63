/**
 * [H-5] Other agents' skill folders (Claude Code, Codex, `.agents`) as read-only roots
 * after the local root and external dirs ([S-1]), in a temp HOME the CLI runs with:
 * records carry `agent:NAME`, a view counts nothing anywhere ([U-1]), management refuses,
 * the write fence refuses them except the one `hub install --agent NAME` installs into,
 * and `doctor` names folders found but not enabled.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { checkWrites, unsafeWrite, writeFence } from "../../src/warden/write_guard.ts";
import {
  assertAbsent,
  cli,
  cliJson,
  makeTree,
  removeTrees,
  skill,
  snapshot,
  testHost,
} from "../helpers.ts";

/** The CLI's module cache, kept when HOME points at a temp folder. */
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

/** A temp HOME with one skill in each agent's folder, and a skillrt home inside it. */
function agentHome(extra: Record<string, string> = {}): { user: string; home: string } {
  const user = makeTree({
    ".claude/skills/cl-skill/SKILL.md": skill("cl-skill", "From Claude Code."),
    ".claude/skills/shared/SKILL.md": skill("shared", "Claude's copy."),
    ".codex/skills/cx-skill/SKILL.md": skill("cx-skill", "From Codex."),
    ".codex/skills/ext-dup/SKILL.md": skill("ext-dup", "Codex's copy."),
    ".agents/skills/ag-skill/SKILL.md": skill("ag-skill", "From .agents."),
    ".hermes/skills/shared/SKILL.md": skill("shared", "The user's own copy."),
    "ext/ext-dup/SKILL.md": skill("ext-dup", "The external dir's copy."),
    ...extra,
  });
  return { user: Deno.realPathSync(user), home: `${Deno.realPathSync(user)}/.hermes` };
}

function run(user: string, args: string[], cwd?: string) {
  return cliJson(args, { env: { HOME: user, DENO_DIR }, cwd });
}

Deno.test("[H-5][S-1] each agent's folder is a root after the local root and external dirs; records carry agent:NAME", async () => {
  const { user, home } = agentHome();
  try {
    Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  external_dirs: [${user}/ext]\n`);
    const none = await run(user, ["--home", home, "list"]);
    deepEqual((none.json.skills as { name: string }[]).map((s) => s.name), ["ext-dup", "shared"]);
    const all = await run(user, [
      "--home",
      home,
      "--agent",
      "claude,codex",
      "--agent",
      "agents",
      "list",
    ]);
    equal(all.code, 0, all.stderr);
    deepEqual((all.json.skills as { name: string }[]).map((s) => s.name), [
      "ag-skill",
      "cl-skill",
      "cx-skill",
      "ext-dup",
      "shared",
    ]);
    const expect: [string, string, string][] = [
      ["cl-skill", "agent:claude", `${user}/.claude/skills/cl-skill`],
      ["cx-skill", "agent:codex", `${user}/.codex/skills/cx-skill`],
      ["ag-skill", "agent:agents", `${user}/.agents/skills/ag-skill`],
      // The user's own copy wins over Claude's, the external dir's over Codex's ([S-1]).
      ["shared", "local", `${home}/skills/shared`],
      ["ext-dup", "external", `${user}/ext/ext-dup`],
    ];
    for (const [name, source, dir] of expect) {
      const v = await run(user, ["--home", home, "--agent", "claude,codex,agents", "view", name]);
      equal(v.code, 0, v.stderr);
      deepEqual([v.json.source, v.json.skill_dir], [source, dir], name);
    }
    // skills.agents in config.yaml does the same as --agent.
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  agents: [codex]\n");
    const fromConfig = await run(user, ["--home", home, "view", "cx-skill"]);
    equal(fromConfig.json.source, "agent:codex");
    const unknown = await run(user, ["--home", home, "--agent", "cursor", "list"]);
    equal(unknown.code, 2);
    equal(unknown.json.error, "Unknown agent 'cursor'; use one of claude, codex, agents.");
  } finally {
    removeTrees(user);
  }
});

Deno.test("[H-5][H-4] a trusted project's .claude/skills is Claude's project folder; an untrusted one is not read", async () => {
  const { user, home } = agentHome({
    "proj/.git/HEAD": "ref: refs/heads/main\n",
    "proj/.claude/skills/proj-skill/SKILL.md": skill("proj-skill", "Claude project skill."),
  });
  try {
    const cwd = `${user}/proj`;
    const untrusted = await run(user, ["--home", home, "--agent", "claude", "list"], cwd);
    ok(!(untrusted.json.skills as { name: string }[]).some((s) => s.name === "proj-skill"));
    Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  trusted_project_dirs: [${cwd}]\n`);
    const off = await run(user, ["--home", home, "list"], cwd);
    ok(!(off.json.skills as { name: string }[]).some((s) => s.name === "proj-skill"));
    const v = await run(user, ["--home", home, "--agent", "claude", "view", "proj-skill"], cwd);
    equal(v.code, 0, v.stderr);
    deepEqual([v.json.source, v.json.skill_dir], [
      "agent:claude",
      `${cwd}/.claude/skills/proj-skill`,
    ]);
  } finally {
    removeTrees(user);
  }
});

Deno.test("[U-1][H-5] a view of an agent-folder skill writes no counters anywhere; management refuses it", async () => {
  const { user, home } = agentHome();
  try {
    const before = snapshot(user);
    for (const args of [["view", "cl-skill"], ["invoke", "cx-skill"], ["view", "ag-skill"]]) {
      const r = await run(user, ["--home", home, "--agent", "claude,codex,agents", ...args]);
      equal(r.code, 0, r.stderr);
    }
    equal(snapshot(user), before); // nothing written: no .usage.json in the home either
    const patch = await run(user, [
      "--home",
      home,
      "--agent",
      "claude",
      "patch",
      "cl-skill",
      "--old",
      "Do the thing.",
      "--new",
      "Changed.",
    ]);
    equal(patch.code, 1);
    equal(
      patch.json.error,
      `Skill 'cl-skill' is in the skill folder of agent 'claude' (${user}/.claude/skills), which skillrt only reads; copy it into the local root to change it.`,
    );
    const del = await run(user, ["--home", home, "--agent", "codex", "delete", "cx-skill"]);
    equal(del.code, 1);
    equal(snapshot(user), before);
    // A view of the user's own skill still counts, in the home only.
    equal((await run(user, ["--home", home, "view", "shared"])).code, 0);
    ok(Deno.statSync(`${home}/skills/.usage.json`).isFile);
  } finally {
    removeTrees(user);
  }
});

Deno.test("[H-5][C-4] doctor names the agent folders it finds that are not enabled", async () => {
  const { user, home } = agentHome();
  try {
    Deno.removeSync(`${user}/.agents`, { recursive: true });
    const r = await run(user, ["--home", home, "--agent", "codex", "doctor"]);
    equal(r.code, 0, r.stderr);
    deepEqual(r.json.agent_folders, [
      { agent: "claude", scope: "user", path: `${user}/.claude/skills`, enabled: false },
      { agent: "codex", scope: "user", path: `${user}/.codex/skills`, enabled: true },
    ]);
    const notes = (r.json.diagnostics as { code: string; message: string; path: string }[])
      .filter((d) => d.code === "agent.not_enabled");
    deepEqual(notes.map((d) => [d.path, d.message]), [[
      `${user}/.claude/skills`,
      "The Claude Code skill folder is not enabled; add 'claude' to skills.agents in config.yaml (or pass --agent claude) to read its skills.",
    ]]);
    const roots = r.json.roots as { source: string; path: string; skills: number }[];
    deepEqual(roots.map((x) => [x.source, x.path, x.skills]), [
      ["local", `${home}/skills`, 1],
      ["agent:codex", `${user}/.codex/skills`, 2],
    ]);
    const text = await cli(["--home", home, "doctor"], { env: { HOME: user, DENO_DIR } });
    match(text.stdout, /Agent skill folders\n {2}claude +not enabled +\S+\/\.claude\/skills\n/);
  } finally {
    removeTrees(user);
  }
});

Deno.test("[X-6][H-5] the fence: agent folders are never granted, except the one hub install --agent names", () => {
  const setup = resolveHomeLayout({
    home: "/u/me/.hermes",
    host: testHost("/u/me", { userHome: "/u/me" }),
    agents: ["claude"],
  });
  const plain = writeFence(setup, () => undefined);
  for (const path of ["/u/me/.claude/skills", "/u/me/.claude/skills/x", "/u/me/.codex/skills/x"]) {
    equal(
      unsafeWrite(path, plain),
      `it is in the agent skills folder '${
        path.split("/").slice(0, 5).join("/")
      }', which skillrt only reads`,
    );
  }
  equal(
    unsafeWrite("/u/me/.claude", plain),
    "it contains the agent skills folder '/u/me/.claude/skills', which skillrt only reads",
  );
  const claude = writeFence(setup, () => undefined, [], "/u/me/.claude/skills");
  equal(unsafeWrite("/u/me/.claude/skills/x", claude), undefined);
  equal(unsafeWrite("/u/me/.claude/skills/.hub", claude), undefined);
  match(
    unsafeWrite("/u/me/.codex/skills/x", claude)!,
    /agent skills folder '\/u\/me\/\.codex\/skills'/,
  );
  match(unsafeWrite("/u/me/.agents/skills", claude)!, /only reads/);
  let refused = "";
  try {
    checkWrites(
      "hub",
      ["/u/me/.codex/skills/x"],
      setup,
      () => undefined,
      { agentTarget: "/u/me/.claude/skills" },
    );
  } catch (error) {
    refused = (error as Error).message;
  }
  equal(
    refused,
    "Refusing the sandbox plan of 'hub': it would grant write access to '/u/me/.codex/skills/x', and it is in the agent skills folder '/u/me/.codex/skills', which skillrt only reads.",
  );
});

Deno.test("[HUB-8][H-5] hub install --agent claude: quarantine, scan, lock and audit in Claude's folder; the grant is that folder only", async () => {
  const { user, home } = agentHome({
    "src/tool/SKILL.md": skill("tool", "A tool."),
    "src/tool/references/a.md": "A.\n",
  });
  try {
    Deno.removeSync(`${user}/.claude`, { recursive: true }); // made by the install
    const homeBefore = snapshot(home);
    const plan = await run(user, [
      "--home",
      home,
      "sandbox",
      "--",
      "hub",
      "install",
      `${user}/src/tool`,
      "--agent",
      "claude",
    ]);
    equal(plan.code, 0, plan.stderr);
    deepEqual((plan.json.plan as { write: string[] }).write, [
      `${user}/.claude/skills/.hub`,
      `${user}/.claude/skills/tool`,
    ]);
    const r = await run(user, [
      "--home",
      home,
      "hub",
      "install",
      `${user}/src/tool`,
      "--agent",
      "claude",
      "--yes",
    ]);
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.name, r.json.install_path, r.json.scan_verdict], ["tool", "tool", "safe"]);
    equal(Deno.readTextFileSync(`${user}/.claude/skills/tool/references/a.md`), "A.\n");
    const lock = JSON.parse(Deno.readTextFileSync(`${user}/.claude/skills/.hub/lock.json`));
    deepEqual(Object.keys(lock.installed), ["tool"]);
    match(
      Deno.readTextFileSync(`${user}/.claude/skills/.hub/audit.log`),
      /^\S+ INSTALL tool \S+:local safe chain=[0-9a-f]{64}\n$/,
    );
    equal(snapshot(home), homeBefore); // the skillrt home is not touched
    const listed = await run(user, ["--home", home, "--agent", "claude", "hub", "list"]);
    deepEqual((listed.json.installed as { name: string }[]).map((i) => i.name), ["tool"]);
    const v = await run(user, ["--home", home, "--agent", "claude", "view", "tool"]);
    equal(v.json.source, "agent:claude");
    const checked = await run(user, ["--home", home, "--agent", "claude", "hub", "check"]);
    deepEqual(checked.json.skills, [{ name: "tool", status: "up_to_date" }]);
    const gone = await run(user, ["--home", home, "hub", "uninstall", "tool", "--agent", "claude"]);
    equal(gone.code, 0, gone.stderr);
    assertAbsent(`${user}/.claude/skills/tool`);
    const two = await run(user, [
      "--home",
      home,
      "--agent",
      "claude,codex",
      "hub",
      "install",
      `${user}/src/tool`,
    ]);
    equal(two.code, 2);
    equal(
      two.json.error,
      "A hub command works in one agent's folder; --agent names claude, codex.",
    );
  } finally {
    removeTrees(user);
  }
});

Deno.test("[S-9][H-5] links in an agent's folder: a skill linked out is not served; a planted .hub link refuses the install", async () => {
  const outside = makeTree({
    "leak/SKILL.md": skill("leak", "Outside the folder."),
    "hubt/.keep": "",
  });
  const { user, home } = agentHome({ "src/tool/SKILL.md": skill("tool", "A tool.") });
  try {
    Deno.symlinkSync(`${outside}/leak`, `${user}/.claude/skills/leak`);
    const v = await run(user, ["--home", home, "--agent", "claude", "view", "leak"]);
    equal(v.code, 1);
    ok(!v.stdout.includes("Outside the folder."));
    Deno.symlinkSync(`${outside}/hubt`, `${user}/.claude/skills/.hub`);
    const before = snapshot(outside);
    const r = await run(user, [
      "--home",
      home,
      "hub",
      "install",
      `${user}/src/tool`,
      "--agent",
      "claude",
      "--yes",
    ]);
    equal(r.code, 1);
    equal(r.json.error, `Refusing to install: '${user}/.claude/skills/.hub' is a symbolic link.`);
    equal(snapshot(outside), before);
    ok(Deno.lstatSync(`${user}/.claude/skills/.hub`).isSymlink);
    assertAbsent(`${user}/.claude/skills/tool`);
  } finally {
    removeTrees(user, outside);
  }
});

Deno.test("[H-5][U-1] the library: SkillRuntime({ agents }) reads an agent's folder and counts nothing for it", async () => {
  const { user, home } = agentHome();
  try {
    const runtime = new SkillRuntime({
      home,
      agents: ["claude"],
      host: testHost(user, { userHome: user }),
    });
    const view = await runtime.view("cl-skill");
    deepEqual([view.source, view.skillDir], ["agent:claude", `${user}/.claude/skills/cl-skill`]);
    assertAbsent(`${home}/skills/.usage.json`);
    deepEqual(runtime.setup.roots.map((r) => r.source), ["local", "agent:claude"]);
    await runtime.view("shared");
    ok(Deno.statSync(`${home}/skills/.usage.json`).isFile);
  } finally {
    removeTrees(user);
  }
});

Deno.test("[HUB-8][V-10][H-5] a community skill installed with --agent stays community: its view carries the untrusted banner", async () => {
  const { user, home } = agentHome({ "pkg/packed/SKILL.md": skill("packed", "From an archive.") });
  try {
    const tgz = `${user}/packed.tar.gz`;
    const tar = await new Deno.Command("tar", {
      args: ["-czf", tgz, "-C", `${user}/pkg`, "packed"],
    })
      .output();
    equal(tar.success, true);
    const r = await run(user, [
      "--home",
      home,
      "hub",
      "install",
      tgz,
      "--agent",
      "claude",
      "--yes",
    ]);
    equal(r.code, 0, r.stderr);
    equal(r.json.trust_level, "community");
    const v = await cli(["--home", home, "--agent", "claude", "view", "packed"], {
      env: { HOME: user, DENO_DIR },
    });
    equal(v.code, 0, v.stderr);
    ok(
      v.stdout.startsWith(
        `[Untrusted skill 'packed': installed from ${tgz} with community trust.`,
      ),
      v.stdout,
    );
  } finally {
    removeTrees(user);
  }
});
