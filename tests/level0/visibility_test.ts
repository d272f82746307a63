/**
 * Which skills a list shows ([L0-2], [L0-9]): platform names (Termux, Android, FreeBSD), hidden
 * skills with the reason under list --all and --hidden, in the CLI and the library.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { platformMatches } from "../../src/level0/visibility.ts";
import { openSandboxedRuntime, SkillRuntime } from "../../mod.ts";
import { cli, cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

Deno.test("[L0-9] Termux and FreeBSD count as linux; termux and android name Android", () => {
  ok(platformMatches({ platforms: ["linux"] }, "android"));
  ok(platformMatches({ platforms: ["termux"] }, "android"));
  ok(platformMatches({ platforms: "android" }, "android"));
  ok(platformMatches({ platforms: ["linux"] }, "freebsd"));
  ok(!platformMatches({ platforms: ["termux"] }, "linux"));
  ok(!platformMatches({ platforms: ["macos"] }, "freebsd"));
});

type Listed = {
  name: string;
  hidden?: string;
  version?: string;
  author?: string;
  license?: string;
};

Deno.test("[L0-9] list --all (and --hidden) shows hidden skills with the reason; doctor counts them", async () => {
  const home = makeTree({
    "skills/mac/SKILL.md": skill("mac", "Mac only.", "platforms: [macos]\n"),
    "skills/kan/SKILL.md": skill("kan", "Kanban only.", "environments: [kanban]\n"),
    "skills/off/SKILL.md": skill("off", "Disabled."),
    "skills/web/SKILL.md": skill(
      "web",
      "Needs web.",
      "metadata:\n  hermes:\n    requires_toolsets: [web]\n",
    ),
    "skills/plain/SKILL.md": skill("plain", "Shown."),
    "config.yaml": "skills:\n  disabled: [off]\n",
  });
  const env = { HERMES_KANBAN_TASK: "", HERMES_KANBAN_BOARD: "" };
  try {
    const shown = await cliJson(["--home", home, "--toolsets", "terminal", "list"], { env });
    deepEqual((shown.json.skills as Listed[]).map((s) => s.name), ["plain"]);
    for (const flag of ["--all", "--hidden"]) {
      const all = await cliJson(["--home", home, "--toolsets", "terminal", "list", flag], { env });
      deepEqual(
        (all.json.skills as Listed[]).map((s) => [s.name, s.hidden ?? null]),
        [
          ["kan", "environment"],
          ["mac", "platform"],
          ["off", "disabled"],
          ["plain", null],
          ["web", "conditions"],
        ],
      );
    }
    const text = await cli(["--home", home, "--toolsets", "terminal", "list", "--all"], { env });
    match(text.stdout, /^mac \(hidden: platform\) +- +Mac only\.$/m);
    match(text.stdout, /^off \(hidden: disabled\) +- +Disabled\.$/m);
    match(text.stdout, /\n5 skills \(4 hidden\)\n$/);
    const doctor = await cliJson(["--home", home, "--toolsets", "terminal", "doctor"], { env });
    deepEqual(doctor.json.hidden, {
      disabled: 1,
      platform: 1,
      environment: 1,
      conditions: 1,
      total: 4,
    });
    const doctorText = await cli(["--home", home, "--toolsets", "terminal", "doctor"], { env });
    match(
      doctorText.stdout,
      /^Hidden {2}4 skills \(disabled 1, platform 1, environment 1, conditions 1\); 'list --all' shows them$/m,
    );
  } finally {
    removeTrees(home);
  }
});

Deno.test("[L0-2][L0-9] inside Termux, termux and android tags match, and so does linux", async () => {
  const home = makeTree({
    "skills/t/SKILL.md": skill("t", "Termux.", "platforms: [termux]\n"),
    "skills/a/SKILL.md": skill("a", "Android.", "platforms: [android]\n"),
    "skills/l/SKILL.md": skill("l", "Linux.", "platforms: [linux]\n"),
    "skills/m/SKILL.md": skill("m", "Mac.", "platforms: [macos]\n"),
  });
  try {
    const names = async (env: Record<string, string>) =>
      ((await cliJson(["--home", home, "list"], { env })).json.skills as Listed[]).map((s) =>
        s.name
      );
    deepEqual(await names({ TERMUX_VERSION: "0.118.1", PREFIX: "" }), ["a", "l", "t"]);
    deepEqual(await names({ TERMUX_VERSION: "", PREFIX: "/data/data/com.termux/files/usr" }), [
      "a",
      "l",
      "t",
    ]);
    if (Deno.build.os === "linux") {
      deepEqual(await names({ TERMUX_VERSION: "", PREFIX: "/usr" }), ["l"]);
    }
    const view = await cliJson(["--home", home, "view", "t"], { env: { TERMUX_VERSION: "1" } });
    equal(view.code, 0, view.stderr);
    ok(view.json.content);
  } finally {
    removeTrees(home);
  }
});

Deno.test("[V-10][L0-9] the library: list({ all }) says why a skill is hidden; view and list carry version, author, license", async () => {
  const home = makeTree({
    "skills/mac/SKILL.md": skill("mac", "Mac only.", "platforms: [macos]\nversion: 3.1.0\n"),
    "skills/doc/SKILL.md": skill("doc", "Docs.", "license: MIT\nauthor: Ann\n"),
  });
  try {
    const rt = new SkillRuntime({ home, host: testHost(home) });
    deepEqual((await rt.list()).skills.map((s) => s.name), ["doc"]);
    const all = await rt.list({ all: true });
    deepEqual(
      all.skills.map((s) => [s.name, s.hidden ?? null, s.version ?? null, s.license ?? null]),
      [["doc", null, null, "MIT"], ["mac", "platform", "3.1.0", null]],
    );
    const view = await rt.view("doc");
    deepEqual([view.version, view.author, view.license], [null, "Ann", "MIT"]);
    const sandboxed = await openSandboxedRuntime({ home, host: testHost(home) }).list({
      all: true,
    });
    deepEqual(sandboxed.skills.map((s) => [s.name, s.hidden ?? null]), [["doc", null], [
      "mac",
      "platform",
    ]]);
  } finally {
    removeTrees(home);
  }
});
