/**
 * The Agent Skills discovery index ([HUB-1], [IO-1]): `https://host/.well-known/agent-skills/index.json`
 * (v0.1 also at `/.well-known/skills/index.json`). The final v0.2.0 is known by its
 * `$schema` and lists one artifact per skill (`type`, `url`, `digest`); without `$schema`
 * it is v0.1 (`files` as plain paths) or skillrt's earlier draft (a `version`, `files`
 * with digests, a skill `digest` and a `package`). The entries: `index_entries.ts`.
 * Pure: parsing, checking and digests, no I/O.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { ValidationError } from "../errors.ts";
import { showControls } from "../manage/file_names.ts";
import { WELL_KNOWN_PATH } from "./source.ts";
import { entryNameOk, urlProblem } from "./source_grammar.ts";
import { collisionKey } from "../scan/name_key.ts";

import { artifactEntry, filesEntry, type IndexSkill } from "./index_entries.ts";

export type { ArtifactType, IndexArtifact, IndexFile, IndexSkill } from "./index_entries.ts";
export { indexPathOk } from "./index_entries.ts";

/** The `$schema` of the final discovery index, v0.2.0 ([IO-1]). */
export const DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/** A parsed index. */
export interface WellKnownIndex {
  /** The schema version: `0.2.0` for the `$schema` of v0.2.0, else `version` (`0.1.0` when absent). */
  version: string;
  /**
   * skillrt's extra field `sequence`: the publisher's count of the index's versions, raised
   * whenever what it lists changes ([T-2]). Signed with the rest, it is what refuses a
   * rollback to an older signed index; absent in other publishers' indexes.
   */
  sequence?: number;
  /** skillrt's extra field `site`, as written: the site a signed index is for ([T-2], `signed_site.ts`). */
  site?: string;
  /** The skills it lists (entries that fail the checks are dropped into `problems`). */
  skills: IndexSkill[];
  /** One line per entry that was dropped. */
  problems: string[];
  /**
   * Names listed by more than one entry (compared as installs compare names, NFKC and
   * case folded): every entry of such a name is dropped, and installing it is refused.
   */
  ambiguous: string[];
}

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
    throw new ValidationError(`Index '${entry}' is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ValidationError(`Index '${entry}' is not an http(s) URL.`);
  }
  const problem = urlProblem(entry);
  if (problem) throw new ValidationError(`Index '${showControls(entry)}' ${problem}.`);
  if (url.pathname.endsWith(".json")) return url.href;
  return url.origin + url.pathname.replace(/\/$/, "") + WELL_KNOWN_PATH;
}

/** The form an index is in, from its `$schema` or `version` (with `url` naming it in errors). */
function formOf(d: Record<string, unknown>, url: string): { version: string; artifacts: boolean } {
  if (d.$schema !== undefined) {
    if (d.$schema === DISCOVERY_SCHEMA) return { version: "0.2.0", artifacts: true };
    throw new ValidationError(
      typeof d.$schema === "string"
        ? `Index '${url}' has the $schema '${
          showControls(d.$schema)
        }', which this skillrt does not know (it reads ${DISCOVERY_SCHEMA}).`
        : `Index '${url}' has an invalid $schema ${JSON.stringify(d.$schema)}.`,
    );
  }
  const version = d.version === undefined ? "0.1.0" : d.version;
  const m = typeof version === "string" ? VERSION.exec(version) : null;
  if (!m) {
    throw new ValidationError(`Index '${url}' has an invalid version ${JSON.stringify(version)}.`);
  }
  if (m[1] !== "0") {
    throw new ValidationError(
      `Index '${url}' has version '${version}', which this skillrt does not know.`,
    );
  }
  return { version: version as string, artifacts: false };
}

function sequenceOf(d: Record<string, unknown>, url: string): number | undefined {
  const sequence = d.sequence;
  if (sequence !== undefined && !(Number.isSafeInteger(sequence) && (sequence as number) >= 0)) {
    throw new ValidationError(
      `Index '${url}' has an invalid sequence ${JSON.stringify(sequence)} (a whole number from 0).`,
    );
  }
  return sequence as number | undefined;
}

/**
 * Parses an index document ([IO-1]): v0.2.0 by its `$schema` (an unknown one is refused),
 * else v0.1 or skillrt's draft (`version`); `url` names it in errors. Bad entries are
 * skipped with a problem line; unknown fields are ignored.
 */
export function parseIndex(text: string, url: string): WellKnownIndex {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ValidationError(`Index '${url}' is not valid JSON.`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new ValidationError(`Index '${url}' is not a JSON object.`);
  }
  const d = doc as Record<string, unknown>;
  const { version, artifacts } = formOf(d, url);
  if (!Array.isArray(d.skills)) throw new ValidationError(`Index '${url}' has no 'skills' array.`);
  const sequence = sequenceOf(d, url);
  const { ambiguous, problems } = listedTwice(d.skills, url);
  const skills: IndexSkill[] = [];
  for (const raw of d.skills) {
    const name = nameOf(raw);
    if (name !== undefined && ambiguous.some((a) => collisionKey(a) === collisionKey(name))) {
      continue;
    }
    try {
      skills.push(artifacts ? artifactEntry(raw) : filesEntry(raw));
    } catch (error) {
      problems.push(`Skipped an entry of '${url}': ${(error as Error).message}.`);
    }
  }
  const site = typeof d.site === "string" ? { site: d.site } : {};
  return {
    version,
    ...(sequence !== undefined ? { sequence } : {}),
    ...site,
    skills,
    problems,
    ambiguous,
  };
}

/** An entry's `name` when it has a string one (valid or not). */
function nameOf(raw: unknown): string | undefined {
  const name = typeof raw === "object" && raw !== null
    ? (raw as { name?: unknown }).name
    : undefined;
  return typeof name === "string" ? name : undefined;
}

/**
 * The names more than one entry claims (NFKC, case folded: `good`, `GOOD`, `ｇｏｏｄ` are one),
 * the first spelling of each, with one problem line each: none of those entries is kept,
 * since which one the publisher meant is unknown.
 */
function listedTwice(entries: unknown[], url: string): { ambiguous: string[]; problems: string[] } {
  const counts = new Map<string, { name: string; count: number }>();
  for (const name of entries.map(nameOf)) {
    if (name === undefined) continue;
    const seen = counts.get(collisionKey(name));
    counts.set(collisionKey(name), { name: seen?.name ?? name, count: (seen?.count ?? 0) + 1 });
  }
  const twice = [...counts.values()].filter((c) => c.count > 1);
  return {
    ambiguous: twice.map((c) => c.name),
    problems: twice.map((c) =>
      `Skipped '${showControls(c.name)}' of '${url}': ${c.count} entries name it, so none is kept.`
    ),
  };
}

/** The one-line refusal of an ambiguous name in the index read at `at`, or undefined. */
export function ambiguousProblem(
  doc: WellKnownIndex,
  name: string,
  at: string,
): string | undefined {
  const hit = doc.ambiguous.find((a) => collisionKey(a) === collisionKey(name));
  return hit === undefined
    ? undefined
    : `Index '${at}' lists '${showControls(hit)}' more than once; refusing the ambiguous name.`;
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
