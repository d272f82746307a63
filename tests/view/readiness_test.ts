/**
 * [V-9] Readiness beyond environment variables: `required_commands` (programs on PATH)
 * and `required_credential_files` (files under the home) in `view`, `invoke`, `doctor`,
 * the library and MCP. The sandbox Worker gets no grant for it: the warden answers by
 * `stat`, checking every name and path again. Hostile entries (absolute paths, `..`,
 * links out of the home, program paths) are refused and never looked up.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  credentialPathProblem,
  isCommandName,
  requiredCommands,
  requiredCredentialFiles,
} from "../../src/view/requirements.ts";
import { answerReadiness, credentialPresent, onPath } from "../../src/home/readiness_probe.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { fromJsonDocument } from "../../src/json_document.ts";
import { openSandboxedRuntime } from "../../src/sandbox/sandboxed_runtime.ts";
import { cli, cliJson, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { connectStdio, firstText } from "../mcp/mcp_helpers.ts";

Deno.test("[V-9] declared programs and credential files: bare names and relative paths only", () => {
  const commands = requiredCommands({
    required_commands: [
      "git",
      { name: "jq", help: "apt install jq" },
      "git",
      "/bin/sh",
      "../x",
      "",
    ],
    prerequisites: { commands: ["ffmpeg", "a b", 7] },
  });
  deepEqual(commands.commands, [{ name: "git" }, { name: "jq", help: "apt install jq" }, {
    name: "ffmpeg",
  }]);
  deepEqual(commands.refused.map((r) => r.value), ["/bin/sh", "../x", "", "a b", "7"]);
  const files = requiredCredentialFiles({
    required_credential_files: [
      "token.json",
      { path: "./creds//oauth.json", description: "OAuth" },
      "token.json",
      "/etc/passwd",
      "../up.json",
      "a/../../b",
      "~/.ssh/id_rsa",
      "C:/secrets",
      "a\\b",
      "bad\nname",
      ".",
      { description: "no path" },
    ],
  });
  deepEqual(files.files, [{ path: "token.json" }, {
    path: "creds/oauth.json",
    description: "OAuth",
  }]);
  deepEqual(files.refused.map((r) => r.reason), [
    "not relative to the home",
    "has a '..' component",
    "has a '..' component",
    "not relative to the home",
    "not relative to the home",
    "holds a backslash",
    "holds a control character",
    "names the home itself",
    "not a non-empty string",
  ]);
  equal(isCommandName("python3.12"), true);
  for (const bad of ["..", ".", "-rf", "a/b", "x\0", "a".repeat(200)]) {
    equal(isCommandName(bad), false, bad);
  }
  equal(credentialPathProblem("ok/file"), undefined);
});

/** A PATH folder with one executable, one plain file and one folder. */
function binDir(): string {
  const bin = tempDir("skillrt-bin-");
  Deno.writeTextFileSync(`${bin}/mytool`, "#!/bin/sh\n");
  Deno.chmodSync(`${bin}/mytool`, 0o755);
  Deno.writeTextFileSync(`${bin}/notexec`, "x");
  Deno.chmodSync(`${bin}/notexec`, 0o644);
  Deno.mkdirSync(`${bin}/adir`);
  return bin;
}

Deno.test("[V-9] the lookup: executable files in absolute PATH folders; files whose real path stays in the home", () => {
  const bin = binDir();
  const home = makeTree({ "token.json": "{}", "creds/oauth.json": "{}", "adir/x": "" });
  const outside = makeTree({ "secret.json": "{}" });
  try {
    Deno.symlinkSync(`${outside}/secret.json`, `${home}/escape.json`);
    Deno.symlinkSync(`${home}/token.json`, `${home}/inside.json`);
    equal(onPath("mytool", `relative/dir:${bin}`), true);
    deepEqual(["notexec", "adir", "missing"].map((n) => onPath(n, bin)), [false, false, false]);
    equal(onPath("mytool", "relative-only"), false, "a relative PATH entry is not searched");
    deepEqual(
      answerReadiness(
        {
          commands: ["mytool", "../mytool", `${bin}/mytool`, 3],
          files: ["token.json", "creds/oauth.json", "adir", "escape.json", "inside.json", "../x"],
        },
        bin,
        home,
      ),
      { commands: ["mytool"], files: ["token.json", "creds/oauth.json", "inside.json"] },
    );
    deepEqual(answerReadiness("nonsense", bin, home), { commands: [], files: [] });
    equal(credentialPresent(`${home}/token.json`, home), false, "an absolute path is refused");
  } finally {
    removeTrees(bin, home, outside);
  }
});

const SKILL = skill(
  "needs",
  "Needs things.",
  "required_environment_variables: [NEEDS_TOKEN_XYZ]\nrequired_commands: [mytool, missing-tool-xyz, /bin/sh]\nrequired_credential_files:\n  - path: token.json\n    description: The API token\n  - oauth/missing.json\n  - ../../etc/passwd\n  - escape.json\n",
);

function needsHome(): { home: string; bin: string; outside: string; env: Record<string, string> } {
  const bin = binDir();
  const outside = makeTree({ "secret.json": "{}" });
  const home = makeTree({
    "config.yaml": "",
    "token.json": "{}",
    "skills/needs/SKILL.md": SKILL,
    "skills/ready/SKILL.md": skill("ready", "Ready.", "required_commands: [mytool]\n"),
  });
  Deno.symlinkSync(`${outside}/secret.json`, `${home}/escape.json`);
  return { home, bin, outside, env: { PATH: `${bin}:${Deno.env.get("PATH")}` } };
}

const MISSING = {
  required_commands: [{ name: "mytool" }, { name: "missing-tool-xyz" }],
  missing_required_commands: ["missing-tool-xyz"],
  required_credential_files: [
    { path: "token.json", description: "The API token" },
    { path: "oauth/missing.json" },
    { path: "escape.json" },
  ],
  missing_required_credential_files: ["oauth/missing.json", "escape.json"],
  missing_required_environment_variables: ["NEEDS_TOKEN_XYZ"],
  setup_needed: true,
  readiness_status: "setup_needed",
};

Deno.test("[V-9] view and invoke report missing programs and credential files; the Worker is granted nothing for it", async () => {
  const { home, bin, outside, env } = needsHome();
  try {
    const r = await cliJson(["--home", home, "view", "needs"], { env });
    equal(r.code, 0, r.stderr);
    for (const [key, value] of Object.entries(MISSING)) deepEqual(r.json[key], value, key);
    deepEqual(r.json.notes, [
      "required_commands entry '/bin/sh' was not checked: not a bare program name (letters, digits, '.', '_', '+', '-'; no path).",
      "required_credential_files entry '../../etc/passwd' was not checked: has a '..' component.",
    ]);
    const text = await cli(["--home", home, "view", "needs"], { env });
    ok(
      text.stderr.endsWith(
        `setup needed: set NEEDS_TOKEN_XYZ (in the environment or ${home}/.env); install missing-tool-xyz (not on PATH); create oauth/missing.json, escape.json (under ${home}).\n`,
      ),
      text.stderr,
    );
    const ready = await cliJson(["--home", home, "view", "ready"], { env });
    deepEqual([ready.json.setup_needed, ready.json.readiness_status], [false, "available"]);
    const noPath = await cliJson(["--home", home, "view", "ready"], { env: { PATH: "/nowhere" } });
    deepEqual(noPath.json.missing_required_commands, ["mytool"]);
    const invoked = await cliJson(["--home", home, "invoke", "needs"], { env });
    ok(
      (invoked.json.message as string).includes(
        `[Skill setup note: NEEDS_TOKEN_XYZ is not set (in the environment or ${home}/.env); missing-tool-xyz is not on PATH; oauth/missing.json, escape.json are missing under ${home}; the skill still loads, but what needs them will not work until then.]`,
      ),
      invoked.json.message as string,
    );
    const plan = await cliJson(["--home", home, "sandbox", "view"], { env });
    const granted = plan.json.plan as Record<string, string[]>;
    ok(!granted.read.some((p) => p === bin || p.startsWith("/usr")), granted.read.join(","));
    deepEqual([granted.run, granted.env], [[], []]);
    deepEqual(plan.json.answers, [
      "environment values, only for names skills.env_passthrough or a trusted skill's declaration allows",
      "whether programs are on PATH and credential files exist under the home, by stat only",
    ]);
  } finally {
    removeTrees(home, bin, outside);
  }
});

Deno.test("[V-9] doctor lists what each skill still needs and the refused entries", async () => {
  const { home, bin, outside, env } = needsHome();
  try {
    const r = await cliJson(["--home", home, "doctor"], { env });
    equal(r.code, 0, r.stderr);
    deepEqual(r.json.readiness, [
      {
        name: "needs",
        path: `${home}/skills/needs/SKILL.md`,
        readiness_status: "setup_needed",
        missing_required_environment_variables: ["NEEDS_TOKEN_XYZ"],
        missing_required_commands: ["missing-tool-xyz"],
        missing_required_credential_files: ["oauth/missing.json", "escape.json"],
      },
      {
        name: "ready",
        path: `${home}/skills/ready/SKILL.md`,
        readiness_status: "available",
        missing_required_environment_variables: [],
        missing_required_commands: [],
        missing_required_credential_files: [],
      },
    ]);
    const codes = (r.json.diagnostics as { code: string }[]).map((d) => d.code);
    deepEqual(codes.filter((c) => c.startsWith("skill.")), [
      "skill.requirement_refused",
      "skill.requirement_refused",
      "skill.setup_needed",
    ]);
    const text = await cli(["--home", home, "doctor"], { env });
    ok(
      text.stdout.includes(
        "\nSetup needed\n  needs: NEEDS_TOKEN_XYZ (variable), missing-tool-xyz (program), oauth/missing.json (file), escape.json (file)\n",
      ),
      text.stdout,
    );
  } finally {
    removeTrees(home, bin, outside);
  }
});

Deno.test("[V-9] library: looks up in-process from its PATH, or through the readiness option", async () => {
  const { home, bin, outside } = needsHome();
  try {
    const rt = new SkillRuntime({
      home,
      env: (name) => (name === "PATH" ? bin : undefined),
    });
    const view = await rt.view("needs");
    // The library's fields are camelCase; the JSON document's, snake_case.
    const fields = fromJsonDocument(MISSING) as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) {
      deepEqual(view[key as keyof typeof view], value, key);
    }
    const asked: unknown[] = [];
    const probed = new SkillRuntime({
      home,
      readiness: (ask) => {
        asked.push(ask);
        return Promise.resolve({ commands: ask.commands, files: ask.files });
      },
    });
    const all = await probed.view("needs");
    deepEqual(asked, [{
      commands: ["mytool", "missing-tool-xyz"],
      files: ["token.json", "oauth/missing.json", "escape.json"],
    }]);
    deepEqual([all.missingRequiredCommands, all.missingRequiredCredentialFiles], [[], []]);
    // Through a sandbox Worker, this process answers as the warden does (its PATH lacks mytool).
    const boxed = await openSandboxedRuntime({ home }).view("needs");
    deepEqual(boxed.missingRequiredCommands, ["mytool", "missing-tool-xyz"]);
    deepEqual(boxed.missingRequiredCredentialFiles, ["oauth/missing.json", "escape.json"]);
  } finally {
    removeTrees(home, bin, outside);
  }
});

Deno.test("[V-9] MCP skill_view reports readiness through the warden", async () => {
  const { home, bin, outside } = needsHome();
  const client = await connectStdio(home);
  try {
    const view = firstText(
      await client.callTool({ name: "skill_view", arguments: { name: "needs" } }),
    );
    // The server's PATH is the test's: mytool is not on it.
    deepEqual(view.missing_required_commands, ["mytool", "missing-tool-xyz"]);
    deepEqual(view.missing_required_credential_files, ["oauth/missing.json", "escape.json"]);
    equal(view.readiness_status, "setup_needed");
  } finally {
    await client.close();
    removeTrees(home, bin, outside);
  }
});
