/**
 * `run NAME PATH` ([RUN-1..4]): prepare the script (`prepare.ts`), have it approved when
 * its root needs that (`consent.ts`), give it the declared environment values, build its
 * sandbox line (`sandbox_line.ts`) and run it (`spawn.ts`). The CLI, the library and MCP's
 * `skill_run` all come here; they differ only in who may approve and what stdin is.
 *
 * @module
 */
import type { EnvAsk } from "../preprocess/env_access.ts";
import { LOCAL_GROUPS, type ProcessGroups } from "../preprocess/process_group.ts";
import { visibleControls } from "../cli/terminal_text.ts";
import { UsageError } from "../errors.ts";
import {
  type Approval,
  grantFingerprint,
  isApproved,
  readApprovals,
  recordApproval,
} from "./consent.ts";
import { type PreparedRun, prepareRun, runRefusal, type ScriptRuntime } from "./prepare.ts";
import type { Grant } from "./grant.ts";
import type { Audience } from "../scan/audience.ts";
import type { Declared } from "./permissions.ts";
import { type SandboxKind, type SandboxLine, sandboxLine, scriptEnv } from "./sandbox_line.ts";
import { probeSandboxHost, type SandboxHost } from "./sandbox_host.ts";
import { spawnScript } from "./spawn.ts";
import { readEnv } from "../home/host.ts";

/** The default time limit of a script, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/** The longest time limit one may ask for: a day. */
export const MAX_TIMEOUT_SECONDS = 86_400;

/** A time limit in seconds, checked: a number above 0 and at most a day (default 120). */
export function timeoutOf(value: unknown): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (
    typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0 ||
    seconds > MAX_TIMEOUT_SECONDS
  ) {
    throw new UsageError(
      `The time limit must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, not '${
        String(value)
      }'.`,
    );
  }
  return seconds;
}

/** How to run a script. */
export interface RunOptions {
  /** The work dir (default: the current directory). */
  workdir?: string;
  /** Seconds before the script and everything it started are killed (default 120, at most a day). */
  timeoutSeconds?: number | string;
  /** Arguments after the script, passed as they are (spaces kept). */
  args?: readonly string[];
  /** The user approves this script with its grant now (`--yes`). */
  yes?: boolean;
  /** Asks the user at a terminal (undefined: no terminal); absent: nobody is asked. */
  confirm?: (question: string) => Promise<boolean | undefined>;
  /** Never record an approval (MCP: an agent cannot approve for the user). */
  approvedOnly?: boolean;
  /** The script's stdin: `null` (closed, the default) or `inherit`. */
  stdin?: "inherit" | "null";
  /** The values of declared variables (the warden's, from a Worker); the library's own environment when absent. */
  envValues?: (asks: EnvAsk[]) => Promise<Record<string, string>>;
  /** Who kills the process group; this process when absent. */
  groups?: ProcessGroups;
  /** The machine's sandboxes; looked at here when absent. */
  host?: SandboxHost;
  /** Only build the line (`sandbox run`): nothing is asked, recorded or run. */
  dryRun?: boolean;
  /** Who asks: the `model` (MCP `skill_run`) is answered not-found for a `disable-model-invocation` skill ([IO-3]). */
  audience?: Audience;
}

/** What a run did. */
export interface RunResult {
  /** True when the script exited with 0. */
  success: boolean;
  /** The skill. */
  name: string;
  /** The script, relative to the skill. */
  script: string;
  /** Its sha256. */
  sha256: string;
  /** The sandbox it ran in. */
  sandbox: SandboxKind;
  /** The exact line started. */
  commandLine: string[];
  /** What it was granted. */
  grant: Grant;
  /** Where its grant was declared. */
  declaredIn: Declared["from"];
  /** The skill's root kind (`hub` when installed from the hub). */
  origin: string;
  /** Its exit code (124 at the time limit); absent on a dry run. */
  exitCode?: number;
  /** Its stdout. */
  stdout?: string;
  /** Its stderr. */
  stderr?: string;
  /** True when it was killed at the time limit. */
  timedOut?: boolean;
  /** True when its output was cut at 1 MiB. */
  truncated?: boolean;
  /** A note for the reader (bwrap cannot filter hosts, …). */
  notes: string[];
}

/** The one-line description of a grant, for the question and `sandbox run`. */
export function grantSummary(run: Pick<PreparedRun, "grant">): string {
  const g = run.grant;
  const list = (xs: readonly string[]) => xs.length ? xs.join(", ") : "none";
  const net = g.net === true ? "any host" : list(g.net);
  return `read ${list(g.read)}; write ${list(g.write)}; network ${net}; env ${list(g.env)}${
    g.run.length ? `; run ${list(g.run)}` : ""
  }`;
}

/** The approval key of a prepared run. */
function keyOf(run: PreparedRun): Omit<Approval, "skill" | "approvedAt"> {
  return {
    skillDir: run.grant.skillDir,
    script: run.script,
    sha256: run.sha256,
    grant: grantFingerprint(run.declared),
  };
}

/** Has the run approved (or refuses it): recorded, `--yes`, or asked at the terminal. */
async function consent(run: PreparedRun, localRoot: string, options: RunOptions): Promise<void> {
  if (!run.needsConsent || isApproved(readApprovals(localRoot), keyOf(run))) return;
  const refuse = (why: string) => runRefusal(run.name, run.script, why);
  if (options.approvedOnly) {
    throw refuse(
      "the user has not approved this script with its grant (run it once with 'skillrt run' at a terminal, or with --yes)",
    );
  }
  let yes = options.yes === true;
  if (!yes && options.confirm) {
    const question = visibleControls(
      `Run '${run.script}' of ${run.origin} skill '${run.name}' (sha256 ${
        run.sha256.slice(0, 12)
      }…) with ${grantSummary(run)}?`,
    );
    yes = (await options.confirm(question)) === true;
  }
  if (!yes) {
    throw refuse(
      `the user has not approved this ${run.origin} skill's script with its grant; approve it at a terminal or pass --yes`,
    );
  }
  await recordApproval(localRoot, {
    skill: run.name,
    ...keyOf(run),
    approvedAt: new Date().toISOString(),
  });
}

/** The declared variables' values: asked of the warden, else read here. */
async function declaredValues(
  run: PreparedRun,
  envValues: RunOptions["envValues"],
): Promise<Record<string, string>> {
  const asks: EnvAsk[] = run.grant.env.map((name) => ({ name, why: "declared" }));
  if (envValues) return await envValues(asks);
  const values: Record<string, string> = {};
  for (const { name } of asks) {
    const value = readEnv(name);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** What the reader should know about the sandbox; `shown`: for `sandbox run`, which says more. */
function notesOf(line: SandboxLine, run: PreparedRun, shown: boolean): string[] {
  const notes: string[] = [];
  const net = run.grant.net === true || run.grant.net.length > 0;
  if (line.sandbox === "bwrap" && (net || shown)) {
    notes.push(
      net
        ? "bubblewrap cannot filter hosts: with its network grant this script may reach any host"
        : "bubblewrap cannot filter hosts: this script gets no network, and a network grant would reach any host",
    );
  }
  if (line.sandbox === "deno") {
    notes.push(
      "bubblewrap is not usable here: the Deno script runs under Deno's permissions alone",
    );
  }
  return notes;
}

/** Runs one script of a skill in its sandbox (see the module doc). */
export async function runSkillScript(
  runtime: ScriptRuntime,
  name: string,
  path: string,
  options: RunOptions = {},
): Promise<RunResult> {
  const timeoutSeconds = timeoutOf(options.timeoutSeconds);
  const run = prepareRun(runtime, name, path, options.workdir, options.audience);
  const host = options.host ?? runtime.setup.host.sandbox ?? probeSandboxHost();
  // A dry run shows where each declared value goes, never the value.
  const values = options.dryRun
    ? Object.fromEntries(run.grant.env.map((n) => [n, `$${n}`]))
    : await declaredValues(run, options.envValues ?? runtime.options.envValues);
  const line = sandboxLine(
    run,
    host,
    options.args ?? [],
    scriptEnv(runtime.setup.host.shellEnv?.LANG, values),
  );
  const result: RunResult = {
    success: true,
    name: run.name,
    script: run.script,
    sha256: run.sha256,
    sandbox: line.sandbox,
    commandLine: line.argv,
    grant: run.grant,
    declaredIn: run.declared.from,
    origin: run.origin,
    notes: notesOf(line, run, options.dryRun === true),
  };
  if (options.dryRun) return result;
  await consent(run, runtime.setup.localRoot, options);
  const spawned = await spawnScript({
    argv: line.argv,
    cwd: run.grant.workDir,
    env: line.env,
    timeoutSeconds,
    stdin: options.stdin ?? "null",
    groups: options.groups ?? runtime.options.processGroups ?? LOCAL_GROUPS,
  });
  return { ...result, ...spawned, success: spawned.exitCode === 0 };
}
