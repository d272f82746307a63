/**
 * Reading a lock file to restore from ([T-4]): skillrt's own portable lock
 * (`lock_export.ts`) or the vercel `skills` CLI's `skills-lock.json` (`version`, and per
 * skill `source`, `sourceType`, `ref`, `computedHash`). Every part is held to its grammar
 * before anything is fetched; a file that is not a lock is one line naming what is wrong.
 *
 * @module
 */
import { SkillrtError, ValidationError } from "../errors.ts";
import { isMapping } from "../mapping.ts";
import { showControls } from "../manage/file_names.ts";
import { validateName } from "../manage/validation.ts";
import { LOCK_SCHEMA } from "./lock_export.ts";
import { parseSource } from "./source.ts";

/** The largest lock file read. */
const MAX_LOCK_BYTES = 1024 * 1024;
const SHA256 = /^sha256:[0-9a-f]{64}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const COMMIT40 = /^[0-9a-f]{40}$/;
const COLLECTION_PATH = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/;

/** One skill to restore. */
export interface RestoreEntry {
  /** The name it installs under. */
  name: string;
  /** The source as the lock gives it. */
  source: string;
  /** What is fetched: the source, a git source pinned to the lock's commit. */
  fetch: string;
  /** The commit the lock records. */
  ref?: string;
  /** skillrt's `sha256:` content hash of the installed skill. */
  contentHash?: string;
  /** The vercel CLI's `computedHash` of the skill's files as fetched. */
  computedHash?: string;
  /** The trust the lock records. */
  trust?: string;
  /** The category folder. */
  category?: string;
  /** Its folder inside a collection. */
  collectionPath?: string;
  /** The key its signed index was signed with. */
  signingKey?: string;
}

/** A lock file read: its format, the skills to restore and those it cannot. */
export interface LockInput {
  /** `skillrt` or `skills-lock` (the vercel CLI's). */
  format: "skillrt" | "skills-lock";
  /** The skills, sorted by name. */
  entries: RestoreEntry[];
  /** Skills of the file that are not fetched from anywhere (local sources), with why. */
  skipped: { name: string; reason: string }[];
}

function bad(file: string, what: string): never {
  throw new ValidationError(`Lock file '${showControls(file)}' ${what}; nothing was installed.`);
}

/** The file's JSON, within its size. */
function readJson(file: string): unknown {
  let text: string;
  try {
    if (Deno.statSync(file).size > MAX_LOCK_BYTES) bad(file, `is over ${MAX_LOCK_BYTES} bytes`);
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    return bad(file, "cannot be read");
  }
  try {
    return JSON.parse(text);
  } catch {
    return bad(file, "is not JSON");
  }
}

/** A string field, checked by `ok` when present; `required` fields must be there. */
function field(
  file: string,
  name: string,
  entry: Record<string, unknown>,
  key: string,
  ok: (v: string) => boolean,
  required = false,
): string | undefined {
  const value = entry[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || !ok(value)) {
    bad(file, `gives '${showControls(name)}' ${value === undefined ? "no" : "a malformed"} ${key}`);
  }
  return value;
}

/** `source` pinned to a git commit: `git+URL#<commit>[//subpath]`. */
function pinned(source: string, ref: string | undefined): string {
  if (ref === undefined || !COMMIT40.test(ref)) return source;
  const parsed = parseSource(source);
  if (parsed.kind !== "git") return source;
  return `git+${parsed.url}#${ref}${parsed.subpath ? `//${parsed.subpath}` : ""}`;
}

/** True for a valid skill (or category) name. */
function isName(name: string): boolean {
  try {
    return validateName(name) === name;
  } catch {
    return false;
  }
}

/** The name of an entry, held to the skill-name grammar. */
function entryName(file: string, name: string): string {
  if (!isName(name)) bad(file, `names a skill '${showControls(name)}' that is not a skill name`);
  return name;
}

/** A source held to its grammar (what it fetches is checked again where it is fetched). */
function checkedSource(file: string, name: string, source: string): string {
  try {
    parseSource(source);
  } catch (error) {
    bad(file, `gives '${name}' a source its grammar refuses (${(error as Error).message})`);
  }
  return source;
}

/** Why a lock does not restore a local source: what is on this machine is not the lock's to read. */
const LOCAL = "a folder or archive on this machine is not restored from a lock";

/** One entry of skillrt's own lock, or why it is skipped. */
function ownEntry(file: string, name: string, e: Record<string, unknown>): RestoreEntry | string {
  const str = (key: string, ok: (v: string) => boolean, required = false) =>
    field(file, name, e, key, ok, required);
  const source = checkedSource(file, name, str("source", (v) => v !== "", true)!);
  if (parseSource(source).kind === "local") return LOCAL;
  const ref = str("ref", (v) => /^[0-9a-f]{7,40}$/.test(v));
  const category = str("category", isName);
  const collectionPath = str("collection_path", (v) => COLLECTION_PATH.test(v));
  const signingKey = str("signing_key", (v) => v !== "");
  return {
    name,
    source,
    fetch: pinned(source, ref),
    contentHash: str("content_hash", (v) => SHA256.test(v), true),
    trust: str("trust_level", (v) => ["builtin", "trusted", "local", "community"].includes(v)),
    ...(ref !== undefined ? { ref } : {}),
    ...(category !== undefined ? { category } : {}),
    ...(collectionPath !== undefined ? { collectionPath } : {}),
    ...(signingKey !== undefined ? { signingKey } : {}),
  };
}

/** The source a vercel CLI entry names, as skillrt spells it; undefined when it is local. */
function vercelSource(type: string, source: string, ref?: string): string | undefined {
  if (type === "github") return ref ? `${source}@${ref}` : source;
  if (type === "git" || type === "gitlab") {
    // A URL git reads as it is (ssh, git, `user@host:`), else the `git+` form of the hub.
    const git = /^git\+|^(ssh|git):\/\/|^[^/@\s]+@[^:\s]+:/i.test(source)
      ? source
      : `git+${source}`;
    return ref ? `${git}#${ref}` : git;
  }
  if (type === "well-known" || type === "url") return source;
  return undefined;
}

/** One entry of a vercel `skills-lock.json`. */
function vercelEntry(
  file: string,
  name: string,
  e: Record<string, unknown>,
): RestoreEntry | string {
  const str = (key: string, ok: (v: string) => boolean, required = false) =>
    field(file, name, e, key, ok, required);
  const type = str("sourceType", (v) => /^[a-z][a-z0-9_-]*$/.test(v), true)!;
  const given = str("source", (v) => v !== "", true)!;
  const ref = str("ref", (v) => v !== "" && !/[\s#]/.test(v));
  const computedHash = str("computedHash", (v) => HEX64.test(v), true);
  const source = vercelSource(type, given, ref);
  if (source === undefined) return `its sourceType '${type}' is not fetched from anywhere`;
  checkedSource(file, name, source);
  if (parseSource(source).kind === "local") return LOCAL;
  return {
    name,
    source,
    fetch: source,
    computedHash,
    ...(ref !== undefined && COMMIT40.test(ref) ? { ref } : {}),
  };
}

/**
 * Reads the lock file at `file`: skillrt's (`$schema` {@linkcode LOCK_SCHEMA}) or the
 * vercel CLI's `skills-lock.json` (no `$schema`).
 * @throws {SkillrtError} one line naming the file and what is wrong with it.
 */
export function readLockInput(file: string): LockInput {
  const data = readJson(file);
  if (!isMapping(data) || !isMapping(data.skills)) bad(file, "has no 'skills' mapping");
  const schema = data.$schema;
  if (schema !== undefined && schema !== LOCK_SCHEMA) {
    bad(file, `has the unknown $schema '${showControls(String(schema))}'`);
  }
  const format = schema === LOCK_SCHEMA ? "skillrt" : "skills-lock";
  if (format === "skillrt" ? data.version !== 1 : typeof data.version !== "number") {
    bad(file, `has an unknown version '${showControls(String(data.version))}'`);
  }
  const entries: RestoreEntry[] = [];
  const skipped: LockInput["skipped"] = [];
  for (const key of Object.keys(data.skills).sort()) {
    const name = entryName(file, key);
    const raw = data.skills[key];
    if (!isMapping(raw)) bad(file, `gives '${showControls(key)}' no entry mapping`);
    const entry = format === "skillrt" ? ownEntry(file, name, raw) : vercelEntry(file, name, raw);
    if (typeof entry === "string") skipped.push({ name, reason: entry });
    else entries.push(entry);
  }
  return { format, entries, skipped };
}
