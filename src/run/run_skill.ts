/**
 * `run NAME PATH` ([RUN-1..4]): prepare the script (`prepare.ts`), have it approved when
 * its root needs that (`consent.ts`), give it the declared environment values, build its
 * sandbox line (`sandbox_line.ts`) and run it (`spawn.ts`) in its work dir's turn
 * (`work_dir_turns.ts`). The CLI, the library and MCP's
 * `skill_run` all come here; they differ only in who may approve and what stdin is.
 *
 * @module
 */
import type { EnvAsk } from "../preprocess/env_access.ts";
import { LOCAL_GROUPS, type ProcessGroups } from "../preprocess/process_group.ts";
import { UsageError } from "../errors.ts";
import { consent, type ConsentOptions } from "./approve.ts";
import { type PreparedRun, prepareRun, runRefusal, type ScriptRuntime } from "./prepare.ts";
import { dropSnapshot, type Snapshot, SnapshotProblem, takeSnapshot } from "./snapshot.ts";
import type { Grant } from "./grant.ts";
import type { Audience } from "../scan/audience.ts";
import type { Declared } from "./permissions.ts";
import {
  absentOf,
  type SandboxKind,
  type SandboxLine,
  sandboxLine,
  scriptEnv,
  sweepHost,
} from "./sandbox_line.ts";
import { probeSandboxHost, type SandboxHost } from "./sandbox_host.ts";
import { type Spawned, spawnScript, type SpawnSpec } from "./spawn.ts";
import { rootIds, SWEEP_UNLISTED, sweepAfter, sweepBefore } from "./sweep.ts";
import { inWorkDirTurn, turnsFolderOf } from "./work_dir_turns.ts";
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

/**
 * How to run a script; who may approve it (`yes`, `confirm`, `approvedOnly`: MCP) as
 * {@linkcode ConsentOptions} says.
 */
export interface RunOptions extends ConsentOptions {
  /** The work dir (default: the current directory). */
  workdir?: string;
  /** Seconds before the script and everything it started are killed (default 120, at most a day). */
  timeoutSeconds?: number | string;
  /** Arguments after the script, passed as they are (spaces kept). */
  args?: readonly string[];
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
  /** The sha256 of every file of the skill as run (the snapshot's, approved); absent on a dry run. */
  filesSha256?: string;
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

/**
 * The one-line description of a grant, for the question and `sandbox run`. Bubblewrap
 * alone (any script not Deno's: `sandbox`, else told by the script's `kind`) cannot filter
 * hosts, so a network grant there says any host may be reached; Deno filters them.
 */
export function grantSummary(
  run: Pick<PreparedRun, "grant"> & Partial<Pick<PreparedRun, "kind">>,
  sandbox?: SandboxKind,
): string {
  const g = run.grant;
  const list = (xs: readonly string[]) => xs.length ? xs.join(", ") : "none";
  const declared = g.net === true ? "any host" : list(g.net);
  // Deno filters a Deno script's hosts, but not those of a program it may run (curl …).
  const deno = (sandbox ?? (run.kind?.kind === "deno" ? "deno" : "bwrap")) !== "bwrap";
  const why = deno
    ? "the programs it may run are not held to Deno's hosts"
    : "bubblewrap cannot filter hosts";
  const net = (deno && g.run.length === 0) || declared === "none"
    ? declared
    : `ANY host, 127.0.0.1 included (${why}; declared: ${declared})`;
  return `read ${list(g.read)}; write ${list(g.write)}; network ${net}; env ${list(g.env)}${
    g.run.length ? `; run ${list(g.run)}` : ""
  }`;
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
      "bubblewrap is not usable here: the Deno script runs under Deno's permissions alone — no box around it: what it plants in the work dir is not swept, and a link already in the work dir leads it where the link points",
    );
  }
  if (shown) {
    notes.push(
      "a run copies the skill's files into a private snapshot first and runs that, in the skill folder's place: the files approved, not what the folder holds later",
    );
  }
  return notes;
}

/**
 * The snapshot a run executes: the skill's files copied into a private folder (under the
 * warden's scratch folder when it gave one); refused when the entry script there is not
 * the one prepared (it changed while being read).
 */
function snapshotOf(run: PreparedRun, host: SandboxHost): Snapshot {
  let snapshot: Snapshot;
  try {
    snapshot = takeSnapshot(run.grant.skillDir, run.reach, host.scratch);
  } catch (error) {
    if (error instanceof SnapshotProblem) throw runRefusal(run.name, run.script, error.message);
    throw error;
  }
  const entry = snapshot.files.find((f) => f.path === run.script);
  if (entry?.sha256 !== run.sha256) {
    dropSnapshot(snapshot.dir);
    throw runRefusal(run.name, run.script, "it changed while it was read; run it again");
  }
  return snapshot;
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
  if (options.dryRun) {
    // A dry run shows where each declared value goes, never the value.
    const shown = Object.fromEntries(run.grant.env.map((n) => [n, `$${n}`]));
    return lineResult(run, lineOf(runtime, run, host, options.args, shown));
  }
  const snapshot = snapshotOf(run, host);
  try {
    const values = await declaredValues(run, options.envValues ?? runtime.options.envValues);
    // The line is built once before the question (what cannot run is refused before it is
    // asked about), then again in the work dir's turn: which kept folders are absent is
    // what the box finds when it starts, not what an earlier run left.
    const build = () => lineOf(runtime, run, host, options.args, values, snapshot.dir);
    build();
    await consent(run, snapshot, runtime.setup.localRoot, options, grantSummary(run));
    const groups = options.groups ?? runtime.options.processGroups ?? LOCAL_GROUPS;
    const spec = { cwd: run.grant.workDir, timeoutSeconds, stdin: options.stdin ?? "null", groups };
    const [line, spawned] = await inWorkDirTurn(
      turnsFolderOf(runtime.setup, host),
      run.grant.workDir,
      () => swept(run, host, build(), spec),
    );
    const result = { ...lineResult(run, line), filesSha256: snapshot.sha256 };
    return { ...result, ...spawned, success: spawned.exitCode === 0 };
  } finally {
    dropSnapshot(snapshot.dir);
  }
}

/**
 * Runs the line, a bubblewrap one between the sweeps that list, then remove, what the
 * script planted where it may write (`sweep.ts`): however the box ended, also killed.
 */
async function swept(
  run: PreparedRun,
  host: SandboxHost,
  line: SandboxLine & { shown: boolean },
  spec: Omit<SpawnSpec, "argv" | "env">,
): Promise<readonly [SandboxLine & { shown: boolean }, Spawned]> {
  const sweeps = sweepHost(run, host, line);
  const ids = rootIds(run.grant, run.workDirId);
  if (typeof ids === "string") throw runRefusal(run.name, run.script, ids);
  const before = sweeps && await sweepBefore(sweeps, run.grant, ids);
  const unswept = sweeps && !before ? SWEEP_UNLISTED : "";
  const made = absentOf(run); // what the box is about to make: the last sweep removes it if left
  const spawned = await spawnScript({ ...spec, argv: line.argv, env: line.env });
  if (sweeps && before) spawned.stderr += await sweepAfter(sweeps, run.grant, ids, before, made);
  spawned.stderr += unswept;
  return [line, spawned];
}

/**
 * The sandbox line of a run with the declared variables' `values` (the snapshot `source`
 * bound as the skill; the skill itself on a dry run).
 */
function lineOf(
  runtime: ScriptRuntime,
  run: PreparedRun,
  host: SandboxHost,
  args: readonly string[] = [],
  values: Record<string, string>,
  source?: string,
): SandboxLine & { shown: boolean } {
  const env = scriptEnv(runtime.setup.host.shellEnv?.LANG, values);
  const line = sandboxLine(run, host, args, env, source);
  return { ...line, shown: source === undefined };
}

/** What a run reports before (or without) running. */
function lineResult(run: PreparedRun, line: SandboxLine & { shown: boolean }): RunResult {
  return {
    success: true,
    name: run.name,
    script: run.script,
    sha256: run.sha256,
    sandbox: line.sandbox,
    commandLine: line.argv,
    grant: run.grant,
    declaredIn: run.declared.from,
    origin: run.origin,
    notes: notesOf(line, run, line.shown),
  };
}
