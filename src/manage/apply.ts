/**
 * Applying a prepared change: atomic file writes, removals that never follow a link,
 * an emptied category folder removed, and the usage counters updated ([M-3], [M-4],
 * [U-1]). Also the exact paths a change writes, for the sandbox plan.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { dirname, ensureDir } from "../home/paths.ts";
import { bumpPatch, tryUpdateUsage, type UpdateResult, usageWritePaths } from "../usage/usage.ts";
import { atomicWrite, uniqueTempFor } from "./atomic.ts";
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

/** The topmost folder of `path` that does not exist yet (or `path` itself). */
export function firstMissing(path: string): string {
  let missing = path;
  for (let parent = dirname(path); parent !== missing; parent = dirname(parent)) {
    try {
      Deno.statSync(parent);
      return missing;
    } catch {
      missing = parent;
    }
  }
  return missing;
}

/** Every path a change writes: the sandbox grants exactly these ([X-1]). */
export function writeTargets(change: PreparedChange): string[] {
  const paths = [...usageWritePaths(change.root)];
  paths.push(change.usage === "create" ? firstMissing(change.skillDir) : change.skillDir);
  if (change.removeIfEmpty) paths.push(change.removeIfEmpty);
  return paths;
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

/** Applies a prepared change. */
export async function applyChange(
  change: PreparedChange,
  now: Date = new Date(),
): Promise<WriteResult> {
  try {
    for (const file of change.files) {
      if (file.after === null) {
        if (change.removeDir === undefined) Deno.removeSync(file.path);
        continue;
      }
      ensureDir(dirname(file.path));
      atomicWrite(file.path, file.after, uniqueTempFor(file.path));
    }
    if (change.removeDir !== undefined) {
      if (Deno.lstatSync(change.removeDir).isSymlink) {
        throw new SkillrtError(
          `Refusing to delete through a symbolic link: '${change.removeDir}'.`,
        );
      }
      Deno.removeSync(change.removeDir, { recursive: true });
    }
    if (change.removeIfEmpty !== undefined) {
      const left = Array.from(Deno.readDirSync(change.removeIfEmpty)).filter((e) =>
        e.name !== ".DS_Store"
      );
      if (left.length === 0) Deno.removeSync(change.removeIfEmpty, { recursive: true });
    }
  } catch (error) {
    throw readOnly(error, change.skillDir);
  }
  const usage: UpdateResult = await tryUpdateUsage(change.root, (map) => {
    if (change.usage === "forget") delete map[change.name];
    else bumpPatch(map, change.name, now, change.usage === "create");
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
