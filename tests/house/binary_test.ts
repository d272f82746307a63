import { deepEqual, equal, ok } from "node:assert/strict";
import { compileArgs } from "../../scripts/compile.ts";
import { DEMO_HOME, makeTree, removeTrees, REPO, usageGrant } from "../helpers.ts";

type Runner = {
  label: string;
  run: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
};

async function exec(cmd: string, args: string[]) {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** `deno task skillrt`, exactly as users run it. */
const task: Runner = {
  label: "deno task skillrt",
  run: (args) => exec(Deno.execPath(), ["task", "-q", "skillrt", ...args]),
};

/** The local denort runtime `deno compile` needs here (no network to download one). */
const DENORT = Deno.env.get("DENORT_BIN");
/** Why the compiled-binary test is ignored: no denort runtime at hand. */
const NO_DENORT =
  "ignored: DENORT_BIN is not set and Deno's denort runtime cannot be downloaded here";

async function smoke(runner: Runner) {
  const list = await runner.run(["--home", DEMO_HOME, "list", "--json"]);
  equal(list.code, 0, `${runner.label}: ${list.stderr}`);
  const doc = JSON.parse(list.stdout);
  equal(doc.count, 11);
  deepEqual(doc.categories, ["devops", "research", "writing"]);
  const view = await runner.run(["--home", DEMO_HOME, "view", "docker-basics", "--json"]);
  equal(JSON.parse(view.stdout).linked_files.references[0], "references/layers.md");
  const sandbox = JSON.parse(
    (await runner.run(["--home", DEMO_HOME, "sandbox", "view", "--json"])).stdout,
  );
  ok(sandbox.plan.read.includes(`${DEMO_HOME}/skills`));
  deepEqual(sandbox.plan.write, usageGrant(DEMO_HOME));
  deepEqual([sandbox.plan.run, sandbox.plan.net, sandbox.plan.env], [[], [], []]);
  const outside = makeTree({ "secret.txt": "x" });
  try {
    const denied = await runner.run([
      "--home",
      DEMO_HOME,
      "sandbox",
      "view",
      "--try-read",
      `${outside}/secret.txt`,
    ]);
    equal(denied.code, 3);
  } finally {
    removeTrees(outside);
  }
}

Deno.test("[X-5] smoke: list, view and sandbox through deno task skillrt", async () => {
  await smoke(task);
});

const binaryTest = "[X-5] smoke: list, view and sandbox through the compiled binary";
Deno.test({
  // Where DENORT_BIN is set, the binary must build: a failed build fails this test.
  name: DENORT ? binaryTest : `${binaryTest} (${NO_DENORT})`,
  ignore: !DENORT,
  fn: async () => {
    const dir = Deno.makeTempDirSync({ prefix: "skillrt-test-" });
    try {
      const out = `${dir}/skillrt`;
      const built = await exec(Deno.execPath(), compileArgs(out));
      equal(built.code, 0, `deno compile failed with DENORT_BIN=${DENORT}: ${built.stderr}`);
      await smoke({ label: "compiled dist/skillrt", run: (args) => exec(out, args) });
    } finally {
      removeTrees(dir);
    }
  },
});

const compileTest =
  "[X-5] deno task compile explains in one line why it cannot build without denort";
Deno.test({
  name: DENORT ? `${compileTest} (ignored: DENORT_BIN is set, so it can build)` : compileTest,
  ignore: !!DENORT,
  fn: async () => {
    const r = await exec(Deno.execPath(), ["task", "-q", "compile"]);
    equal(r.code, 1);
    const lines = r.stderr.trim().split("\n");
    equal(lines.length, 1);
    ok(
      lines[0].startsWith(
        "skillrt: cannot build dist/skillrt: deno compile needs Deno's denort runtime",
      ),
      lines[0],
    );
  },
});

Deno.test("[X-5] the binary embeds every Worker module a command may start", () => {
  const args = compileArgs("dist/x");
  const included = args.flatMap((a, i) => (args[i - 1] === "--include" ? [a] : []));
  deepEqual(included, [
    "src/cli/command_worker.ts",
    "src/cli/mcp_worker.ts",
    "src/scan/scan_helper.ts",
    "src/scan/watch_helper.ts",
  ]);
  // The warden starts the helpers itself and a command's Worker from the CLI's entries.
  const started = (file: string, pattern: RegExp) =>
    [...Deno.readTextFileSync(`${REPO}/${file}`).matchAll(pattern)].map((m) =>
      new URL(m[1], `file://${REPO}/${file}`).pathname.slice(REPO.length + 1)
    );
  const modules = [
    ...started("src/warden/run_worker.ts", /new Worker\(new URL\("([^"]+)"/g),
    ...started("src/cli/worker_host.ts", /"(\.\/[a-z_]+_worker\.ts)"/g),
  ];
  deepEqual(modules.sort(), [...included].sort(), "each Worker the warden starts is included");
});
