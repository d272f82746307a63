/**
 * `deno task conformance` ([IO-4]): runs the official MCP conformance suite
 * (`npm:@modelcontextprotocol/conformance`, pinned below) against `skillrt mcp --http`
 * on a free loopback port, over a temporary home, one generic server scenario at a time;
 * reads each scenario's `checks.json`, stops the server by its PID, removes what it made,
 * and ends with the line `N passed, N failed` (exit 1 when any scenario failed).
 *
 * The suite's other server scenarios call its own fixtures — tools, prompts and resources
 * named `test_*` and `test://…` that a conformance test server defines — so they are not
 * applicable to a skill server; {@linkcode NOT_APPLICABLE} names each with the reason.
 *
 * @module
 */
import { WARDEN_FLAGS } from "../src/warden/warden_flags.ts";

/** The suite, pinned (`.ci/run` caches it first, so a cold machine works). */
export const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";

/** The generic server scenarios, which must pass. */
export const SCENARIOS: readonly string[] = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "completion-complete",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];

/** The scenarios that need the suite's own fixtures, and why they do not apply. */
export const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  "tools-call-simple-text": "calls the suite's tool test_simple_text",
  "tools-call-image": "calls the suite's tool test_image_content",
  "tools-call-audio": "calls the suite's tool test_audio_content",
  "tools-call-embedded-resource": "calls the suite's tool test_embedded_resource",
  "tools-call-mixed-content": "calls the suite's tool test_multiple_content_types",
  "tools-call-with-logging": "calls the suite's tool test_tool_with_logging",
  "tools-call-error": "calls the suite's tool test_error_handling",
  "tools-call-with-progress": "calls the suite's tool test_tool_with_progress",
  "tools-call-sampling": "calls the suite's tool test_sampling (skillrt asks no sampling)",
  "tools-call-elicitation": "calls the suite's tool test_elicitation (skillrt elicits nothing)",
  "elicitation-sep1034-defaults": "calls the suite's tool test_elicitation_sep1034_defaults",
  "elicitation-sep1330-enums": "calls the suite's tool test_elicitation_sep1330_enums",
  "json-schema-2020-12": "reads the suite's tool json_schema_2020_12_tool",
  "server-sse-polling":
    "calls the suite's tool test_reconnection (and skillrt answers POSTs as JSON, not SSE)",
  "resources-read-text": "reads the suite's resource test://static-text",
  "resources-read-binary": "reads the suite's resource test://static-binary",
  "resources-templates-read": "reads the suite's template test://template/{id}/data",
  "resources-subscribe":
    "subscribes to the suite's test://watched-resource (skillrt sends list_changed, no subscriptions)",
  "resources-unsubscribe": "unsubscribes from the suite's test://watched-resource",
  "prompts-get-simple": "gets the suite's prompt test_simple_prompt",
  "prompts-get-with-args": "gets the suite's prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "gets the suite's prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "gets the suite's prompt test_prompt_with_image",
};

const REPO = new URL("..", import.meta.url).pathname;

/** A port no one listens on now (the kernel's choice, freed at once). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A home of a few skills: one takes a skill name as its argument (completions). */
function makeHome(): string {
  const home = Deno.makeTempDirSync({ prefix: "skillrt-conformance-" });
  const skills: Record<string, string> = {
    "docker-basics": "description: Containers.\nwhen_to_use: When a Dockerfile is in sight.",
    "review": 'description: Review a change.\nargument-hint: "[skill] [--strict]"',
    "deploy": "description: Ship it.\ndisable-model-invocation: true",
  };
  for (const [name, fields] of Object.entries(skills)) {
    Deno.mkdirSync(`${home}/skills/${name}`, { recursive: true });
    Deno.writeTextFileSync(
      `${home}/skills/${name}/SKILL.md`,
      `---\nname: ${name}\n${fields}\n---\n\n# ${name}\n\nSteps.\n`,
    );
  }
  return home;
}

/** Drains a stream into a list of chunks (so a child never blocks on a full pipe). */
async function drain(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.push(decoder.decode(chunk, { stream: true }));
}

/** Waits until the server answers on `url` (any HTTP answer), for at most `seconds`. */
async function waitFor(url: string, child: Deno.ChildProcess, seconds: number): Promise<void> {
  let exited = false;
  child.status.then(() => (exited = true));
  for (let i = 0; i < seconds * 10 && !exited; i++) {
    try {
      const res = await fetch(url, { method: "GET" });
      await res.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(exited ? "the server exited before listening" : `no answer from ${url}`);
}

/** The suite's verdict on one scenario: passed when a check succeeded and none failed. */
async function runScenario(url: string, scenario: string, out: string): Promise<string[]> {
  const dir = `${out}/${scenario}`;
  const { host } = new URL(url);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      // Third-party code: the server's address, its own output folder, nothing more.
      `--allow-net=${host}`,
      "--allow-read",
      `--allow-write=${out}`,
      "--allow-env",
      "--allow-sys",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      SUITE,
      "server",
      "--url",
      url,
      "--scenario",
      scenario,
      "-o",
      dir,
    ],
    cwd: out,
    stdout: "null",
    stderr: "null",
  }).output();
  const problems: string[] = [];
  const found = [...Deno.readDirSync(dir)].find((e) => e.isDirectory);
  if (!found) return [`the suite wrote no results (exit ${code})`];
  const checks = JSON.parse(Deno.readTextFileSync(`${dir}/${found.name}/checks.json`)) as {
    id: string;
    status: string;
    errorMessage?: string;
  }[];
  for (const c of checks) {
    if (c.status === "FAILURE") problems.push(`${c.id}: ${c.errorMessage ?? "failed"}`);
  }
  if (!checks.some((c) => c.status === "SUCCESS")) problems.push("no check succeeded");
  return problems;
}

/** Stops the server by its PID: SIGTERM, then SIGKILL should it still run after 10 s. */
async function stop(server: Deno.ChildProcess): Promise<void> {
  const signal = (name: Deno.Signal) => {
    try {
      Deno.kill(server.pid, name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), 10_000)));
  if (await Promise.race([server.status, late]) === "late") signal("SIGKILL");
  clearTimeout(timer);
  await server.status;
}

async function main(): Promise<number> {
  const home = makeHome();
  const out = Deno.makeTempDirSync({ prefix: "skillrt-conformance-out-" });
  const port = freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...WARDEN_FLAGS,
      `${REPO}main.ts`,
      "--home",
      home,
      "mcp",
      "--http",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  const drained = Promise.all([drain(server.stdout, log), drain(server.stderr, log)]);
  let passed = 0;
  let failed = 0;
  try {
    await waitFor(url, server, 60);
    for (const scenario of SCENARIOS) {
      const problems = await runScenario(url, scenario, out);
      if (problems.length === 0) passed++;
      else failed++;
      console.log(
        `${problems.length ? "FAIL" : "ok  "} ${scenario}${
          problems.map((p) => `\n     ${p}`).join("")
        }`,
      );
    }
  } catch (error) {
    failed++;
    console.log(`FAIL starting the server: ${error instanceof Error ? error.message : error}`);
    console.log(log.join("").split("\n").slice(-20).join("\n"));
  } finally {
    await stop(server);
    await drained;
    Deno.removeSync(home, { recursive: true });
    Deno.removeSync(out, { recursive: true });
  }
  for (const [scenario, why] of Object.entries(NOT_APPLICABLE)) {
    console.log(`n/a  ${scenario}: ${why}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
