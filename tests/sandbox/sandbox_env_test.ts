// [P-7]: environment values reach a skill's output only by name and only on a ground the
// user gave: a `${VAR}` the user wrote in config.yaml, a name in skills.env_passthrough,
// or a name a skill not of community trust declares. Each attack runs against the real
// CLI (the warden and its Worker) with a secret in the CLI's environment.
import { deepEqual, equal, ok } from "node:assert/strict";
import { answerEnv } from "../../src/warden/run_worker.ts";
import { defaultConfig, parseConfig } from "../../src/home/config.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cli, cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

const SECRET = "s3cr3t-CANARY-value-9f1c";
const configOf = (defaults: Record<string, string>, declared: string[] = []) =>
  (declared.length ? `required_environment_variables: [${declared.join(", ")}]\n` : "") +
  "metadata:\n  hermes:\n    config:\n" +
  Object.entries(defaults).map(([k, v]) => `      - key: ${k}\n        default: "${v}"\n`).join("");

/** Packs a skill folder into a .tar.gz outside the home: `hub install` gives it community trust. */
async function communityArchive(dir: string, skillText: string): Promise<string> {
  makeTree({ "leaky/SKILL.md": skillText }, dir);
  const out = await new Deno.Command("tar", {
    args: ["-czf", `${dir}/leaky.tar.gz`, "-C", dir, "leaky"],
  }).output();
  equal(out.success, true);
  return `${dir}/leaky.tar.gz`;
}

function assertNoSecret(...outputs: string[]) {
  for (const out of outputs) ok(!out.includes(SECRET), `the secret leaked: ${out}`);
}

Deno.test("[P-7] a community skill's config default ${SECRET_VAR} is left as written, with a note naming the variable; declaring it does not help", async () => {
  const work = Deno.makeTempDirSync({ prefix: "skillrt-test-" });
  try {
    const home = makeTree({ "skills/.keep": "" }, `${work}/home`);
    const text = skill(
      "leaky",
      "Leaky",
      configOf({ key: "${SECRET_VAR}", where: "${USER}/x" }, ["SECRET_VAR"]),
    );
    const file = await communityArchive(`${work}/src`, text);
    const installed = await cliJson(["--home", home, "hub", "install", file, "--yes"]);
    equal(installed.code, 0, installed.stderr);
    equal(installed.json.trust_level, "community");
    const env = { SECRET_VAR: SECRET, USER: "someone" };
    const view = await cliJson(["--home", home, "view", "leaky"], { env });
    equal(view.code, 0, view.stderr);
    deepEqual(view.json.config, { key: "${SECRET_VAR}", where: "someone/x" });
    deepEqual(view.json.notes, [
      "Config 'key' of skill 'leaky': ${SECRET_VAR} was left as written: skill 'leaky' has community trust, so only names in skills.env_passthrough expand ([P-7]).",
    ]);
    const text1 = await cli(["--home", home, "view", "leaky"], { env });
    const invoke = await cli(["--home", home, "invoke", "leaky"], { env });
    equal(text1.code, 0);
    ok(text1.stderr.includes("note: Config 'key' of skill 'leaky': ${SECRET_VAR} was left"));
    ok(invoke.stdout.includes("  key = ${SECRET_VAR}\n"), invoke.stdout);
    assertNoSecret(view.stdout, view.stderr, text1.stdout, text1.stderr, invoke.stdout);
    // The user's own config.yaml may name the variable: that expands, whoever the skill is.
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  config:\n    key: ${SECRET_VAR}\n");
    const mine = await cliJson(["--home", home, "view", "leaky"], { env });
    deepEqual(mine.json.config, { key: SECRET, where: "someone/x" });
    // A hub lock that does not parse: whether it came from the hub is unknown, so no secret.
    Deno.writeTextFileSync(`${home}/config.yaml`, "");
    Deno.writeTextFileSync(`${home}/skills/.hub/lock.json`, "{not json");
    const unknown = await cliJson(["--home", home, "view", "leaky"], { env });
    deepEqual(unknown.json.config, { key: "${SECRET_VAR}", where: "someone/x" });
    assertNoSecret(unknown.stdout, unknown.stderr);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
});

Deno.test("[P-7] a local skill: declared names and env_passthrough names expand, others stay as written", async () => {
  const home = makeTree({
    "skills/declares/SKILL.md": skill(
      "declares",
      "D",
      configOf({ key: "${SECRET_VAR}" }, ["SECRET_VAR"]),
    ),
    "skills/sneaky/SKILL.md": skill(
      "sneaky",
      "S",
      configOf({ key: "${SECRET_VAR}", pass: "${MY_PASS}", user: "${USER}" }),
    ),
  });
  try {
    const env = { SECRET_VAR: SECRET, MY_PASS: "passed", USER: "someone" };
    const declares = await cliJson(["--home", home, "view", "declares"], { env });
    deepEqual(declares.json.config, { key: SECRET });
    equal(declares.json.notes, undefined);
    const sneaky = await cliJson(["--home", home, "view", "sneaky"], { env });
    deepEqual(sneaky.json.config, {
      key: "${SECRET_VAR}",
      pass: "${MY_PASS}",
      user: "someone",
    });
    deepEqual(sneaky.json.notes, [
      "Config 'key' of skill 'sneaky': ${SECRET_VAR} was left as written: SECRET_VAR is not in skills.env_passthrough and skill 'sneaky' does not declare it in required_environment_variables ([P-7]).",
      "Config 'pass' of skill 'sneaky': ${MY_PASS} was left as written: MY_PASS is not in skills.env_passthrough and skill 'sneaky' does not declare it in required_environment_variables ([P-7]).",
    ]);
    assertNoSecret(sneaky.stdout, sneaky.stderr);
    Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  env_passthrough: [MY_PASS]\n");
    const passed = await cliJson(["--home", home, "view", "sneaky"], { env });
    // The user's list replaces the default one: USER is no longer passed through.
    deepEqual(passed.json.config, { key: "${SECRET_VAR}", pass: "passed", user: "${USER}" });
    assertNoSecret(passed.stdout, passed.stderr);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[P-7] the warden answers only asks whose ground holds: passthrough names, the user's config names, declared valid names", () => {
  const config = parseConfig(
    "skills:\n  env_passthrough: [PASS_ME]\n  config:\n    a:\n      b: x-${USER_WROTE}-y\n",
  ).config;
  const env = (name: string) => `value-of-${name}`;
  const asks = [
    { name: "PASS_ME", why: "passthrough" },
    { name: "SECRET_VAR", why: "passthrough" },
    { name: "USER_WROTE", why: "config" },
    { name: "NOT_WRITTEN", why: "config" },
    { name: "DECLARED_ONE", why: "declared" },
    { name: "BAD-NAME", why: "declared" },
    { name: "", why: "declared" },
    { name: "9X", why: "declared" },
    { name: "ANYTHING", why: "because" },
    { name: "NO_GROUND" },
    "JUST_A_NAME",
  ];
  deepEqual(answerEnv(7, asks, config, env), {
    kind: "env",
    id: 7,
    values: {
      PASS_ME: "value-of-PASS_ME",
      USER_WROTE: "value-of-USER_WROTE",
      DECLARED_ONE: "value-of-DECLARED_ONE",
    },
  });
  // An old-style question (a bare list of names) gets nothing.
  deepEqual(answerEnv(8, ["HOME", "SECRET_VAR"], defaultConfig(), env).values, {});
  deepEqual(answerEnv(9, undefined, defaultConfig(), env).values, {});
  deepEqual(
    answerEnv(10, [{ name: "HOME", why: "passthrough" }], defaultConfig(), env).values,
    { HOME: "value-of-HOME" },
  );
});

Deno.test("[P-7] the library applies the same rule: a community skill in-process gets no secret, and envValues drops asks whose ground fails", async () => {
  const home = makeTree({
    "skills/leaky/SKILL.md": skill(
      "leaky",
      "L",
      configOf({ key: "${SECRET_VAR}" }, ["SECRET_VAR"]),
    ),
    "skills/.hub/lock.json": JSON.stringify({
      version: 1,
      installed: { leaky: { trust_level: "community", install_path: "leaky" } },
    }),
  });
  try {
    const env = (name: string) => name === "SECRET_VAR" ? SECRET : undefined;
    const rt = new SkillRuntime({ home, host: testHost(home), env });
    const view = await rt.view("leaky");
    deepEqual(view.config, { key: "${SECRET_VAR}" });
    assertNoSecret(JSON.stringify(view));
    deepEqual(await rt.envValues([{ name: "SECRET_VAR", why: "passthrough" }]), {});
    deepEqual(await rt.envValues([{ name: "SECRET_VAR", why: "config" }]), {});
    deepEqual(await rt.envValues([{ name: "SECRET_VAR", why: "declared" }]), {
      SECRET_VAR: SECRET,
    });
    // Trusted by the lock: the declared name expands.
    Deno.writeTextFileSync(
      `${home}/skills/.hub/lock.json`,
      JSON.stringify({
        version: 1,
        installed: { leaky: { trust_level: "trusted", install_path: "leaky" } },
      }),
    );
    deepEqual((await rt.view("leaky")).config, { key: SECRET });
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("[H-2][P-7] skills.env_passthrough: default list, a user list, invalid names noted and dropped", () => {
  deepEqual(defaultConfig().env_passthrough, [
    "HOME",
    "USER",
    "LANG",
    "TMPDIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
  ]);
  const parsed = parseConfig("skills:\n  env_passthrough: [A_B, 'bad name', C]\n", "c.yaml");
  deepEqual(parsed.config.env_passthrough, ["A_B", "C"]);
  deepEqual(parsed.problems.map((p) => p.message), [
    "'skills.env_passthrough' names invalid variables (bad name); they were ignored.",
  ]);
});

Deno.test("[P-7] a skill of an external dir cannot name a variable of its own; the local root's can", async () => {
  const declaring = (name: string) =>
    skill(
      name,
      "d",
      'required_environment_variables: [SECRET_TOKEN]\nmetadata: {hermes: {config: [{key: a, description: a, default: "${SECRET_TOKEN}"}]}}\n',
    );
  const home = makeTree({
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
    "ext/cloned/SKILL.md": declaring("cloned"),
    "skills/own/SKILL.md": declaring("own"),
  });
  try {
    const env = { SECRET_TOKEN: "TOPSECRET-1234" };
    const cloned = await cliJson(["--home", home, "view", "cloned"], { env });
    equal(cloned.code, 0, cloned.stderr);
    equal((cloned.json.config as Record<string, string>).a, "${SECRET_TOKEN}");
    ok(!JSON.stringify(cloned.json).includes("TOPSECRET-1234"));
    const own = await cliJson(["--home", home, "view", "own"], { env });
    equal((own.json.config as Record<string, string>).a, "TOPSECRET-1234");
  } finally {
    removeTrees(home);
  }
});
