/**
 * [C-8] A CLI that helps: a closed stdout ends quietly, a missing home says where it
 * looked, OS errors are one line with path and reason, typos get suggestions, an unknown
 * category lists the real ones, counts have the right plural.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { cli, cliJson, DEMO_HOME, makeTree, removeTrees, REPO, skill } from "../helpers.ts";
import { PLANNED_COMMANDS } from "../../src/cli/command_table.ts";

Deno.test("[C-8] a reader that closes stdout early ends the command quietly with exit 0", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 1500; i++) {
    files[`skills/s${i}/SKILL.md`] = skill(`s${i}`, `Skill number ${i} `.repeat(8));
  }
  const home = makeTree(files);
  try {
    for (const json of [false, true]) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          ...WARDEN_FLAGS,
          `${REPO}/main.ts`,
          "--home",
          home,
          "list",
          ...(json ? ["--json"] : []),
        ],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const reader = child.stdout.getReader();
      const first = await reader.read(); // like `| head -c …`: one chunk, then gone
      ok(first.value && first.value.length > 0);
      await reader.cancel();
      const status = await child.status;
      const stderr = new TextDecoder().decode(
        (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
      );
      deepEqual([status.code, stderr], [0, ""]);
    }
  } finally {
    removeTrees(home);
  }
});

Deno.test("[C-8][H-1] a home that does not exist: list says where it looked, doctor marks an error", async () => {
  const parent = makeTree({});
  const home = `${parent}/nowhere`;
  try {
    const said =
      `The home '${home}' (--home) does not exist; check the path, or make it first: mkdir -p '${home}/skills'.`;
    const list = await cli(["--home", home, "list"]);
    deepEqual([list.code, list.stdout, list.stderr], [1, "", `skillrt: ${said}\n`]);
    const json = await cliJson(["--home", home, "list"]);
    deepEqual([json.code, json.json], [1, { success: false, error: said }]);
    const doctor = await cli(["--home", home, "doctor"]);
    equal(doctor.code, 1);
    ok(doctor.stdout.includes(`The home '${home}' does not exist.`), doctor.stdout);
    ok(doctor.stdout.trimEnd().endsWith("1 error, 0 warnings, 0 notes"), doctor.stdout);
  } finally {
    removeTrees(parent);
  }
});

Deno.test("[C-8] OS errors are one line naming the path and the reason", async () => {
  const work = makeTree({});
  try {
    const r = await cli(["hub", "scan", "./missing"], { cwd: work });
    equal(r.code, 1);
    equal(
      r.stderr,
      `skillrt: Cannot read the folder '${
        Deno.realPathSync(work)
      }/missing': no such file or directory.\n`,
    );
  } finally {
    removeTrees(work);
  }
});

Deno.test("[C-8][R-4] not-found names come with suggestions; an unknown category lists the real ones", async () => {
  const typo = await cliJson(["--home", DEMO_HOME, "view", "docker-basic"]);
  equal(typo.code, 1);
  deepEqual(typo.json.suggestions, ["docker-basics"]);
  equal(typo.json.error, "Skill 'docker-basic' not found.");
  const text = await cli(["--home", DEMO_HOME, "view", "docker-basic"]);
  equal(text.stderr, "skillrt: Skill 'docker-basic' not found.\nDid you mean: docker-basics?\n");
  const far = await cliJson(["--home", DEMO_HOME, "view", "zzzzzzzzzz"]);
  deepEqual(far.json.suggestions, []);
  const plugin = await cliJson(["--home", DEMO_HOME, "view", "acme:deplo"]);
  deepEqual(plugin.json.suggestions, ["acme:deploy"]);
  const cat = await cliJson(["--home", DEMO_HOME, "list", "--category", "nope"]);
  deepEqual([cat.json.count, cat.json.available_categories], [0, [
    "devops",
    "research",
    "writing",
  ]]);
  const catText = await cli(["--home", DEMO_HOME, "list", "--category", "nope"]);
  equal(catText.stdout, "No category 'nope'. Categories: devops, research, writing.\n");
  match(
    (await cli(["--home", DEMO_HOME, "list", "--category", "writing"])).stdout,
    /\n\n2 skills\n$/,
  );
});

Deno.test("[C-2] an unknown sub-action is a usage error that suggests the closest one", async () => {
  const home = makeTree({ "skills/fine/SKILL.md": skill("fine", "Fine.") });
  try {
    const lines: [string[], string][] = [
      [
        ["hub", "instal", "x"],
        "Unknown hub action 'instal'; did you mean install? Use install, search, list, uninstall, verify, check, update, scan, audit, publish, keygen, lock.",
      ],
      [
        ["bundle", "craete", "x"],
        "Unknown bundle action 'craete'; did you mean create? Use list, show, create, edit, delete.",
      ],
      [
        ["pending", "lst"],
        "Unknown pending action 'lst'; did you mean list? Use list, diff, approve, reject.",
      ],
      [
        ["curator", "stauts"],
        "Unknown curator action 'stauts'; did you mean status? Use status, run, pin, unpin, restore.",
      ],
      [
        ["validate", "--profile", "hermse"],
        "Unknown profile 'hermse'; did you mean hermes? Use hermes, agentskills, claude.",
      ],
      [
        ["sandbox", "lst"],
        `Unknown sandbox command 'lst'; did you mean list? Use ${PLANNED_COMMANDS.join(", ")}.`,
      ],
      [["completions", "bsh"], "Unknown shell 'bsh'; did you mean bash? Use bash, zsh, fish."],
      [
        ["hub", "zzzzzz"],
        "Unknown hub action 'zzzzzz'; use install, search, list, uninstall, verify, check, update, scan, audit, publish, keygen, lock.",
      ],
    ];
    for (const [args, message] of lines) {
      const r = await cli(["--home", home, ...args]);
      deepEqual([r.code, r.stdout, r.stderr], [2, "", `skillrt: ${message}\n`], args.join(" "));
      const j = await cliJson(["--home", home, ...args]);
      deepEqual([j.code, j.json.success, j.json.error], [2, false, message], args.join(" "));
    }
  } finally {
    removeTrees(home);
  }
});
