/**
 * `sandbox [COMMAND [ARGS…]]` ([X-3]): prints the permission plan of a command — as JSON,
 * and as the equivalent `deno run` flags — and tries a read or a run under it. The
 * command's line is read by that command's own grammar, so `sandbox CMD …` gives exactly
 * the usage errors `CMD …` gives (a required option missing, an unknown option, a missing
 * argument); only a reading command, whose plan holds for any arguments, may be named
 * without them (`sandbox view`). Runs in the warden.
 *
 * @module
 */
import { unknownChoice } from "./command_grammar.ts";
import { UsageError } from "../errors.ts";
import { readEnv } from "../home/host.ts";
import { resolvePath } from "../home/paths.ts";
import { type HomeLayout, resolveHomeLayout } from "../home/layout.ts";
import { type PermissionPlan, planFlags, shellQuote } from "../warden/plan.ts";
import { runInWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "./worker_host.ts";
import { PLANNED_COMMANDS, rowOf, RUNNING_COMMANDS } from "./command_table.ts";
import { respond } from "./render.ts";
import type { Parsed } from "./grammar.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";
import { planOf } from "./planning.ts";
import { runWorkDir } from "./work_dir.ts";
/**
 * What the warden answers a command's Worker without granting it anything: the Worker
 * asks, the warden looks (by name, under the rule named) and replies.
 */
export const WARDEN_ANSWERS: readonly string[] = [
  "environment values, only for names skills.env_passthrough or a trusted skill's declaration allows",
  "whether programs are on PATH and credential files exist under the home, by stat only",
];

/** This CLI's `main.ts` as a path one can run from anywhere (as named when not a local file). */
function mainModule(): string {
  const url = new URL("../../main.ts", import.meta.url);
  return url.protocol === "file:" ? decodeURIComponent(url.pathname) : "main.ts";
}

/** The `sandbox` document ([X-3]): the plan, what the warden answers, and the equivalent `deno run` command. */
export function sandboxDocument(plan: PermissionPlan, args: string[] = []) {
  const flags = planFlags(plan);
  return {
    success: true as const,
    command: plan.command,
    plan: { read: plan.read, write: plan.write, run: plan.run, net: plan.net, env: plan.env },
    answers: PLANNED_COMMANDS.includes(plan.command) ? [...WARDEN_ANSWERS] : [],
    flags,
    deno_command: ["deno", "run", ...flags, mainModule(), plan.command, ...args].map(shellQuote)
      .join(" "),
  };
}

function sandboxText(doc: ReturnType<typeof sandboxDocument>): string {
  const lines = [`Sandbox plan for '${doc.command}':`];
  for (const [kind, list] of Object.entries(doc.plan)) {
    const label = `  ${kind}:`.padEnd(9);
    if (list.length === 0) lines.push(`${label}(none)`);
    else list.forEach((item, i) => lines.push(`${i === 0 ? label : " ".repeat(9)}${item}`));
  }
  lines.push("", "Equivalent:", `  ${doc.deno_command}`);
  if (doc.answers.length) {
    lines.push(
      "",
      "Answered by the warden, granting nothing:",
      ...doc.answers.map((a) => `  ${a}`),
    );
  }
  return lines.join("\n");
}

/** Content that passes validation, standing in for the real content when `sandbox` only plans. */
function placeholderContent(kind: "skill" | "file", name: string): string {
  return kind === "file" ? "plan" : `---\nname: ${name}\ndescription: plan\n---\n\nplan\n`;
}

/** The plan `sandbox mcp [--allow-writes] [--allow-run] [--http --host H --port P]` shows ([T-3]). */
async function sandboxMcpPlan(
  setup: HomeLayout,
  options: CommandRequest["options"],
): Promise<PermissionPlan> {
  const { mcpPlan } = await import("./mcp_relay.ts");
  const { checkMcpOptions, listenOf } = await import("./mcp_http_relay.ts");
  checkMcpOptions(options);
  const allowWrites = options.allowWrites === true;
  const work = runWorkDir(options, setup.host.cwd);
  if (options.http !== true) return mcpPlan(setup, allowWrites, undefined, undefined, work);
  const listen = listenOf(options);
  return mcpPlan(setup, allowWrites, undefined, listen.grant, work);
}

/** The line of the command `sandbox` plans: its words, options among them (`list` by default). */
function plannedLine(request: CommandRequest): string[] {
  return request.args.length ? request.args : ["list"];
}

/**
 * The request `sandbox` plans, read by the planned command's own grammar: its usage
 * errors are thrown as they are when it runs. Global options given on its line (`--json`,
 * `--agent`) count as given to `sandbox`.
 */
async function plannedRequest(
  request: CommandRequest,
  line: string[],
): Promise<CommandRequest | Outcome> {
  const { parseArgs } = await import("./program.ts");
  let inner: Parsed;
  try {
    inner = parseArgs(line, "", readEnv, false, true);
  } catch (error) {
    // Read again by the command's own grammar: its very error and usage line.
    if (error instanceof UsageError) parseArgs(line, "", readEnv, false);
    throw error;
  }
  if (inner.kind === "print") return { exitCode: 0, stdout: inner.text, stderr: "" };
  const given = inner.request.global;
  return {
    ...inner.request,
    global: {
      ...request.global,
      json: request.global.json || given.json,
      ...(given.agents ? { agents: [...request.global.agents ?? [], ...given.agents] } : {}),
    },
  };
}

/** `sandbox [COMMAND [ARGS…]] [--try-read PATH] [--try-run PROGRAM]`. */
export async function sandbox(request: CommandRequest, setup: HomeLayout): Promise<Outcome> {
  const target = request.args[0] ?? "list";
  if (!PLANNED_COMMANDS.includes(target)) {
    throw unknownChoice("sandbox command", target, PLANNED_COMMANDS);
  }
  const line = plannedLine(request);
  const planned = await plannedRequest(request, line);
  if ("exitCode" in planned) return planned;
  if (planned.global.agents !== request.global.agents) {
    setup = resolveHomeLayout({ home: request.global.home, agents: planned.global.agents });
  }
  const content = rowOf(target)?.content;
  if (content) {
    planned.options.content = placeholderContent(content, planned.args[0] ?? "x");
  }
  const found = target === "mcp"
    ? { plan: await sandboxMcpPlan(setup, planned.options) }
    : await planOf(planned, setup);
  if ("outcome" in found) return found.outcome;
  if (RUNNING_COMMANDS.includes(target) && planned.args.length >= 2) {
    // `sandbox run NAME PATH` ([RUN-4]): the script's exact line, worked out in its Worker.
    const show = { ...planned, options: { ...planned.options, show: true } };
    return await runInWorker({ request: show, setup, plan: found.plan }, CLI_HOST);
  }
  const { tryRead, tryRun } = request.options;
  if (typeof tryRead === "string" || typeof tryRun === "string") {
    const probe: CommandRequest = {
      ...request,
      command: "probe",
      options: {
        tryRead: typeof tryRead === "string" ? resolvePath(setup.host.cwd, tryRead) : undefined,
        tryRun,
      },
    };
    return await runInWorker({ request: probe, setup, plan: found.plan }, CLI_HOST);
  }
  const doc = sandboxDocument(found.plan, line.slice(1));
  return respond(planned.global, doc, () => sandboxText(doc));
}
