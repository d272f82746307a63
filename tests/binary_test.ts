import { deepEqual, equal, ok } from "node:assert/strict";
import { compileArgs } from "../scripts/compile.ts";
import { DEMO_HOME, makeTree, REPO, usageGrant } from "./helpers.ts";

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

/** Builds dist/skillrt when a denort runtime is at hand (DENORT_BIN); otherwise says why not. */
async function binary(): Promise<Runner | string> {
  const denort = Deno.env.get("DENORT_BIN");
  if (!denort) return "DENORT_BIN is not set and Deno's denort runtime cannot be downloaded here";
  const out = `${Deno.makeTempDirSync()}/skillrt`;
  const built = await exec(Deno.execPath(), compileArgs(out));
  if (built.code !== 0) return `deno compile failed: ${built.stderr.trim().split("\n").at(-1)}`;
  return { label: "compiled dist/skillrt", run: (args) => exec(out, args) };
}

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
  const denied = await runner.run([
    "--home",
    DEMO_HOME,
    "sandbox",
    "view",
    "--try-read",
    `${outside}/secret.txt`,
  ]);
  equal(denied.code, 3);
}

Deno.test("[X-5] smoke: list, view and sandbox through deno task skillrt and, when it can be built, the compiled binary", async () => {
  await smoke(task);
  const bin = await binary();
  if (typeof bin === "string") console.log(`binary smoke test skipped: ${bin}`);
  else await smoke(bin);
});

Deno.test("[X-5] deno task compile explains in one line why it cannot build without denort", async () => {
  if (Deno.env.get("DENORT_BIN")) return; // It can build: the smoke test above covers the binary.
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
});

Deno.test("[X-5] the binary embeds every Worker module a command may start", () => {
  const args = compileArgs("dist/x");
  const included = args.flatMap((a, i) => (args[i - 1] === "--include" ? [a] : []));
  deepEqual(included, ["src/sandbox/worker.ts", "src/scan/scan_helper.ts"]);
  const modules = [
    ...Deno.readTextFileSync(`${REPO}/src/sandbox/run_worker.ts`).matchAll(
      /new Worker\(new URL\("([^"]+)"/g,
    ),
  ].map((m) => new URL(m[1], `file://${REPO}/src/sandbox/`).pathname.slice(REPO.length + 1));
  deepEqual(modules.sort(), [...included].sort(), "each Worker run_worker.ts starts is included");
});
