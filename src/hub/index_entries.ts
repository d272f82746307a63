/**
 * One entry of an Agent Skills discovery index ([IO-1]), in each form skillrt reads: the
 * final v0.2.0 (`type`, `url`, `digest` of one artifact), v0.1 (`files` as plain paths)
 * and skillrt's own earlier draft (`files` with digests, a skill `digest`, a `package`).
 * Each name, digest and path is held to the source grammar (`source_grammar.ts`); a URL
 * is held to it where it is used (`onIndexOrigin`), on the index's own origin. Fields an
 * entry does not need are ignored. Pure: no I/O.
 *
 * @module
 */
import { digestOk, entryNameOk } from "./source_grammar.ts";

/** One file of an index entry (v0.1 and the draft). */
export interface IndexFile {
  /** Relative path inside the skill. */
  path: string;
  /** `sha256:<hex>` of its bytes; absent in a v0.1 index. */
  digest?: string;
}

/** What a v0.2.0 entry's artifact is: the SKILL.md itself, or an archive of the skill. */
export type ArtifactType = "skill-md" | "archive";

/** The one artifact of a v0.2.0 entry. */
export interface IndexArtifact {
  /** `skill-md` or `archive`. */
  type: ArtifactType;
  /** Where it is: absolute, or relative to the index (checked when fetched). */
  url: string;
  /** `sha256:` of the artifact's raw bytes. */
  digest: string;
}

/** One skill of an index. */
export interface IndexSkill {
  /** The skill's name. */
  name: string;
  /** What it does. */
  description: string;
  /** Its artifact, in a v0.2.0 index. */
  artifact?: IndexArtifact;
  /** The draft's `sha256:` digest over the files (see `skillDigest`). */
  digest?: string;
  /** Its files (v0.1 and the draft; none in a v0.2.0 entry). */
  files: IndexFile[];
  /** The draft's archive with all files, when the publisher offers one. */
  package?: { url: string; digest: string };
}

const ARTIFACT_TYPES: readonly string[] = ["skill-md", "archive"] satisfies ArtifactType[];

/** True when a path is acceptable in an index: relative, `/`-separated, printable ASCII, no `..`. */
export function indexPathOk(path: string): boolean {
  if (path === "" || path.startsWith("/") || /[^\x20-\x7e]|[\\?#[\]]/.test(path)) return false;
  return path.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/** The entry as an object with a valid name and a description (every form has both). */
function named(raw: unknown): { r: Record<string, unknown>; name: string; description: string } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error("an entry is not an object");
  }
  const r = raw as Record<string, unknown>;
  const name = r.name;
  if (typeof name !== "string" || !entryNameOk(name)) {
    throw new Error(`name ${JSON.stringify(name)} is not a valid skill name`);
  }
  if (typeof r.description !== "string") throw new Error(`'${name}' has no description`);
  return { r, name, description: r.description };
}

const isDigest = (value: unknown): value is string => typeof value === "string" && digestOk(value);

/** A v0.2.0 entry: `name`, `type`, `description`, `url`, `digest`; other fields ignored. */
export function artifactEntry(raw: unknown): IndexSkill {
  const { r, name, description } = named(raw);
  if (typeof r.type !== "string" || !ARTIFACT_TYPES.includes(r.type)) {
    throw new Error(
      r.type === undefined
        ? `'${name}' has no type`
        : `'${name}' has the unknown type ${JSON.stringify(r.type)}`,
    );
  }
  if (typeof r.url !== "string" || r.url === "") throw new Error(`'${name}' has no url`);
  if (!isDigest(r.digest)) throw new Error(`'${name}' has no valid digest`);
  return {
    name,
    description,
    artifact: { type: r.type as ArtifactType, url: r.url, digest: r.digest },
    files: [],
  };
}

function fileOf(name: string, f: unknown): IndexFile {
  const file = typeof f === "string"
    ? { path: f }
    : typeof f === "object" && f !== null
    ? (f as Record<string, unknown>)
    : {};
  if (typeof file.path !== "string" || !indexPathOk(file.path)) {
    throw new Error(`'${name}' lists an unsafe file path ${JSON.stringify(file.path)}`);
  }
  if ("digest" in file && !isDigest(file.digest)) {
    throw new Error(`'${name}' has a malformed digest for '${file.path}'`);
  }
  return { path: file.path, ...("digest" in file ? { digest: file.digest as string } : {}) };
}

function packageOf(name: string, p: unknown): IndexSkill["package"] {
  if (p === undefined) return undefined;
  const pkg = typeof p === "object" && p !== null ? p as Record<string, unknown> : {};
  if (typeof pkg.url !== "string" || !isDigest(pkg.digest)) {
    throw new Error(`'${name}' has a malformed package`);
  }
  return { url: pkg.url, digest: pkg.digest };
}

/** A v0.1 or draft entry: `files` (paths, or `{path, digest}`), an optional `digest` and `package`. */
export function filesEntry(raw: unknown): IndexSkill {
  const { r, name, description } = named(raw);
  if (r.digest !== undefined && !isDigest(r.digest)) {
    throw new Error(`'${name}' has a malformed digest`);
  }
  if (!Array.isArray(r.files) || r.files.length === 0) throw new Error(`'${name}' lists no files`);
  const files = r.files.map((f: unknown) => fileOf(name, f));
  if (!files.some((f) => f.path === "SKILL.md")) throw new Error(`'${name}' lists no SKILL.md`);
  if (new Set(files.map((f) => f.path)).size !== files.length) {
    throw new Error(`'${name}' lists a file twice`);
  }
  const pkg = packageOf(name, r.package);
  return {
    name,
    description,
    ...(typeof r.digest === "string" ? { digest: r.digest } : {}),
    files,
    ...(pkg ? { package: pkg } : {}),
  };
}
