import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { planFlags, workerPermissions } from "../../src/warden/plan.ts";
import { planFor } from "../../src/cli/plan_for.ts";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { runInWorker } from "../../src/warden/run_worker.ts";
import { CLI_HOST } from "../../src/cli/worker_host.ts";
import { openSandboxedRuntime } from "../../src/sandbox/sandboxed_runtime.ts";
import { SkillrtError } from "../../src/errors.ts";
import {
  cli,
  cliJson,
  DEMO_HOME,
  makeTree,
  REPO,
  skill,
  testHost,
  usageGrant,
} from "../helpers.ts";

const host = testHost;

Deno.test("[X-1] plan: reading commands read only roots, plugins, bundles, config and .env; nothing else", () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "ext/b/SKILL.md": skill("b", "B"),
    "plugins/p/skills/c/SKILL.md": skill("c", "C"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const real = Deno.realPathSync(home);
  const setup = resolveHomeLayout({ home, host: host(home) });
  const plan = planFor("list", setup);
  deepEqual(plan, {
    command: "list",
    read: [
      `${real}/.env`,
      `${real}/config.yaml`,
      `${real}/ext`,
      `${real}/plugins`,
      `${real}/plugins/p/skills`,
      `${real}/skill-bundles`,
      `${real}/skills`,
    ],
    write: [],
    run: [],
    net: [],
    env: [],
  });
  deepEqual(workerPermissions(plan), {
    read: plan.read,
    write: false,
    run: false,
    net: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  });
  deepEqual(planFlags(plan), [`--allow-read=${plan.read.join(",")}`, "--no-prompt"]);
  deepEqual(planFor("validate", setup, ["/x/y"]).read.includes("/x/y"), true);
});

Deno.test("[X-1] plan: run is granted only to commands that preprocess, only when inline shell is on, only the allow list", () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "config.yaml": "skills:\n  inline_shell: true\n  inline_shell_allow: [date, uname]\n",
  });
  const setup = resolveHomeLayout({ home, host: host(home) });
  deepEqual(planFor("view", setup).run, ["date", "uname"]);
  deepEqual(planFor("list", setup).run, []);
  const off = resolveHomeLayout({
    home: makeTree({ "skills/a/SKILL.md": skill("a", "A") }),
    host: host(home),
  });
  deepEqual(planFor("view", off).run, []);
});

Deno.test("[X-2] sandbox proof: a Worker with a read plan for one folder cannot read outside it or run a program (NotCapable)", async () => {
  const inside = makeTree({ "ok.txt": "fine" });
  const outside = makeTree({ "secret.txt": "no" });
  const worker = new Worker(new URL("../fixtures/probe_worker.ts", import.meta.url), {
    type: "module",
    deno: {
      permissions: workerPermissions({
        command: "probe",
        read: [inside],
        write: [],
        run: [],
        net: [],
        env: [],
      }),
    },
  });
  const result = await new Promise<Record<string, string>>((resolve) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.postMessage({ read: [`${inside}/ok.txt`, `${outside}/secret.txt`], run: "ls" });
  });
  worker.terminate();
  equal(result[`${inside}/ok.txt`], "fine");
  equal(result[`${outside}/secret.txt`], "NotCapable");
  equal(result.run, "NotCapable");
});

Deno.test("[X-2] the CLI reports a denied access as exit 3 naming the path and the sandbox rule, no stack trace", async () => {
  const outside = makeTree({ "secret.txt": "no" });
  const read = await cli([
    "--home",
    DEMO_HOME,
    "sandbox",
    "view",
    "--try-read",
    `${outside}/secret.txt`,
  ]);
  equal(read.code, 3);
  equal(
    read.stderr,
    `skillrt: Not permitted by the sandbox: read access to "${outside}/secret.txt" (the sandbox plan of 'view' reads 7 paths, writes 4 paths and runs no program; see 'skillrt sandbox view').\n`,
  );
  const run = await cliJson(["--home", DEMO_HOME, "sandbox", "list", "--try-run", "ls"]);
  equal(run.code, 3);
  const rule =
    "the sandbox plan of 'list' reads 7 paths, writes nothing and runs no program; see 'skillrt sandbox list'";
  deepEqual(run.json, {
    success: false,
    error: `Not permitted by the sandbox: run access to "ls" (${rule}).`,
    permission: "run",
    target: "ls",
    rule,
  });
  const allowed = await cli([
    "--home",
    DEMO_HOME,
    "sandbox",
    "list",
    "--try-read",
    `${DEMO_HOME}/skills/hello/SKILL.md`,
  ]);
  equal(allowed.code, 0);
  equal(allowed.stdout, `Permitted by the sandbox: read ${DEMO_HOME}/skills/hello/SKILL.md.\n`);
});

Deno.test("[X-3] sandbox prints the plan as JSON and as the equivalent deno run flags", async () => {
  const r = await cliJson(["--home", DEMO_HOME, "sandbox", "view"]);
  equal(r.code, 0);
  const plan = r.json.plan as Record<string, string[]>;
  ok(plan.read.includes(`${DEMO_HOME}/skills`));
  ok(plan.read.includes(`${DEMO_HOME}/external-skills`));
  // [U-1]: the home's one counter file; the external dir is never written.
  deepEqual(plan.write, usageGrant(DEMO_HOME));
  deepEqual([plan.run, plan.net, plan.env], [[], [], []]);
  equal(
    r.json.deno_command,
    `deno run --allow-read=${plan.read.join(",")} --allow-write=${
      plan.write.join(",")
    } --no-prompt ${REPO}/main.ts view`,
  );
  const text = await cli(["--home", DEMO_HOME, "sandbox"]);
  ok(text.stdout.startsWith("Sandbox plan for 'list':\n  read:  "));
  ok(text.stdout.includes(
    "\n  write: (none)\n  run:   (none)\n  net:   (none)\n  env:   (none)\n\nEquivalent:\n  deno run --allow-read=",
  ));
  equal((await cli(["sandbox", "frobnicate"])).code, 2);
});

Deno.test("[X-1] every skill is parsed in the Worker: the warden's outcome comes from a Worker with the plan", async () => {
  const setup = resolveHomeLayout({ home: DEMO_HOME });
  const request = { command: "list", args: [], options: {}, global: { json: true, color: false } };
  const outcome = await runInWorker({ request, setup, plan: planFor("list", setup) }, CLI_HOST);
  equal(outcome.exitCode, 0);
  equal(JSON.parse(outcome.stdout).count, 11);
  // The same request with a plan that cannot read the roots sees no skills, and says why.
  const blind = await runInWorker({
    request: { ...request, command: "doctor" },
    setup,
    plan: { ...planFor("doctor", setup), read: [setup.configFile] },
  }, CLI_HOST);
  const doc = JSON.parse(blind.stdout);
  ok(doc.diagnostics.some((d: { code: string }) => d.code === "walk.not_permitted"));
});

Deno.test("[X-4] a typed call comes back as its result object, no text: a document, or an error's with its code", async () => {
  const setup = resolveHomeLayout({ home: DEMO_HOME });
  const global = { json: true, typed: true, color: false };
  const listed = await runInWorker(
    {
      request: { command: "list", args: [], options: {}, global },
      setup,
      plan: planFor("list", setup),
    },
    CLI_HOST,
  );
  deepEqual([listed.exitCode, listed.stdout, listed.result?.count], [0, "", 11]);
  const missing = await runInWorker({
    request: { command: "view", args: ["no-such-skill"], options: {}, global },
    setup,
    plan: planFor("view", setup),
  }, CLI_HOST);
  deepEqual([missing.exitCode, missing.code, missing.stdout], [1, "not_found", ""]);
  deepEqual([missing.result?.success, missing.result?.error], [
    false,
    "Skill 'no-such-skill' not found.",
  ]);
});

Deno.test("[X-4] openSandboxedRuntime runs the library in a Worker with a computed plan", async () => {
  const rt = openSandboxedRuntime({ home: DEMO_HOME });
  equal((await rt.list()).count, 11);
  equal((await rt.list({ category: "writing" })).count, 2);
  equal((await rt.view("docker-basics")).category, "devops");
  equal((await rt.viewFile("docker-basics", "references/layers.md")).fileType, "md");
  equal((await rt.search("paper")).skills[0].name, "paper-summary");
  equal((await rt.prompt({ format: "markdown" })).format, "markdown");
  deepEqual(rt.plan("list").run, []);
  await rejects(
    () => rt.view("nope"),
    (e: unknown) =>
      e instanceof SkillrtError && e.message === "Skill 'nope' not found." && e.exitCode === 1,
  );
});

Deno.test("[X-4] in-process with narrow permissions, an unreadable root degrades to a diagnostic", async () => {
  const home = makeTree({
    "skills/a/SKILL.md": skill("a", "A"),
    "ext/b/SKILL.md": skill("b", "B"),
    "config.yaml": "skills:\n  external_dirs: [ext]\n",
  });
  const real = Deno.realPathSync(home);
  const script = `import { SkillRuntime } from "${REPO}/mod.ts";
const rt = new SkillRuntime({ home: "${real}" });
console.log(JSON.stringify({ names: (await rt.list()).skills.map((s) => s.name), problems: rt.setup.problems.map((p) => p.code) }));`;
  const file = `${real}/probe.ts`;
  Deno.writeTextFileSync(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--allow-read=${real}/skills,${real}/config.yaml,${file},${REPO}`,
      "--no-prompt",
      "--config",
      `${REPO}/deno.json`,
      file,
    ],
    cwd: real,
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
  deepEqual(JSON.parse(text), { names: ["a"], problems: ["root.not_permitted"] });
});
