/**
 * The Agent Skills well-known index ([HUB-1]): `https://host/.well-known/agent-skills/index.json`
 * with a `version` (`M.m.p`, major 0 understood) and `skills` entries of `name`,
 * `description`, `digest` and `files` (objects `{path, digest}`, or plain paths in a
 * v0.1 index), and an optional `package` `{url, digest}`. Pure: parsing, checking and
 * digests, no I/O.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { SkillrtError } from "../errors.ts";
import { showControls } from "../manage/file_names.ts";
import { WELL_KNOWN_PATH } from "./source.ts";
import { entryNameOk, urlProblem } from "./source_grammar.ts";

/** One file of an index entry. */
export interface IndexFile {
  /** Relative path inside the skill. */
  path: string;
  /** `sha256:<hex>` of its bytes; absent in a v0.1 index. */
  digest?: string;
}

/** One skill of an index. */
export interface IndexSkill {
  /** The skill's name (its folder under `/.well-known/agent-skills/`). */
  name: string;
  /** What it does. */
  description: string;
  /** `sha256:` digest over the files (see {@linkcode skillDigest}); absent in a v0.1 index. */
  digest?: string;
  /** Its files. */
  files: IndexFile[];
  /** An archive with all files, when the publisher offers one. */
  package?: { url: string; digest: string };
}

/** A parsed index. */
export interface WellKnownIndex {
  /** The schema version (`0.1.0` when absent). */
  version: string;
  /**
   * skillrt's extra field `sequence`: the publisher's count of the index's versions, raised
   * whenever what it lists changes ([T-2]). Signed with the rest, it is what refuses a
   * rollback to an older signed index; absent in other publishers' indexes.
   */
  sequence?: number;
  /** The skills it lists (entries that fail the checks are dropped into `problems`). */
  skills: IndexSkill[];
  /** One line per entry that was dropped. */
  problems: string[];
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** True when `name` is a valid skill name in an index (1–64 lowercase letters, digits, single hyphens). */
export function indexNameOk(name: string): boolean {
  return entryNameOk(name);
}

/** The index URL for a configured entry: a full `….json` URL as is, else a site with the well-known path. */
export function indexUrl(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new SkillrtError(`Index '${entry}' is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SkillrtError(`Index '${entry}' is not an http(s) URL.`);
  }
  const problem = urlProblem(entry);
  if (problem) throw new SkillrtError(`Index '${showControls(entry)}' ${problem}.`);
  if (url.pathname.endsWith(".json")) return url.href;
  return url.origin + url.pathname.replace(/\/$/, "") + WELL_KNOWN_PATH;
}

/** True when a path is acceptable in an index: relative, `/`-separated, printable ASCII, no `..`. */
export function indexPathOk(path: string): boolean {
  if (path === "" || path.startsWith("/") || /[^\x20-\x7e]|[\\?#[\]]/.test(path)) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

function checkSkill(raw: unknown): IndexSkill {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error("an entry is not an object");
  }
  const r = raw as Record<string, unknown>;
  const name = r.name;
  if (typeof name !== "string" || !entryNameOk(name)) {
    throw new Error(`name ${JSON.stringify(name)} is not a valid skill name`);
  }
  if (typeof r.description !== "string") throw new Error(`'${name}' has no description`);
  if (r.digest !== undefined && (typeof r.digest !== "string" || !DIGEST.test(r.digest))) {
    throw new Error(`'${name}' has a malformed digest`);
  }
  if (!Array.isArray(r.files) || r.files.length === 0) throw new Error(`'${name}' lists no files`);
  const files: IndexFile[] = r.files.map((f: unknown) => {
    const file = typeof f === "string"
      ? { path: f }
      : typeof f === "object" && f !== null
      ? (f as Record<string, unknown>)
      : {};
    if (typeof file.path !== "string" || !indexPathOk(file.path)) {
      throw new Error(`'${name}' lists an unsafe file path ${JSON.stringify(file.path)}`);
    }
    if (
      "digest" in file && (typeof file.digest !== "string" || !DIGEST.test(file.digest))
    ) throw new Error(`'${name}' has a malformed digest for '${file.path}'`);
    return { path: file.path, ...("digest" in file ? { digest: file.digest as string } : {}) };
  });
  if (!files.some((f) => f.path === "SKILL.md")) throw new Error(`'${name}' lists no SKILL.md`);
  if (new Set(files.map((f) => f.path)).size !== files.length) {
    throw new Error(`'${name}' lists a file twice`);
  }
  let pkg: IndexSkill["package"];
  if (r.package !== undefined) {
    const p = r.package as Record<string, unknown>;
    if (
      typeof p !== "object" || p === null || typeof p.url !== "string" ||
      typeof p.digest !== "string" || !DIGEST.test(p.digest)
    ) throw new Error(`'${name}' has a malformed package`);
    pkg = { url: p.url, digest: p.digest };
  }
  return {
    name,
    description: r.description,
    ...(typeof r.digest === "string" ? { digest: r.digest } : {}),
    files,
    ...(pkg ? { package: pkg } : {}),
  };
}

/** Parses an index document; `url` names it in errors. Bad entries are skipped with a problem line. */
export function parseIndex(text: string, url: string): WellKnownIndex {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new SkillrtError(`Index '${url}' is not valid JSON.`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new SkillrtError(`Index '${url}' is not a JSON object.`);
  }
  const d = doc as Record<string, unknown>;
  const version = d.version === undefined ? "0.1.0" : d.version;
  const m = typeof version === "string" ? VERSION.exec(version) : null;
  if (!m) {
    throw new SkillrtError(`Index '${url}' has an invalid version ${JSON.stringify(version)}.`);
  }
  if (m[1] !== "0") {
    throw new SkillrtError(
      `Index '${url}' has version '${version}', which this skillrt does not know.`,
    );
  }
  if (!Array.isArray(d.skills)) throw new SkillrtError(`Index '${url}' has no 'skills' array.`);
  const sequence = d.sequence;
  if (sequence !== undefined && !(Number.isSafeInteger(sequence) && (sequence as number) >= 0)) {
    throw new SkillrtError(
      `Index '${url}' has an invalid sequence ${JSON.stringify(sequence)} (a whole number from 0).`,
    );
  }
  const skills: IndexSkill[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const raw of d.skills) {
    try {
      const skill = checkSkill(raw);
      if (seen.has(skill.name)) throw new Error(`'${skill.name}' is listed twice`);
      seen.add(skill.name);
      skills.push(skill);
    } catch (error) {
      problems.push(`Skipped an entry of '${url}': ${(error as Error).message}.`);
    }
  }
  return {
    version: version as string,
    ...(sequence !== undefined ? { sequence: sequence as number } : {}),
    skills,
    problems,
  };
}

/** The skill-level digest of the index: SHA-256 over sorted `path NUL hex LF` lines. */
export function skillDigest(files: { path: string; hex: string }[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest = sorted.map((f) => `${f.path}\0${f.hex}\n`).join("");
  return `sha256:${sha256Hex(new TextEncoder().encode(manifest))}`;
}

/** Skills whose name or description holds every word of the query (case-insensitive). */
export function matchSkills(skills: IndexSkill[], query: string): IndexSkill[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  return skills.filter((s) => {
    const hay = `${s.name} ${s.description}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
