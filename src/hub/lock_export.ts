/**
 * `hub lock export` ([T-4]): the home's hub installs as a portable lock a team commits —
 * per skill the source as given (a skill of an index by its index URL), the commit it
 * came from, its content hash, trust, category and where it sits in a collection or
 * signed index. Nothing of this machine goes in: no install times, no real paths, no
 * query strings; a skill installed from a folder or archive here is left out, and said so.
 * Stable order (skills by name), one entry a skill, so a change reads well in review.
 *
 * @module
 */
import { isWellKnownSource, parseSource } from "./source.ts";
import type { LockRecord } from "./lockfile.ts";
import { readLockDocument } from "./lockfile.ts";

/** The `$schema` of a portable lock file. */
export const LOCK_SCHEMA = "urn:skillrt:hub-lock:v1";

/** One skill of a portable lock. */
export interface PortableEntry {
  /** The source to fetch it from: as given, or an index skill's `index.json#name` URL. */
  source: string;
  /** The commit it came from (git, GitHub), when the fetch said. */
  ref?: string;
  /** `sha256:` over its files as installed ([HUB-3]). */
  content_hash: string;
  /** Its trust at install. */
  trust_level: string;
  /** Its category folder, when it has one. */
  category?: string;
  /** Its folder inside the collection it came from. */
  collection_path?: string;
  /** The label of the key its signed index was signed by ([T-2]). */
  signed_by?: string;
  /** That key's public key line. */
  signing_key?: string;
  /** The signed index's sequence. */
  index_sequence?: number;
  /** The site of its signed index. */
  index_site?: string;
}

/** A portable lock file. */
export interface PortableLock {
  /** Always {@linkcode LOCK_SCHEMA}. */
  $schema: string;
  /** Always 1. */
  version: 1;
  /** Skills by name, sorted. */
  skills: Record<string, PortableEntry>;
}

/** What an export wrote, and what it left out. */
export interface LockExport {
  /** The lock. */
  lock: PortableLock;
  /** Skills left out, each with why. */
  skipped: { name: string; reason: string }[];
}

/** The commit a record came from: a git identifier's `#<sha>`, a GitHub tarball's. */
function commitOf(record: LockRecord): string | undefined {
  if (record.commit !== undefined) return record.commit;
  return /#([0-9a-f]{40})$/.exec(record.identifier)?.[1];
}

/** A record as a portable entry, or why it cannot be one. */
function portable(record: LockRecord): PortableEntry | string {
  const source = isWellKnownSource(record.identifier) ? record.identifier : record.source;
  let kind: string;
  try {
    kind = parseSource(source).kind;
  } catch {
    kind = "local"; // what no grammar reads (a bare collection name) is not portable either
  }
  if (kind === "local") return "installed from a folder or archive on this machine";
  const category = record.install_path.includes("/")
    ? record.install_path.split("/")[0]
    : undefined;
  const ref = commitOf(record);
  const optional = {
    ...(ref !== undefined ? { ref } : {}),
    ...(category !== undefined ? { category } : {}),
    ...(record.collection_path !== undefined ? { collection_path: record.collection_path } : {}),
    ...(record.signed_by !== undefined ? { signed_by: record.signed_by } : {}),
    ...(record.signing_key !== undefined ? { signing_key: record.signing_key } : {}),
    ...(record.index_sequence !== undefined ? { index_sequence: record.index_sequence } : {}),
    ...(record.index_site !== undefined ? { index_site: record.index_site } : {}),
  };
  return {
    source,
    content_hash: record.content_hash,
    trust_level: record.trust_level,
    ...optional,
  };
}

/** The portable lock of the hub installs in `root`. */
export function exportLock(root: string): LockExport {
  const installed = readLockDocument(root).installed;
  const skills: Record<string, PortableEntry> = {};
  const skipped: LockExport["skipped"] = [];
  for (const name of Object.keys(installed).sort()) {
    const entry = portable(installed[name]);
    if (typeof entry === "string") skipped.push({ name, reason: entry });
    else skills[name] = entry;
  }
  return { lock: { $schema: LOCK_SCHEMA, version: 1, skills }, skipped };
}

/** The lock file's text: two-space JSON and a final newline. */
export function lockText(lock: PortableLock): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}
