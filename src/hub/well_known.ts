/**
 * Fetching from Agent Skills well-known indexes ([HUB-1], [IO-1]): `hub search` over the
 * configured indexes (`skills.hub.indexes` or `--index`) and installing a skill by name.
 * A site without an index at `/.well-known/agent-skills/index.json` is looked up at
 * v0.1's `/.well-known/skills/index.json`. A skill comes as its artifact, its package or
 * file by file (`well_known_files.ts`); every byte is checked against the index's digests
 * before it reaches the quarantine, and everything is fetched from the index's own host,
 * the only one the sandbox plan grants.
 *
 * @module
 */
import { AmbiguousError, NotFoundError, SkillrtError, UsageError } from "../errors.ts";
import type { HomeLayout } from "../home/layout.ts";
import { type ArchiveFile, downloadIfPresent } from "./archive.ts";
import { V01_WELL_KNOWN_PATH, WELL_KNOWN_PATH } from "./source.ts";
import { onIndexOrigin } from "./source_grammar.ts";
import { SIGNATURE_SUFFIX, type SignatureCheck, verifySignature } from "./signing.ts";
import { checkedSite } from "./signed_site.ts";
import { boundByDigest, entryFiles } from "./well_known_files.ts";
import {
  ambiguousProblem,
  type ArtifactType,
  type IndexSkill,
  indexUrl,
  matchSkills,
  parseIndex,
  type WellKnownIndex,
} from "./well_known_index.ts";

export { verifyAgainstIndex } from "./well_known_files.ts";

/** The index URLs to use: `--index` when given, else `skills.hub.indexes` (a list or one string). */
export function configuredIndexes(setup: HomeLayout, option?: string): string[] {
  if (option) return [indexUrl(option)];
  const raw = setup.config.hub.indexes;
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : [];
  return list.filter((v): v is string => typeof v === "string").map(indexUrl);
}

/**
 * The bytes of the index at `url` and the URL they were read at: a site with none at
 * the v0.2.0 path (404) is looked up at v0.1's path ([IO-1]).
 */
async function indexBytes(
  url: string,
): Promise<{ bytes: Uint8Array; at: string; final: string }> {
  const got = await downloadIfPresent(url);
  if (got) return { bytes: got.bytes, at: url, final: got.url };
  if (url.endsWith(WELL_KNOWN_PATH)) {
    const v01 = url.slice(0, -WELL_KNOWN_PATH.length) + V01_WELL_KNOWN_PATH;
    const old = await downloadIfPresent(v01);
    if (old) return { bytes: old.bytes, at: v01, final: old.url };
    throw new SkillrtError(`Cannot download '${url}' (nor '${v01}'): HTTP 404.`);
  }
  throw new SkillrtError(`Cannot download '${url}': HTTP 404.`);
}

/** Downloads and parses one index; `at` is the URL it was read at. */
export async function fetchIndex(url: string): Promise<WellKnownIndex & { at: string }> {
  const { bytes, at } = await indexBytes(url);
  return { ...parseIndex(new TextDecoder().decode(bytes), at), at };
}

/**
 * The hosts besides the indexes' own that installing `name` from `indexes` fetches from:
 * its v0.2.0 artifact's, when the index puts it on another host, a CDN ([IO-1]) — read
 * from the index as it is now, by the first index that lists the name, as the install
 * reads it. The install fetches the index again: an artifact that moved to yet another
 * host in between is refused by the grant. An index that cannot be read, or an entry
 * the install would refuse, adds nothing: the install says why.
 */
export async function artifactHosts(indexes: string[], name: string): Promise<string[]> {
  for (const index of indexes) {
    const doc = await fetchIndex(index).catch(() => undefined);
    const skill = doc?.skills.find((s) => s.name === name);
    if (!doc || !skill) continue;
    if (!skill.artifact) return [];
    try {
      return [new URL(onIndexOrigin(skill.artifact.url, doc.at, name, { artifact: true })).host];
    } catch {
      return [];
    }
  }
  return [];
}

/**
 * Downloads an index and checks its detached signature ([T-2]) — the exact bytes of the
 * index, beside it (`index.json.sig`): none → unsigned; one that does not verify →
 * refused; one that verifies → its key, and its label when the key is in `trustedKeys`.
 * A signed index must name the site it was read from, after redirects (`signed_site.ts`).
 */
export async function fetchSignedIndex(
  url: string,
  trustedKeys: Record<string, string>,
): Promise<{ doc: WellKnownIndex; at: string; signature?: SignatureCheck; site?: string }> {
  const { bytes, at, final } = await indexBytes(url);
  const sig = await downloadIfPresent(at + SIGNATURE_SUFFIX, 4096);
  const signature = sig === undefined
    ? undefined
    : await verifySignature(bytes, new TextDecoder().decode(sig.bytes), trustedKeys, at);
  const doc = parseIndex(new TextDecoder().decode(bytes), at);
  if (!signature) return { doc, at };
  return { doc, at, signature, site: checkedSite(doc.site, final, at) };
}

/** One search hit. */
export interface SearchHit {
  /** The skill's name (install it with `hub install NAME`). */
  name: string;
  /** Its description. */
  description: string;
  /** The index that lists it (the URL it was read at). */
  index: string;
  /** How many files the index lists (a v0.2.0 archive: 0, counted when installed). */
  files: number;
  /** True when it comes as one archive (a v0.2.0 `archive`, or the draft's package). */
  package: boolean;
  /** A v0.2.0 entry's artifact type. */
  type?: ArtifactType;
}

/** The search hit of one entry of the index read at `index`. */
function hitOf(s: IndexSkill, index: string): SearchHit {
  const type = s.artifact?.type;
  return {
    name: s.name,
    description: s.description,
    index,
    files: type === "skill-md" ? 1 : s.files.length,
    package: type === "archive" || s.package !== undefined,
    ...(type ? { type } : {}),
  };
}

/** What `hub search` returns. */
export interface SearchResult {
  /** True when at least one index answered. */
  success: true;
  /** The query. */
  query: string;
  /** Matches, by index order then name. */
  results: SearchHit[];
  /** Indexes that could not be read, with why. */
  unreachable: { index: string; error: string }[];
  /** Entries skipped as malformed. */
  problems: string[];
}

/** Searches the indexes for skills whose name or description holds every word of `query`. */
export async function searchIndexes(indexes: string[], query: string): Promise<SearchResult> {
  if (indexes.length === 0) {
    throw new UsageError(
      "No well-known index to search: pass --index URL or set skills.hub.indexes in config.yaml.",
    );
  }
  const results: SearchHit[] = [];
  const unreachable: SearchResult["unreachable"] = [];
  const problems: string[] = [];
  for (const index of indexes) {
    try {
      const doc = await fetchIndex(index);
      problems.push(...doc.problems);
      for (const s of matchSkills(doc.skills, query).sort((a, b) => a.name < b.name ? -1 : 1)) {
        results.push(hitOf(s, doc.at));
      }
    } catch (error) {
      unreachable.push({ index, error: (error as Error).message });
    }
  }
  if (unreachable.length === indexes.length) {
    throw new SkillrtError(unreachable.map((u) => u.error).join(" "), { unreachable });
  }
  return { success: true, query, results, unreachable, problems };
}

/** A skill fetched from an index, ready for the quarantine. */
export interface WellKnownSkill {
  /** `<index URL>#<name>`: what `hub check|update` fetch again. */
  identifier: string;
  /** Its files, checked against the index. */
  files: ArchiveFile[];
  /** Integrity warnings (a v0.1 index has no digests to check). */
  warnings: string[];
  /** The index's verified signature, when it has one (its label only when it binds the files). */
  signature?: SignatureCheck;
  /** The index's `sequence`, when it has one ([T-2]). */
  sequence?: number;
  /** The site a signed index is for, checked against where it was read ([T-2]). */
  site?: string;
}

/**
 * What a verified signature says of one entry: its key's label (trust) only when the
 * key is trusted and the signed index binds every byte of the entry by a digest (an
 * artifact's, a package's, the skill's, or each file's) — else the key alone, with a warning.
 */
function signatureOver(
  skill: IndexSkill,
  signature: SignatureCheck,
  warnings: string[],
): SignatureCheck {
  if (signature.label === undefined) {
    warnings.push(
      `The index is signed by ${signature.key}, which is not in skills.hub.trusted_keys.`,
    );
    return signature;
  }
  if (boundByDigest(skill)) return signature;
  warnings.push(
    `'${skill.name}' is in an index signed by '${signature.label}' without digests that bind its files; it is not trusted.`,
  );
  return { key: signature.key };
}

/**
 * Finds `name` in the indexes (first index that lists it wins) and fetches its files;
 * each index's signature is checked against `trustedKeys` ([T-2]).
 */
export async function fetchWellKnown(
  indexes: string[],
  name: string,
  trustedKeys: Record<string, string> = {},
): Promise<WellKnownSkill> {
  const tried: string[] = [];
  for (const index of indexes) {
    const { doc, at, signature, site } = await fetchSignedIndex(index, trustedKeys);
    const ambiguous = ambiguousProblem(doc, name, at);
    if (ambiguous) throw new AmbiguousError(ambiguous);
    const skill = doc.skills.find((s) => s.name === name);
    if (!skill) {
      tried.push(at);
      continue;
    }
    const { files, warnings } = await entryFiles(skill, at);
    return {
      identifier: `${index}#${name}`,
      files,
      warnings,
      ...(signature ? { signature: signatureOver(skill, signature, warnings) } : {}),
      ...(doc.sequence !== undefined ? { sequence: doc.sequence } : {}),
      ...(site !== undefined ? { site } : {}),
    };
  }
  throw new NotFoundError(
    `No skill '${name}' in the index${tried.length > 1 ? "es" : ""}: ${tried.join(", ")}.`,
  );
}
