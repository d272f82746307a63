/**
 * Hub-installed skills ([HUB-6]): `hub list`, `hub uninstall NAME`, `hub verify`.
 *
 * @module
 */
import { NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { isInside } from "../home/paths.ts";
import { appendAudit, auditText } from "./audit.ts";
import type { LockRecord } from "./lockfile.ts";
import { installFolder, readLockDocument, updateLock } from "./lockfile.ts";
import { installedHash } from "./content_hash.ts";

/** One line of `hub list`. */
export interface InstalledSkill {
  /** Name. */
  name: string;
  /** Where it came from. */
  source: string;
  /** Trust level. */
  trustLevel: string;
  /** Scanner verdict at install. */
  scanVerdict: string;
  /** Folder relative to the local root. */
  installPath: string;
  /** First install. */
  installedAt: string;
  /** Last install or update. */
  updatedAt: string;
}

/** `hub list`. */
export function listInstalled(
  root: string,
): { success: true; installed: InstalledSkill[]; count: number } {
  const lock = readLockDocument(root);
  const installed = Object.entries(lock.installed).sort(([a], [b]) => (a < b ? -1 : 1)).map((
    [name, r],
  ) => ({
    name,
    source: r.source,
    trustLevel: r.trust_level,
    scanVerdict: r.scan_verdict,
    installPath: r.install_path,
    installedAt: r.installed_at,
    updatedAt: r.updated_at,
  }));
  return { success: true, installed, count: installed.length };
}

/**
 * `hub uninstall NAME [--force]`: only hub-installed skills; never through a link or outside
 * the root; a skill changed since its install only with `force`.
 */
export async function uninstall(
  root: string,
  name: string,
  now: Date = new Date(),
  force = false,
): Promise<{ success: true; name: string; removed: string }> {
  const record = readLockDocument(root).installed[name];
  if (!record) throw new NotFoundError(`'${name}' is not a hub-installed skill`);
  const state = verifyOne(root, name, record);
  if (state.status === "modified" && !force) {
    // As `hub update` refuses: local edits are never deleted without being asked for.
    const what = [
      ...state.modified.map((f) => `changed ${f}`),
      ...state.added.map((f) => `added ${f}`),
      ...state.removed.map((f) => `removed ${f}`),
    ].join(", ");
    throw new SkillrtError(
      `'${name}' was changed locally (${what}); pass --force to delete it with those changes.`,
    );
  }
  const folder = installFolder(root, record.install_path);
  if (!isInside(root, folder) || folder === root) {
    throw new ValidationError(`Refusing to remove '${folder}': it is not inside ${root}.`);
  }
  try {
    if (Deno.lstatSync(folder).isSymlink) {
      throw new ValidationError(`Refusing to remove '${folder}': it is a symbolic link.`);
    }
    Deno.removeSync(folder, { recursive: true });
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
  }
  await updateLock(root, (doc) => void delete doc.installed[name]);
  await appendAudit(
    root,
    auditText(now, "UNINSTALL", name, record.identifier, record.trust_level, record.scan_verdict),
  );
  return { success: true, name, removed: record.install_path };
}

/** One skill's state in `hub verify`. */
export interface VerifiedSkill {
  /** Name. */
  name: string;
  /** `ok`, `modified` or `missing`. */
  status: "ok" | "modified" | "missing";
  /** Files whose content changed. */
  modified: string[];
  /** Files that were added. */
  added: string[];
  /** Files that were removed. */
  removed: string[];
}

/** `hub verify`: re-hashes every installed skill against the lock. */
export function verifyInstalled(root: string): { success: boolean; skills: VerifiedSkill[] } {
  const lock = readLockDocument(root);
  const skills = Object.entries(lock.installed).sort(([a], [b]) => (a < b ? -1 : 1)).map((
    [name, record],
  ) => verifyOne(root, name, record));
  return { success: skills.every((s) => s.status === "ok"), skills };
}

/** One installed skill against what its lock entry recorded. */
function verifyOne(root: string, name: string, record: LockRecord): VerifiedSkill {
  let now: ReturnType<typeof installedHash>;
  try {
    now = installedHash(root, record.install_path);
  } catch {
    return { name, status: "missing", modified: [], added: [], removed: [] };
  }
  const was = record.files ?? {};
  const modified = Object.keys(now.files).filter((f) => f in was && was[f] !== now.files[f]);
  const added = Object.keys(now.files).filter((f) => !(f in was));
  const removed = Object.keys(was).filter((f) => !(f in now.files));
  const status = now.content_hash === record.content_hash ? "ok" : "modified";
  return { name, status, modified, added, removed };
}
