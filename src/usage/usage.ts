/**
 * Usage counters ([U-1]): one file in the home, `<home>/skills/.usage.json` (Hermes's
 * place and format), one entry per skill name (plugin skills as `ns:name`) for skills of
 * every root; no other root is ever written. Updated under the inter-process lock and
 * written atomically, never through a link. A file that does not parse is reported and
 * left alone — never reset. A home that may not be written (or does not exist yet) gets
 * no counters and no error.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { ValidationError } from "../errors.ts";
import { isMapping } from "../mapping.ts";
import { isDirectory, joinPath } from "../home/paths.ts";
import { atomicWriteJson } from "../manage/atomic.ts";
import { lockedWritePaths, type LockOptions, withLock } from "../manage/mutex.ts";

/** The usage file's name inside the home's local root. */
export const USAGE_FILE = ".usage.json";

/** One skill's counters and lifecycle state. */
export interface UsageEntry {
  /** Times viewed. */
  view_count: number;
  /** Times used (viewed or invoked). */
  use_count: number;
  /** Last view, ISO time. */
  last_viewed_at: string | null;
  /** Last use, ISO time. */
  last_used_at: string | null;
  /** Times changed by a management action. */
  patch_count: number;
  /** Last change, ISO time. */
  last_patched_at: string | null;
  /** When created by `create`, ISO time. */
  created_at: string | null;
  /** Who first wrote it through skillrt: the user (CLI), an agent (MCP) or the hub (an install). */
  created_by: Actor | null;
  /** Pinned skills are never marked stale or archived. */
  pinned: boolean;
  /** `active`, `stale` or `archived`. */
  state: "active" | "stale" | "archived";
  /** When archived, ISO time. */
  archived_at: string | null;
  /** Where it lived before archiving, relative to the root. */
  origin_path: string | null;
}

/** Who changed a skill: the user at the CLI, an agent over MCP, or the hub installing it. */
export type Actor = "user" | "agent" | "hub";

/** All entries of one root, by skill name. */
export type UsageMap = Record<string, UsageEntry>;

/** A fresh entry. */
export function emptyEntry(): UsageEntry {
  return {
    view_count: 0,
    use_count: 0,
    last_viewed_at: null,
    last_used_at: null,
    patch_count: 0,
    last_patched_at: null,
    created_at: null,
    created_by: null,
    pinned: false,
    state: "active",
    archived_at: null,
    origin_path: null,
  };
}

/** The usage file of a home's local root (`<home>/skills`). */
export function usageFile(root: string): string {
  return joinPath(root, USAGE_FILE);
}

/** Every path a usage update of `root` writes (the sandbox grants exactly these). */
export function usageWritePaths(root: string): string[] {
  return lockedWritePaths(usageFile(root));
}

/** The usage file as stored: absent, unreadable, not JSON, not an object, or its mapping. */
type UsageJson =
  | { state: "absent" }
  | { state: "unreadable"; error: unknown }
  | { state: "unparseable"; file: string; error: string }
  | { state: "not_object"; file: string }
  | { state: "ok"; file: string; data: Record<string, unknown> };

/** Reads and parses a root's usage file once, for both readers below. */
function readUsageJson(root: string): UsageJson {
  const file = usageFile(root);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    return error instanceof Deno.errors.NotFound
      ? { state: "absent" }
      : { state: "unreadable", error };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { state: "unparseable", file, error: (error as Error).message };
  }
  return isMapping(data) ? { state: "ok", file, data } : { state: "not_object", file };
}

/** Reads a root's usage map; throws a clear error when the file does not parse. */
export function readUsage(root: string): UsageMap {
  const json = readUsageJson(root);
  if (json.state === "absent") return Object.create(null);
  if (json.state === "unreadable") throw json.error;
  if (json.state === "unparseable") {
    throw new ValidationError(
      `Usage file '${json.file}' does not parse (${json.error}); it was left as it is.`,
      { file: json.file },
    );
  }
  if (json.state === "not_object") {
    throw new ValidationError(
      `Usage file '${json.file}' is not a JSON object; it was left as it is.`,
      {
        file: json.file,
      },
    );
  }
  const out: UsageMap = Object.create(null); // skill names like `constructor` are plain keys
  for (const [name, entry] of Object.entries(json.data)) {
    if (isMapping(entry)) out[name] = { ...emptyEntry(), ...(entry as Partial<UsageEntry>) };
  }
  return out;
}

/**
 * How often each skill was used (view_count + use_count), by name, never throwing: a file
 * that cannot be read counts nothing, one that does not parse is noted in `diagnostics`.
 */
export function readUsageCounts(root: string, diagnostics: Diagnostic[] = []): Map<string, number> {
  const counts = new Map<string, number>();
  const json = readUsageJson(root);
  if (json.state === "unparseable") {
    diagnostics.push(
      diagnostic(
        "error",
        "usage.unparseable",
        `Usage file does not parse (${json.error}); it was ignored, not reset.`,
        { path: json.file },
      ),
    );
  }
  if (json.state !== "ok") return counts;
  for (const [name, entry] of Object.entries(json.data)) {
    if (!isMapping(entry)) continue;
    counts.set(name, (Number(entry.view_count) || 0) + (Number(entry.use_count) || 0));
  }
  return counts;
}

/** Changes a root's usage map under its lock: read, change, write atomically. */
export async function updateUsage(
  root: string,
  change: (map: UsageMap) => void,
  lock?: LockOptions,
): Promise<void> {
  const file = usageFile(root);
  await withLock(file, () => {
    const map = readUsage(root);
    change(map);
    atomicWriteJson(file, map);
  }, lock);
}

/** What happened to a best-effort update. */
export type UpdateResult = "updated" | "read_only" | { problem: string };

/**
 * Changes usage where possible: a root that may not be written (read-only folder, or
 * not granted by the sandbox) is skipped quietly; a corrupt file is reported.
 */
export async function tryUpdateUsage(
  root: string,
  change: (map: UsageMap) => void,
  lock?: LockOptions,
): Promise<UpdateResult> {
  try {
    await updateUsage(root, change, lock);
    return "updated";
  } catch (error) {
    if (
      error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable ||
      (error instanceof Deno.errors.NotFound && !isDirectory(root))
    ) {
      return "read_only";
    }
    if ((error as { code?: unknown }).code === "EROFS") return "read_only";
    return { problem: (error as Error).message };
  }
}

/** The entry for a name, created when missing. */
export function entryOf(map: UsageMap, name: string): UsageEntry {
  if (!Object.hasOwn(map, name)) map[name] = emptyEntry();
  return map[name];
}

/** Records a view (and use) of a skill. */
export function bumpView(map: UsageMap, name: string, now: Date): void {
  const e = entryOf(map, name);
  e.view_count++;
  e.use_count++;
  e.last_viewed_at = e.last_used_at = now.toISOString();
  if (e.state === "stale") e.state = "active";
}

/**
 * Records a management change of a skill by `actor`. A creation records who created it;
 * any other change records its actor only when the skill's creator is not known yet.
 */
export function bumpPatch(
  map: UsageMap,
  name: string,
  now: Date,
  created = false,
  actor: Actor = "user",
): void {
  const e = entryOf(map, name);
  e.patch_count++;
  e.last_patched_at = now.toISOString();
  if (created) {
    e.created_at = now.toISOString();
    e.created_by = actor;
  } else if (!isActor(e.created_by)) e.created_by = actor;
}

/** Records a skill the hub installed (a fresh install; an update keeps what was known). */
export function recordInstalled(map: UsageMap, name: string, now: Date): void {
  const e = entryOf(map, name);
  if (e.created_at === null) e.created_at = now.toISOString();
  if (!isActor(e.created_by)) e.created_by = "hub";
}

/** True for the three actors of [U-1]; anything else in a usage file is unknown. */
export function isActor(value: unknown): value is Actor {
  return value === "user" || value === "agent" || value === "hub";
}
