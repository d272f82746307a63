/**
 * The warden ([X-1]): parses the command line, reads config.yaml, computes the command's
 * permission plan and runs the command in a Worker holding exactly that plan. Commands
 * that parse no skill content (`sandbox`: `sandbox_command.ts`; `completions`) run here.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { readEnv } from "../home/host.ts";
import { realPathOrUndefined, resolvePath } from "../home/paths.ts";
import { ensureSkeleton } from "../home/skeleton.ts";
import { resolveSetup, type Setup } from "../home/setup.ts";
import { type PermissionPlan, planFor, preloads } from "../sandbox/plan.ts";
import {
  CONTENT_COMMANDS,
  isWriting,
  RUNNING_COMMANDS,
  SKILL_HELP_COMMANDS,
  type WardenCommandName,
} from "./command_table.ts";
import { hubRoot } from "../hub/hub_root.ts";
import { localCollectionPaths } from "../hub/collection_paths.ts";
import { runInWorker } from "../sandbox/run_worker.ts";
import { withSandboxHost, workDirPaths } from "./run_host.ts";
import { checkWrites } from "../sandbox/write_guard.ts";
import { quickParse } from "./quick_parse.ts";
import { namedOutputs } from "./commands/hub_publish.ts";
import { terminalOutcome } from "./terminal_text.ts";
import { failure, outcomeOfError } from "./render.ts";
import type { CommandRequest, Outcome } from "./request.ts";

/** The extra read paths a request names (`validate PATH…`, `hub scan PATH`), absolute. */
export async function requestPaths(
  request: CommandRequest,
  cwd: string,
  localRoot?: string,
): Promise<string[]> {
  if (request.command === "validate") return request.args.map((p) => resolvePath(cwd, p));
  if (RUNNING_COMMANDS.includes(request.command)) return workDirPaths(request.options, cwd);
  if (request.command === "sync" && typeof request.options.from === "string") {
    return [resolvePath(cwd, request.options.from)];
  }
  if (
    request.command === "hub" && (request.args[0] === "check" || request.args[0] === "update") &&
    localRoot
  ) {
    // Local sources are read again from where they were installed from.
    const { readLockDocument } = await import("../hub/lockfile_write.ts");
    try {
      return Object.values(readLockDocument(localRoot).installed).map((r) => r.identifier).filter((
        id,
      ) => id.startsWith("/"));
    } catch {
      return [];
    }
  }
  const [action, source] = request.args;
  if (request.command === "hub" && action === "scan" && source) return [resolvePath(cwd, source)];
  if (request.command === "hub" && (action === "publish" || action === "keygen")) {
    // The folders to publish, the signing key, and the named output (read back to re-publish).
    const sign = action === "publish" && typeof request.options.sign === "string"
      ? [resolvePath(cwd, request.options.sign)]
      : [];
    const dirs = action === "publish" ? request.args.slice(1).map((p) => resolvePath(cwd, p)) : [];
    return [...dirs, ...sign, ...namedOutputs(request, cwd)];
  }
  if (request.command === "hub" && action === "install" && source) {
    // A URL or `user@host:` address is fetched, not read; a local source is read, and a
    // folder here named like a shorthand is looked at only to say it was not installed ([IO-5]).
    return /^[^/]*:/.test(source) ? [] : [resolvePath(cwd, source)];
  }
  return [];
}

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
    if (request) return outcomeOfError(error, request);
    const json = argv.includes("--json");
    return error instanceof SkillrtError ? failure({ json }, error) : outcomeOfError(error, {
      command: "",
      args: [],
      options: {},
      global: { json, color: false },
    });
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
const setupOf = (request: CommandRequest): Setup =>
  withSandboxHost(
    request,
    resolveSetup({ home: request.global.home, agents: request.global.agents }),
  );

/** Runs a parsed request: here in the warden (see `IN_WARDEN`, and MCP's relay), else in its Worker. */
async function runRequest(
  request: CommandRequest,
  version: string,
  options: CliOptions,
): Promise<Outcome> {
  if (Object.hasOwn(IN_WARDEN, request.command)) {
    return await IN_WARDEN[request.command as WardenCommandName](request);
  }
  let setup: Setup = setupOf(request);
  const explicitHome = request.global.home !== undefined;
  if (request.command === "mcp") {
    (await import("./mcp_http_relay.ts")).checkMcpOptions(request.options);
    if (ensureSkeleton(request, setup, explicitHome)) {
      setup = resolveSetup({ home: request.global.home, agents: request.global.agents });
    }
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
  return await runSandboxed(request, setup, options, explicitHome);
}

/** Plans a command (making the home's skeleton when a write needs it) and runs it in a Worker. */
async function runSandboxed(
  request: CommandRequest,
  setup: Setup,
  options: CliOptions,
  explicitHome: boolean,
): Promise<Outcome> {
  let current = request;
  if (CONTENT_COMMANDS.includes(current.command)) {
    current = await (await import("./content.ts")).attachContent(current, setup.host.cwd);
  }
  let planned = await planOf(current, setup);
  if ("outcome" in planned) return planned.outcome;
  // The folders a write needs as the base of its grant are made here, once the request
  // is known to be good ([X-6]); the setup is then read again (the new local root is a
  // root) and the plan made again from it.
  if (ensureSkeleton(current, setup, explicitHome)) {
    setup = resolveSetup({ home: request.global.home, agents: request.global.agents });
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
    writeStdout: options.writeStdout,
    scanTrace: readEnv("SKILLRT_SCAN_TRACE") === "1",
  });
  return withHomeNote(outcome, setup, explicitHome);
}

/**
 * A "not found" under a home that does not exist says so ([C-8]): it is then no news
 * about the skill (`list` and `doctor` say it themselves, and writes refuse with it).
 */
function withHomeNote(outcome: Outcome, setup: Setup, explicitHome: boolean): Outcome {
  if (outcome.code !== "not_found" || setup.homeExists) return outcome;
  return {
    ...outcome,
    stderr: outcome.stderr + `skillrt: ${missingHomeLine(setup, explicitHome)}\n`,
  };
}

/** The line that says the home is missing, and where its path came from. */
export function missingHomeLine(setup: Setup, explicitHome: boolean): string {
  const from = explicitHome ? "--home" : readEnv("HERMES_HOME") ? "HERMES_HOME" : "the default";
  return `the home '${setup.home}' (${from}) does not exist; check the path.`;
}

/**
 * The plan of a request. A writing command's write grant is worked out first by a
 * Worker that may only read; its error (not found, invalid content, …) is the outcome.
 */
export async function planOf(
  request: CommandRequest,
  setup: Setup,
): Promise<{ plan: PermissionPlan } | { outcome: Outcome }> {
  // `hub … --agent NAME` works in that agent's folder ([HUB-8]): it reads it, even before it exists.
  const agentTarget = request.command === "hub" && setup.agentOptions.length
    ? hubRoot(setup).root
    : undefined;
  const paths = [
    ...await requestPaths(request, setup.host.cwd, agentTarget ?? setup.localRoot),
    ...(agentTarget ? [agentTarget] : []),
    // Collections that are folders here are read by hub search and bare-name installs ([HUB-8]).
    ...(request.command === "hub" ? localCollectionPaths(setup) : []),
  ];
  const read = planFor(request.command, setup, paths, [], preloads(request));
  if (!isWriting(request.command, request.args)) return { plan: read };
  const step: CommandRequest = {
    ...request,
    command: "targets",
    options: { ...request.options, for: request.command },
  };
  const found = await runInWorker({ request: step, setup, plan: read });
  if (found.exitCode !== 0) return { outcome: found };
  const { paths: writes, net = [], run = [] } = JSON.parse(found.stdout) as {
    paths: string[];
    net?: string[];
    run?: string[];
  };
  checkWrites(
    request.command,
    writes,
    setup,
    realPathOrUndefined,
    namedOutputs(request, setup.host.cwd),
    agentTarget,
  );
  const plan = planFor(request.command, setup, paths, writes);
  return {
    plan: {
      ...plan,
      net: [...new Set([...plan.net, ...net])],
      run: [...new Set([...plan.run, ...run])],
    },
  };
}
