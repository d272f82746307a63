/**
 * The warden ([X-1]): parses the command line, reads config.yaml, computes the command's
 * permission plan and runs the command in a Worker holding exactly that plan. Commands
 * that parse no skill content (`sandbox`: `sandbox_command.ts`; `completions`) run here.
 *
 * @module
 */
import { NotFoundError } from "../errors.ts";
import { readEnv } from "../home/host.ts";
import { ensureSkeleton } from "../warden/skeleton.ts";
import { type HomeLayout, resolveHomeLayout } from "../home/layout.ts";
import { isWriting, rowOf, SKILL_HELP_COMMANDS, type WardenCommandName } from "./command_table.ts";
import { runInWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "./worker_host.ts";
import { dropScratch, withSandboxHost } from "./run_host.ts";
import { quickParse } from "./quick_parse.ts";
import { terminalOutcome } from "./terminal_text.ts";
import { failure, outcomeOfError } from "./render.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";
import { planOf, skeletonOf } from "./planning.ts";

/** Options of {@linkcode runCli}. */
export interface CliOptions {
  /** The command's Worker writes its stdout itself; the outcome then carries none. */
  writeStdout?: boolean;
}

/**
 * Runs the CLI for `argv` and returns what to print (control characters from skill
 * content made visible in text output, [X-7]); never throws.
 */
export async function runCli(
  argv: string[],
  version: string,
  options: CliOptions = {},
): Promise<Outcome> {
  const seen: { request?: CommandRequest } = {};
  const outcome = await runParsed(argv, version, options, seen);
  const global = seen.request?.global ?? { json: argv.includes("--json"), color: false };
  return terminalOutcome(outcome, global);
}

async function runParsed(
  argv: string[],
  version: string,
  options: CliOptions,
  seen: { request?: CommandRequest },
): Promise<Outcome> {
  let request: CommandRequest | undefined;
  try {
    const terminal = Deno.stdout.isTerminal();
    // The usual lines skip commander (and the Node layer it loads); the rest go through it.
    const parsed = quickParse(argv, readEnv, terminal) ??
      (await import("./program.ts")).parseArgs(argv, version, readEnv, terminal);
    if (parsed.kind === "print") {
      const help = await skillHelp(argv, parsed.text, version, terminal);
      if (!help) return { exitCode: 0, stdout: parsed.text, stderr: "" };
      request = seen.request = help;
      return await runRequest(request, version, options);
    }
    request = seen.request = parsed.request;
    return await runRequest(request, version, options);
  } catch (error) {
    return outcomeOfError(error, request?.global ?? { json: argv.includes("--json") });
  }
}

/**
 * `invoke NAME --help` ([IO-3]; a row with `skillHelp`): the command's help and the skill's
 * `argument-hint`, which only a Worker may read — the line parsed again without the help
 * flag, the help text handed to the command. Undefined for any other help.
 */
async function skillHelp(
  argv: string[],
  text: string,
  version: string,
  terminal: boolean,
): Promise<CommandRequest | undefined> {
  const dash = argv.indexOf("--");
  const before = dash === -1 ? argv : argv.slice(0, dash);
  if (!before.some((a) => a === "--help" || a === "-h")) return undefined;
  const rest = argv.filter((a, i) => (dash !== -1 && i > dash) || (a !== "--help" && a !== "-h"));
  try {
    const parsed = (await import("./program.ts")).parseArgs(rest, version, readEnv, terminal);
    if (parsed.kind !== "command" || !SKILL_HELP_COMMANDS.includes(parsed.request.command)) {
      return undefined;
    }
    if (parsed.request.args.length === 0) return undefined;
    return { ...parsed.request, options: { ...parsed.request.options, helpText: text } };
  } catch {
    return undefined;
  }
}

/** The commands of the table without a module: the warden runs them itself. */
const IN_WARDEN: Readonly<
  Record<WardenCommandName, (request: CommandRequest) => Promise<Outcome>>
> = {
  completions: async (request) => {
    const { completionScript } = await import("./completions.ts");
    return { exitCode: 0, stdout: completionScript(request.args[0]), stderr: "" };
  },
  sandbox: async (request) =>
    (await import("./sandbox_command.ts")).sandbox(request, setupOf(request)),
};

/** The setup of a request (with the machine's sandboxes for the commands that look at them). */
const setupOf = (request: CommandRequest): HomeLayout =>
  withSandboxHost(
    request,
    resolveHomeLayout({ home: request.global.home, agents: request.global.agents }),
  );

/** Runs a parsed request, then removes its scratch folder (the snapshots of skills it ran). */
async function runRequest(
  request: CommandRequest,
  version: string,
  options: CliOptions,
): Promise<Outcome> {
  try {
    return await runRequestHere(request, version, options);
  } finally {
    dropScratch(request);
  }
}

/** Runs a parsed request: here in the warden (see `IN_WARDEN`, and MCP's relay), else in its Worker. */
async function runRequestHere(
  request: CommandRequest,
  version: string,
  options: CliOptions,
): Promise<Outcome> {
  if (Object.hasOwn(IN_WARDEN, request.command)) {
    return await IN_WARDEN[request.command as WardenCommandName](request);
  }
  let setup: HomeLayout = setupOf(request);
  const explicitHome = request.global.home !== undefined;
  if (request.command === "mcp") {
    (await import("./mcp_http_relay.ts")).checkMcpOptions(request.options);
    // Made the skeleton: set up again, with the machine's sandboxes (`--allow-run`).
    if (ensureSkeleton(skeletonOf(request, setup), setup, explicitHome)) setup = setupOf(request);
    // An MCP client's wrong HERMES_HOME is otherwise invisible: said at start-up.
    if (!setup.homeExists) {
      Deno.stderr.writeSync(
        new TextEncoder().encode(
          `skillrt: ${missingHomeLine(setup, explicitHome)} skills_list will find no skills.\n`,
        ),
      );
    }
    if (request.options.http === true) {
      return await (await import("./mcp_http_relay.ts")).serveMcpHttp(request, setup, version);
    }
    return await (await import("./mcp_relay.ts")).serveMcp(request, setup, version);
  }
  return missingNamedHome(request, setup) ??
    await runSandboxed(request, setup, options, explicitHome);
}

/** Plans a command (making the home's skeleton when a write needs it) and runs it in a Worker. */
async function runSandboxed(
  request: CommandRequest,
  setup: HomeLayout,
  options: CliOptions,
  explicitHome: boolean,
): Promise<Outcome> {
  let current = request;
  const content = rowOf(current.command)?.content;
  if (content) {
    current = await (await import("./content.ts")).attachContent(current, setup.host.cwd, content);
  }
  let planned = await planOf(current, setup);
  if ("outcome" in planned) return planned.outcome;
  // The folders a write needs as the base of its grant are made here, once the request
  // is known to be good ([X-6]); the setup is then read again (the new local root is a
  // root) and the plan made again from it.
  if (ensureSkeleton(skeletonOf(current, setup), setup, explicitHome)) {
    setup = setupOf(request);
    planned = await planOf(current, setup);
    if ("outcome" in planned) return planned.outcome;
  }
  // Workers that write start in the local root, which they may read: a delete there is
  // pinned by the working directory and can return to it (src/manage/pinned.ts).
  if (
    isWriting(current.command, current.args) && setup.roots.some((r) => r.source === "local")
  ) {
    Deno.chdir(setup.localRoot);
  }
  const outcome = await runInWorker({
    request: current,
    setup,
    plan: planned.plan,
    writes: isWriting(current.command, current.args),
    asks: rowOf(current.command)?.asks,
    writeStdout: options.writeStdout,
    scanTrace: readEnv("SKILLRT_SCAN_TRACE") === "1",
  }, CLI_HOST);
  return withHomeNote(outcome, setup, explicitHome);
}

/**
 * A "not found" under a home that does not exist says so ([C-8]): it is then no news
 * about the skill (`list` and `doctor` say it themselves, and writes refuse with it).
 */
function withHomeNote(outcome: Outcome, setup: HomeLayout, explicitHome: boolean): Outcome {
  if (outcome.code !== "not_found" || setup.homeExists) return outcome;
  return {
    ...outcome,
    stderr: outcome.stderr + `skillrt: ${missingHomeLine(setup, explicitHome)}\n`,
  };
}

/** Where the home's path came from. */
function homeFrom(explicitHome: boolean): "--home" | "HERMES_HOME" | "the default" {
  return explicitHome ? "--home" : readEnv("HERMES_HOME") ? "HERMES_HOME" : "the default";
}

/** The line that says the home is missing, and where its path came from. */
export function missingHomeLine(setup: HomeLayout, explicitHome: boolean): string {
  return `the home '${setup.home}' (${homeFrom(explicitHome)}) does not exist; check the path.`;
}

/**
 * `list` under a home the user named (--home, HERMES_HOME) that does not exist: not found,
 * in one line ([C-8]); the default home is only not made yet, and `list` says how to start.
 */
function missingNamedHome(request: CommandRequest, setup: HomeLayout): Outcome | undefined {
  const from = homeFrom(request.global.home !== undefined);
  if (request.command !== "list" || setup.homeExists || from === "the default") return undefined;
  return failure(
    request.global,
    new NotFoundError(
      `The home '${setup.home}' (${from}) does not exist; check the path, or make it first: mkdir -p '${setup.home}/skills'.`,
    ),
  );
}
