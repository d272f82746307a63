/**
 * Writing the hub lock file ([HUB-3]) and hashing installed content: `content_hash` is
 * `sha256:` + the hash over the sorted (relative path, NUL, bytes) of every file, and each
 * file's own hash is kept so `hub verify` can say which files changed.
 *
 * @module
 */
import { EXCLUDED_DIRS } from "../scan/walk.ts";
import { Sha256, sha256Hex } from "../hash/sha256.ts";
import { ValidationError } from "../errors.ts";
import { ensureDir, isLinkHere, joinPath } from "../home/paths.ts";
import { atomicWriteJson } from "../manage/atomic.ts";
import { withLock } from "../manage/mutex.ts";
import { isMapping } from "../mapping.ts";
import { lockFile, type LockRecord, readLockJson } from "./lockfile.ts";

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
export function auditHeadOf(audit: unknown): AuditHead | null {
  if (!isMapping(audit)) return null;
  const { chain, lines } = audit;
  if (typeof chain !== "string" || !/^[0-9a-f]{64}$/.test(chain)) return null;
  if (typeof lines !== "number" || !Number.isInteger(lines) || lines < 1) return null;
  return { chain, lines };
}

/** Every file below a folder (relative paths, sorted), not following links. */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(rel ? joinPath(dir, rel) : dir)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else if (e.isFile) out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/** The content hash and per-file hashes of a folder. */
export function hashFolder(dir: string): Pick<LockRecord, "content_hash" | "files"> {
  const total = new Sha256();
  const files: Record<string, string> = {};
  for (const path of filesBelow(dir)) {
    const bytes = Deno.readFileSync(joinPath(dir, path));
    total.update(path);
    total.update(new Uint8Array([0]));
    total.update(bytes);
    files[path] = sha256Hex(bytes);
  }
  return { content_hash: `sha256:${total.hex()}`, files };
}

/**
 * The hashes of an installed skill's folder ({@linkcode hashFolder}), reached without a
 * link on the way ({@linkcode installFolder}) and not itself a link: what `hub verify`
 * and `hub check` report of a folder a link points at would list and hash files outside
 * the root ([S-9]).
 * @throws {SkillrtError} when the folder is a link or reached through one; a missing
 * folder throws as reading it does.
 */
export function installedHash(
  root: string,
  rel: string,
): { content_hash: string; files: Record<string, string> } {
  const folder = installFolder(root, rel);
  if (Deno.lstatSync(folder).isSymlink) {
    throw new ValidationError(`'${folder}' is a symbolic link, not an installed folder.`);
  }
  return hashFolder(folder);
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
 * @throws {SkillrtError} when a folder on the way is a link or not a folder.
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
