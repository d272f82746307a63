/**
 * Applying a prepared change: atomic file writes, removals that never follow a link,
 * an emptied category folder removed, and the usage counters updated ([M-3], [M-4],
 * [U-1]). Also the exact paths a change writes, for the sandbox plan.
 *
 * @module
 */
import { SkillrtError, ValidationError } from "../errors.ts";
import { dirname, isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import { bumpPatch, tryUpdateUsage, type UpdateResult, usageWritePaths } from "../usage/usage.ts";
import { atomicWrite, linkRefusal } from "./atomic.ts";
import { makeDirInside, removeInside } from "./inside.ts";
import type { PreparedChange } from "./actions.ts";

/** The document a successful write prints. */
export interface WriteResult {
  /** Always true. */
  success: true;
  /** The action. */
  action: string;
  /** The skill. */
  name: string;
  /** What was done. */
  message: string;
  /** The skill folder. */
  path: string;
  /** What happened to the usage counters. */
  usage: "updated" | "read_only" | string;
}

/**
 * The topmost folder between `base` (exclusive, assumed to exist: the warden makes the
 * home's skeleton before a write) and `path` that does not exist yet, or `path` itself.
 * Computed from paths and never above `base`; a folder that cannot be examined is an
 * error, never taken for missing ([X-6]).
 * @throws {SkillrtError} when `path` is not inside `base`, or a folder cannot be examined.
 */
export function creationTarget(base: string, path: string): string {
  if (path === base || !isInside(base, path)) {
    throw new ValidationError(`Refusing to plan a write of '${path}': it is not inside '${base}'.`);
  }
  let missing = path;
  for (let parent = dirname(path); parent !== base; parent = dirname(parent)) {
    try {
      Deno.lstatSync(parent);
      return missing;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) {
        throw new SkillrtError(
          `Cannot tell whether '${parent}' exists (${(error as Error).name}); nothing was written.`,
        );
      }
      missing = parent;
    }
  }
  return missing;
}

/** Every path a change writes: the sandbox grants exactly these ([X-1], [X-6]). */
export function writeTargets(change: PreparedChange, usageRoot: string): string[] {
  const paths = [...usageWritePaths(usageRoot)];
  paths.push(
    change.usage === "create" ? creationTarget(change.root, change.skillDir) : change.skillDir,
  );
  if (change.removeIfEmpty) paths.push(change.removeIfEmpty);
  return paths;
}

/** Makes `path` in place; one that landed outside `realBase` (a swapped folder) is removed. */
function makeDirInPlace(realBase: string, path: string): void {
  Deno.mkdirSync(path);
  const made = realPathOrUndefined(path);
  if (made !== undefined && isInside(realBase, made)) return;
  if (made !== undefined) {
    try {
      Deno.removeSync(made);
    } catch {
      // Not empty: not ours.
    }
  }
  throw linkRefusal(path);
}

/**
 * Makes the folders of `rel` below `base` one by one, refusing any existing component
 * that is a symbolic link, so a new folder is never made through a link. Inside a skill
 * (`staged`, the default) each new folder is made under a random name and proved inside
 * first; a new skill's own folder in its root (`staged: false`, the sandbox grants just
 * that path) is made in place and removed again if it landed outside.
 * @throws {SkillrtError} for a link on the way.
 */
export function makeDirsInside(base: string, rel: string, staged = true): void {
  const realBase = realPathOrUndefined(base) ?? base;
  let path = base;
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  for (const [i, part] of parts.entries()) {
    path = joinPath(path, part);
    let info: Deno.FileInfo | undefined;
    try {
      info = Deno.lstatSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (info?.isSymlink) throw linkRefusal(path);
    if (info === undefined) {
      if (staged) makeDirInside(realBase, parts.slice(0, i), part);
      else makeDirInPlace(realBase, path);
    }
  }
}

function readOnly(error: unknown, where: string): unknown {
  if (error instanceof Deno.errors.PermissionDenied) {
    return new SkillrtError(`Cannot write in '${where}': the folder is read-only for this user.`);
  }
  return error;
}

const PAST: Record<string, string> = {
  create: "Created",
  edit: "Edited",
  patch: "Patched",
  delete: "Deleted",
  write: "Wrote",
  remove: "Removed",
};

/** "create skill 'x'" → "Created skill 'x'". */
export function pastTense(summary: string): string {
  const [verb, ...rest] = summary.split(" ");
  return [PAST[verb] ?? verb, ...rest].join(" ");
}

/** `path` relative to `base` (`path` lies inside it). */
function below(base: string, path: string): string {
  return path === base ? "" : path.slice(base.length + 1);
}

/** Writes and removes the files of a change, inside its real skill folder only. */
function applyFiles(change: PreparedChange): void {
  const realRoot = realPathOrUndefined(change.root) ?? change.root;
  if (change.usage === "create") {
    makeDirsInside(change.root, below(change.root, change.skillDir), false);
  }
  const realSkill = Deno.realPathSync(change.skillDir);
  if (realSkill === realRoot || !isInside(realRoot, realSkill)) throw linkRefusal(change.skillDir);
  for (const file of change.files) {
    if (file.after === null) {
      if (change.removeDir === undefined) removeInside(file.path, realSkill);
      continue;
    }
    makeDirsInside(change.skillDir, below(change.skillDir, dirname(file.path)));
    try {
      atomicWrite(file.path, file.after, { within: realSkill });
    } catch (error) {
      // Its folders were made or proved just now: a folder gone missing was swapped away.
      if (error instanceof Deno.errors.NotFound) throw linkRefusal(dirname(file.path));
      throw error;
    }
  }
  for (const dir of change.dirs ?? []) makeDirsInside(change.skillDir, dir);
  if (change.removeDir !== undefined) removeInside(change.removeDir, realRoot, true);
  if (change.removeIfEmpty !== undefined) {
    const left = Array.from(Deno.readDirSync(change.removeIfEmpty)).filter((e) =>
      e.name !== ".DS_Store"
    );
    if (left.length === 0) removeInside(change.removeIfEmpty, realRoot, true);
  }
}

/** Applies a prepared change; its use is counted in `usageRoot` (the home's, [U-1]). */
export async function applyChange(
  change: PreparedChange,
  usageRoot: string,
  now: Date = new Date(),
): Promise<WriteResult> {
  try {
    applyFiles(change);
  } catch (error) {
    throw readOnly(error, change.skillDir);
  }
  const usage: UpdateResult = await tryUpdateUsage(usageRoot, (map) => {
    if (change.usage === "forget") delete map[change.name];
    else bumpPatch(map, change.name, now, change.usage === "create", change.action.actor);
  });
  return {
    success: true,
    action: change.action.action,
    name: change.name,
    message: pastTense(change.summary) + ".",
    path: change.skillDir,
    usage: typeof usage === "string" ? usage : usage.problem,
  };
}
