/**
 * Reading the hub lock file (`<local root>/.hub/lock.json`, [HUB-3]) without changing
 * it: which skills came from the hub and with what trust. A file that does not parse
 * is reported, never reset.
 *
 * @module
 */
import { isMapping } from "../frontmatter/parse.ts";
import { isInside, joinPath, resolvePath } from "../home/paths.ts";

/** One installed hub skill, as far as the runtime needs it. */
export interface LockEntry {
  /** The skill's name in the lock. */
  name: string;
  /** `builtin`, `trusted`, `local` or `community`. */
  trust_level: string;
  /** The installed folder, absolute. */
  install_path: string;
  /** Where it came from, as recorded. */
  source: string;
}

/** What the lock file held. */
export type LockState =
  | { state: "absent" }
  | { state: "unparseable"; file: string; error: string }
  | { state: "ok"; file: string; entries: LockEntry[] };

/** The lock file's path for a local root. */
export function lockFile(localRoot: string): string {
  return joinPath(localRoot, ".hub", "lock.json");
}

/**
 * The `installed` mapping of a local root's lock file, as stored: absent when there is no
 * file, unparseable when it is not JSON or not a lock (an object with `installed`).
 */
export function readLockJson(
  localRoot: string,
):
  | { state: "absent" }
  | { state: "unparseable"; file: string; error: string }
  | { state: "ok"; file: string; installed: Record<string, unknown>; audit?: unknown } {
  const file = lockFile(localRoot);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return { state: "absent" };
  }
  try {
    const data = JSON.parse(text);
    if (isMapping(data) && isMapping(data.installed)) {
      return { state: "ok", file, installed: data.installed, audit: data.audit };
    }
    return { state: "unparseable", file, error: "it has no 'installed' mapping" };
  } catch (error) {
    return { state: "unparseable", file, error: (error as Error).message };
  }
}

/** Reads the lock file of a local root. */
export function readLock(localRoot: string): LockState {
  const json = readLockJson(localRoot);
  if (json.state !== "ok") return json;
  const { file, installed } = json;
  const entries: LockEntry[] = [];
  for (const [name, entry] of Object.entries(installed)) {
    if (!isMapping(entry)) continue;
    const path = typeof entry.install_path === "string" ? entry.install_path : "";
    entries.push({
      name,
      trust_level: typeof entry.trust_level === "string" ? entry.trust_level : "community",
      install_path: path ? resolvePath(localRoot, path) : "",
      source: typeof entry.source === "string" ? entry.source : "",
    });
  }
  return { state: "ok", file, entries };
}

/** The lock entry of the skill in `skillDir`, or undefined when it was not installed from the hub. */
export function hubEntryOf(localRoot: string, skillDir: string): LockEntry | undefined {
  const lock = readLock(localRoot);
  if (lock.state !== "ok") return undefined;
  return lock.entries.find((e) => e.install_path && isInside(e.install_path, skillDir));
}

/** The hub trust of the skill in `skillDir`, or undefined when it was not installed from the hub. */
export function hubTrustOf(localRoot: string, skillDir: string): string | undefined {
  return hubEntryOf(localRoot, skillDir)?.trust_level;
}
