/**
 * The hub lock file (`<local root>/.hub/lock.json`, [HUB-3]), the one module of its document:
 * its types (a {@linkcode LockDocument} of {@linkcode LockRecord}s; read for the runtime as a
 * {@linkcode LockState} of {@linkcode LockEntry}s), reading it without changing it — which
 * skills came from the hub and with what trust — and changing it. A file that does not parse
 * is reported, never reset. The inter-process lock around a change is the file mutex of
 * `manage/mutex.ts`; the hashes it keeps are `content_hash.ts`'s; the portable lock a team
 * commits is `lock_export.ts`'s document, read back by `lock_input.ts`.
 *
 * @module
 */
import { isMapping } from "../mapping.ts";
import { ValidationError } from "../errors.ts";
import { EXCLUDED_DIRS } from "../scan/walk.ts";
import { atomicWriteJson } from "../manage/atomic.ts";
import { withLock } from "../manage/mutex.ts";
import { basename, ensureDir, isInside, isLinkHere, joinPath, resolvePath } from "../home/paths.ts";

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

/** The audit log's chain head ([HUB-3]): the last line's `chain` value and the line count. */
export interface AuditHead {
  /** The last line's chain value (64 hex digits). */
  chain: string;
  /** How many lines the log has. */
  lines: number;
}

/** The lock document. */
export interface LockDocument {
  /** Always 1. */
  version: 1;
  /** Installed skills by name. */
  installed: Record<string, LockRecord>;
  /** The audit log's chain head, written in the same locked step as each log line. */
  audit?: AuditHead;
}

/** The chain head a lock records, or null when it records none (or not in the right shape). */
function auditHeadOf(audit: unknown): AuditHead | null {
  if (!isMapping(audit)) return null;
  const { chain, lines } = audit;
  if (typeof chain !== "string" || !/^[0-9a-f]{64}$/.test(chain)) return null;
  if (typeof lines !== "number" || !Number.isInteger(lines) || lines < 1) return null;
  return { chain, lines };
}

/** The lock file as stored: absent, not a lock, or its `installed` mapping and audit head. */
type LockJson =
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
function readLockJson(localRoot: string): LockJson {
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

/**
 * The audit chain head the lock file of a local root records, or null when it records none.
 * @throws {ValidationError} when the lock file does not parse (the head cannot be known).
 */
export function readAuditHead(localRoot: string): AuditHead | null {
  const json = readLockJson(localRoot);
  if (json.state === "unparseable") {
    throw new ValidationError(
      `Hub lock file '${json.file}' does not parse, so the audit log's chain head cannot be checked.`,
    );
  }
  return json.state === "ok" ? auditHeadOf(json.audit) : null;
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

/** True for `name` or `category/name`: plain folder names, none hidden or reserved. */
export function plainInstallPath(path: unknown): boolean {
  if (typeof path !== "string") return false;
  const parts = path.split("/");
  return parts.length >= 1 && parts.length <= 2 &&
    parts.every((p) => /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(p) && !EXCLUDED_DIRS.has(p));
}

/**
 * The folder of an install path (`name` or `category/name`) below `root`, checked to be
 * reached without a symbolic link: a category folder that is a link (an agent's folder is
 * written by other programs too, [H-5]) would put the install, its `--force` removal or
 * an uninstall wherever the link points ([X-6], [S-9]).
 * @throws {ValidationError} when a folder on the way is a link or not a folder.
 */
export function installFolder(root: string, rel: string): string {
  const parts = rel.split("/");
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = joinPath(at, part);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(at);
    } catch {
      break; // Not there yet: it is made as a folder.
    }
    if (info.isSymlink || !info.isDirectory) {
      throw new ValidationError(
        `Refusing to use '${at}': it is ${
          info.isSymlink ? "a symbolic link" : "not a folder"
        }, and skillrt never installs or removes through one.`,
      );
    }
  }
  return joinPath(root, rel);
}

/** Reads the lock for writing: missing → empty; unparseable → an error (never reset). */
export function readLockDocument(localRoot: string): LockDocument {
  // What is changed is never read through a link ([S-9]): an agent's folder is written by
  // other programs too, and a link there would make its target's bytes the lock's. (The
  // runtime still reads a linked lock for trust: a community skill stays community.)
  const file = lockFile(localRoot);
  if (isLinkHere(file)) {
    throw new ValidationError(
      `Hub lock file '${file}' is a symbolic link, which skillrt never reads through; it was left as it is. Fix or remove it first.`,
      { file },
    );
  }
  const json = readLockJson(localRoot);
  if (json.state === "absent") return { version: 1, installed: {} };
  if (json.state === "ok") {
    const audit = auditHeadOf(json.audit);
    const installed = json.installed as Record<string, LockRecord>;
    for (const [name, record] of Object.entries(installed)) {
      if (!plainInstallPath(record.install_path)) {
        throw new ValidationError(
          `Hub lock file '${json.file}' records '${name}' at '${record.install_path}', which is not a skill folder of the local root; it was left as it is.`,
          { file: json.file },
        );
      }
    }
    return { version: 1, installed, ...(audit ? { audit } : {}) };
  }
  throw new ValidationError(
    `Hub lock file '${json.file}' does not parse; it was left as it is. Fix or remove it first.`,
    { file: json.file },
  );
}

/** Changes the lock and writes it atomically; the caller holds the lock's inter-process lock. */
export function changeLockHeld(localRoot: string, change: (lock: LockDocument) => void): void {
  const lock = readLockDocument(localRoot);
  change(lock);
  atomicWriteJson(lockFile(localRoot), lock);
}

/** Changes the lock under its inter-process lock and writes it atomically. */
export async function updateLock(
  localRoot: string,
  change: (lock: LockDocument) => void,
): Promise<void> {
  ensureDir(joinPath(localRoot, ".hub"));
  await withLock(lockFile(localRoot), () => changeLockHeld(localRoot, change));
}
