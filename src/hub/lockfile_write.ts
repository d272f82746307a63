/**
 * Writing the hub lock file ([HUB-3]) and hashing installed content: `content_hash` is
 * `sha256:` + the hash over the sorted (relative path, NUL, bytes) of every file, and each
 * file's own hash is kept so `hub verify` can say which files changed.
 *
 * @module
 */
import { EXCLUDED_DIRS } from "../scan/walk.ts";
import { Sha256, sha256Hex } from "../hash/sha256.ts";
import { SkillrtError } from "../errors.ts";
import { ensureDir, joinPath } from "../home/paths.ts";
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

/** True for `name` or `category/name`: plain folder names, none hidden or reserved. */
export function plainInstallPath(path: unknown): boolean {
  if (typeof path !== "string") return false;
  const parts = path.split("/");
  return parts.length >= 1 && parts.length <= 2 &&
    parts.every((p) => /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(p) && !EXCLUDED_DIRS.has(p));
}

/** Reads the lock for writing: missing → empty; unparseable → an error (never reset). */
export function readLockDocument(localRoot: string): LockDocument {
  const json = readLockJson(localRoot);
  if (json.state === "absent") return { version: 1, installed: {} };
  if (json.state === "ok") {
    const audit = auditHeadOf(json.audit);
    const installed = json.installed as Record<string, LockRecord>;
    for (const [name, record] of Object.entries(installed)) {
      if (!plainInstallPath(record.install_path)) {
        throw new SkillrtError(
          `Hub lock file '${json.file}' records '${name}' at '${record.install_path}', which is not a skill folder of the local root; it was left as it is.`,
          { file: json.file },
        );
      }
    }
    return { version: 1, installed, ...(audit ? { audit } : {}) };
  }
  throw new SkillrtError(
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
