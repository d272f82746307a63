/**
 * The exact command line of a prepared script ([RUN-2], [RUN-4]): a Deno script's
 * `deno run` flags — inside the bubblewrap box when bubblewrap is usable, so that what
 * Deno's permissions do not cover (a static import of a file outside the grant) is not
 * there to read — and any other script's interpreter inside bubblewrap; refused with the
 * reason and the install line when bubblewrap is not usable. Pure but for looking the
 * interpreter up in the system folders.
 *
 * @module
 */
import { onPath } from "../home/readiness_probe.ts";
import { basename, dirname, existsHere, isInside, joinPath } from "../home/paths.ts";
import type { BoxPrograms } from "./box_init.ts";
import { baseEnv, bwrapArgv, SANDBOX_HOME, SYSTEM_FOLDERS } from "./bwrap_args.ts";
import { denoArgv } from "./deno_args.ts";
import type { PreparedRun } from "./prepare.ts";
import { runRefusal } from "./prepare.ts";
import { SANDBOX_PATH } from "./script_kind.ts";
import type { SandboxHost } from "./sandbox_host.ts";
import type { Grant } from "./grant.ts";
import type { SweepHost } from "./sweep.ts";

/** The sandbox a script runs in. */
export type SandboxKind = "deno" | "deno+bwrap" | "bwrap";

/** A line ready to start: the program, its arguments, its environment. */
export interface SandboxLine {
  /** Which sandbox. */
  sandbox: SandboxKind;
  /** The whole line. */
  argv: string[];
  /** The environment the started program gets: the script's (bwrap hands its own on; never on the line). */
  env: Record<string, string>;
}

/** Where the deno executable is bound inside the box. */
export const DENO_INSIDE = "/run/skillrt/deno";

/** The box's prelude programs, found in the system folders. */
function boxPrograms(run: PreparedRun): BoxPrograms {
  const bash = systemProgram("bash");
  const setpriv = systemProgram("setpriv");
  if (bash === undefined || setpriv === undefined) {
    throw runRefusal(
      run.name,
      run.script,
      `the sandbox needs bash and util-linux's setpriv in the system folders (${SANDBOX_PATH})`,
    );
  }
  return { bash, setpriv };
}

/** A program inside the sandbox: a name found on its PATH, or a path in a system folder. */
function systemProgram(program: string): string | undefined {
  const candidates = program.startsWith("/")
    ? (SYSTEM_FOLDERS.some((f) => isInside(f, program)) ? [program] : [])
    : SANDBOX_PATH.split(":").map((dir) => joinPath(dir, program));
  return candidates.find((p) => onPath(basename(p), dirname(p)));
}

/** What the sweeps around a bubblewrap line need (`sweep.ts`); none for Deno alone. */
export function sweepHost(
  run: PreparedRun,
  host: SandboxHost,
  line: SandboxLine,
): SweepHost | undefined {
  if (line.sandbox === "deno" || host.bwrap === undefined) return undefined;
  return { bwrap: host.bwrap, system: host.system, bash: boxPrograms(run).bash };
}

/** The kept-read-only paths that are not there (nothing, not even a link). */
export function absentOf(run: PreparedRun): string[] {
  return run.grant.readOnly.filter((p) => !existsHere(p));
}

/** The interpreter inside the sandbox (see {@linkcode systemProgram}), or the refusal naming it. */
function interpreterPath(run: PreparedRun, program: string): string {
  const found = systemProgram(program);
  if (found === undefined) {
    throw runRefusal(
      run.name,
      run.script,
      `its interpreter '${program}' is not installed in the sandbox's system folders (${SANDBOX_PATH})`,
    );
  }
  return found;
}

/**
 * The line for `run` with arguments `args` and script environment `env` (PATH, HOME, LANG
 * already in it, then the declared names' values). `source`: the snapshot of the skill
 * (`snapshot.ts`) that runs — bound read-only at the skill folder's path in the box; in
 * its place without the box — or the skill folder itself when absent (a dry run).
 */
export function sandboxLine(
  run: PreparedRun,
  host: SandboxHost,
  args: readonly string[],
  env: Record<string, string>,
  source?: string,
): SandboxLine {
  if (run.kind.kind === "deno") {
    if (host.deno === undefined) {
      throw runRefusal(run.name, run.script, "no deno executable was found");
    }
    const denoEnv = { ...env, DENO_NO_UPDATE_CHECK: "1" };
    if (host.bwrap === undefined) {
      const outside = {
        ...denoEnv,
        HOME: run.grant.workDir,
        ...(host.denoDir ? { DENO_DIR: host.denoDir } : {}),
      };
      const grant = source === undefined ? run.grant : rebased(run.grant, source);
      return {
        sandbox: "deno",
        argv: denoArgv(host.deno, grant, joinPath(grant.skillDir, run.script), args),
        env: outside,
      };
    }
    const command = denoArgv(DENO_INSIDE, run.grant, run.scriptPath, args);
    const inside = { ...denoEnv, DENO_DIR: `${SANDBOX_HOME}/.deno` };
    const argv = bwrapArgv({
      bwrap: host.bwrap,
      system: host.system,
      grant: run.grant,
      command,
      extra: [[host.deno, DENO_INSIDE]],
      box: boxPrograms(run),
      absent: absentOf(run),
      skillSource: source,
      workDirId: run.workDirId,
    });
    return { sandbox: "deno+bwrap", argv, env: inside };
  }
  if (host.bwrap === undefined) {
    throw runRefusal(run.name, run.script, host.bwrapProblem ?? "bubblewrap is not usable here");
  }
  const command = [
    interpreterPath(run, run.kind.program),
    ...run.kind.args,
    run.scriptPath,
    ...args,
  ];
  return {
    sandbox: "bwrap",
    argv: bwrapArgv({
      bwrap: host.bwrap,
      system: host.system,
      grant: run.grant,
      command,
      box: boxPrograms(run),
      absent: absentOf(run),
      skillSource: source,
      workDirId: run.workDirId,
    }),
    env,
  };
}

/** `grant` with the skill folder, and every read in it (not in the work dir), moved to `to` (the snapshot). */
function rebased(grant: Grant, to: string): Grant {
  const move = (p: string) =>
    isInside(grant.skillDir, p) && !isInside(grant.workDir, p)
      ? to + p.slice(grant.skillDir.length)
      : p;
  return { ...grant, skillDir: to, read: grant.read.map(move) };
}

/** The script's environment: the sandbox's PATH, private HOME and LANG, then the declared values. */
export function scriptEnv(
  lang: string | undefined,
  values: Record<string, string>,
): Record<string, string> {
  return { ...values, ...baseEnv(lang) };
}
