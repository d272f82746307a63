/**
 * The lookups behind readiness ([V-9]): whether programs are on PATH and whether
 * credential files exist under the home. Only `stat` is used — no file is opened, no
 * program run. The sandbox Worker may neither read PATH nor stat outside its plan, so
 * the warden answers these questions for it (the plan grows by nothing; `sandbox` says
 * so); the library in-process answers them itself. Every name and path is checked again
 * here, whoever asks: a bare program name, a relative path that stays below the home,
 * also after links are followed.
 *
 * @module
 */
import { isInside, joinPath, realPathOrUndefined } from "./paths.ts";
import { credentialPathProblem, isCommandName, normalPath } from "../view/requirements.ts";

/** What to look up. */
export interface ReadinessAsk {
  /** Program names. */
  commands: string[];
  /** Paths relative to the home. */
  files: string[];
}

/** What was found: the programs on PATH and the files present, each a subset of the ask. */
export type ReadinessAnswer = ReadinessAsk;

/** Most names (and most paths) one question may hold; the rest are not looked up. */
export const MAX_ASK = 256;

/** Asks the lookups of [V-9]. */
export type ReadinessProbe = (ask: ReadinessAsk) => Promise<ReadinessAnswer>;

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/** Whether `name` is an executable file in one of PATH's absolute folders. */
export function onPath(name: string, pathVar: string | undefined): boolean {
  if (!isCommandName(name)) return false;
  for (const dir of (pathVar ?? "").split(":")) {
    if (!dir.startsWith("/")) continue; // a relative entry would depend on the cwd
    const info = statOrNull(joinPath(dir, name));
    if (info?.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return true;
  }
  return false;
}

/** Whether a credential file exists under `home` — a regular file whose real path stays inside. */
export function credentialPresent(path: string, home: string): boolean {
  if (credentialPathProblem(path) !== undefined) return false;
  const full = joinPath(home, normalPath(path));
  if (!statOrNull(full)?.isFile) return false;
  const real = realPathOrUndefined(full);
  const realHome = realPathOrUndefined(home);
  return real !== undefined && realHome !== undefined && real !== realHome &&
    isInside(realHome, real);
}

/** Answers a question (of unknown shape: it may come from a Worker) about PATH and the home. */
export function answerReadiness(
  ask: unknown,
  pathVar: string | undefined,
  home: string,
): ReadinessAnswer {
  const a = (typeof ask === "object" && ask !== null ? ask : {}) as Partial<
    Record<string, unknown>
  >;
  const list = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((v): v is string => typeof v === "string").slice(0, MAX_ASK)
      : [];
  return {
    commands: list(a.commands).filter((name) => onPath(name, pathVar)),
    files: list(a.files).filter((path) => credentialPresent(path, home)),
  };
}
