/**
 * The hub lock file (`<local root>/.hub/lock.json`, [HUB-3]): its format, and reading it
 * without changing it — which skills came from the hub and with what trust. A file that
 * does not parse is reported, never reset. (Changing it: `lockfile_write.ts`; the
 * inter-process lock around a change is the file mutex of `manage/mutex.ts`.)
 *
 * @module
 */
import { isMapping } from "../mapping.ts";
import { basename, isInside, isLinkHere, joinPath, resolvePath } from "../home/paths.ts";

/** One installed skill in `lock.json`, as stored. */
export interface LockRecord {
  /** Where it came from, as given. */
  source: string;
  /** The resolved identifier (a real path, a URL, a commit). */
  identifier: string;
  /** `builtin`, `trusted`, `local` or `community`. */
  trust_level: string;
  /** The scanner's verdict at install. */
  scan_verdict: string;
  /** `sha256:<hex>` over every file. */
  content_hash: string;
  /** The folder, relative to the local root. */
  install_path: string;
  /** Each file's SHA-256, by path relative to the skill folder. */
  files: Record<string, string>;
  /** First install, ISO time. */
  installed_at: string;
  /** Last install or update, ISO time. */
  updated_at: string;
  /** The label (in `skills.hub.trusted_keys`) of the key that signed its index ([T-2]). */
  signed_by?: string;
  /** That key's public key line: an update must be signed by it ([T-2]). */
  signing_key?: string;
  /** The `sequence` of the signed index it came from: an update may not go below it ([T-2]). */
  index_sequence?: number;
  /** The site its signed index is for, where it was read: an update must come from it ([T-2]). */
  index_site?: string;
  /** The name the skill declares, when it installed under its slug form ([HUB-8]). */
  declared_name?: string;
  /** Its folder inside the collection it came from ([HUB-8]). */
  collection_path?: string;
  /** The commit it came from (a git clone's, a GitHub tarball's), for a lock export ([T-4]). */
  commit?: string;
}

/**
 * One installed skill as the runtime reads it: its record (a missing trust read as
 * `community`, a missing source as empty), its name and its folder made absolute.
 */
export interface LockEntry extends LockRecord {
  /** The skill's name in the lock. */
  name: string;
  /** The installed folder, absolute (empty when the record names none). */
  dir: string;
}

/** The lock file as stored: absent, not a lock, or its `installed` mapping and audit head. */
export type LockJson =
  | { state: "absent" }
  | { state: "unparseable"; file: string; error: string }
  | { state: "ok"; file: string; installed: Record<string, unknown>; audit?: unknown };

/** What the lock file held, read as entries. */
export type LockState =
  | Exclude<LockJson, { state: "ok" }>
  | { state: "ok"; file: string; entries: LockEntry[] };

/** The lock file's path for a local root. */
export function lockFile(localRoot: string): string {
  return joinPath(localRoot, ".hub", "lock.json");
}

/**
 * The `installed` mapping of a local root's lock file, as stored: absent when there is no
 * file, unparseable when it is not JSON or not a lock (an object with `installed`).
 */
export function readLockJson(localRoot: string): LockJson {
  const file = lockFile(localRoot);
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    // Absent only when nothing is there: a folder, a dangling link or a file that cannot be
    // read is a lock that does not parse — what is unknown is not trusted ([RUN-3]).
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return { state: "absent" };
    }
    if (error instanceof Deno.errors.NotFound && !isLinkHere(file)) return { state: "absent" };
    return { state: "unparseable", file, error: (error as Error).message.split("\n")[0] };
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
    if (!isMapping(entry)) {
      return { state: "unparseable", file, error: `its entry '${name}' is not a mapping` };
    }
    const record = entry as unknown as LockRecord;
    const path = typeof record.install_path === "string" ? record.install_path : "";
    entries.push({
      ...record,
      trust_level: typeof record.trust_level === "string" ? record.trust_level : "community",
      source: typeof record.source === "string" ? record.source : "",
      name,
      dir: path ? resolvePath(localRoot, path) : "",
    });
  }
  return { state: "ok", file, entries };
}

/** The entry of `lock` for the skill in `skillDir`, or undefined when it holds none. */
export function entryIn(lock: LockState, skillDir: string): LockEntry | undefined {
  if (lock.state !== "ok") return undefined;
  return lock.entries.find((e) => e.dir && isInside(e.dir, skillDir));
}

/**
 * Whether the hub may have brought in the skill `name` in `skillDir` ([RUN-3]): an entry's
 * folder holds it, an entry has its name or its folder's name (a hub skill the user filed
 * into a category by hand), or the lock does not parse (what is unknown is not the user's).
 */
export function hubMayHave(lock: LockState, skillDir: string, name: string): boolean {
  if (lock.state === "unparseable") return true;
  if (lock.state !== "ok") return false;
  const folder = basename(skillDir);
  return entryIn(lock, skillDir) !== undefined ||
    lock.entries.some((e) => e.name === name || e.name === folder || basename(e.dir) === folder);
}

/**
 * The hub trust of the skill in `skillDir` by `lock`: undefined when it was not installed
 * from the hub, and `community` when the lock does not parse (whether it came from the hub
 * is unknown, and what is unknown is not trusted).
 */
export function trustIn(lock: LockState, skillDir: string): string | undefined {
  return lock.state === "unparseable" ? "community" : entryIn(lock, skillDir)?.trust_level;
}
