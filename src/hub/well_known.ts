/**
 * Fetching from Agent Skills well-known indexes ([HUB-1]): `hub search` over the
 * configured indexes (`skills.hub.indexes` or `--index`) and installing a skill by name.
 * A skill comes as its package archive or file by file; every byte is checked against
 * the index's digests before it reaches the quarantine, and everything is fetched from
 * the index's own host, the only one the sandbox plan grants.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { SkillrtError, UsageError } from "../errors.ts";
import type { Setup } from "../home/setup.ts";
import { ARCHIVE_LIMITS, type ArchiveFile, download, readArchiveBytes } from "./archive.ts";
import { onIndexOrigin } from "./source_grammar.ts";
import { SIGNATURE_SUFFIX, type SignatureCheck, verifySignature } from "./signing.ts";
import {
  type IndexSkill,
  indexUrl,
  matchSkills,
  parseIndex,
  skillDigest,
  type WellKnownIndex,
} from "./well_known_index.ts";

/** The index URLs to use: `--index` when given, else `skills.hub.indexes` (a list or one string). */
export function configuredIndexes(setup: Setup, option?: string): string[] {
  if (option) return [indexUrl(option)];
  const raw = setup.config.hub.indexes;
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : [];
  return list.filter((v): v is string => typeof v === "string").map(indexUrl);
}

/** Downloads and parses one index. */
export async function fetchIndex(url: string): Promise<WellKnownIndex> {
  return parseIndex(new TextDecoder().decode(await download(url)), url);
}

/** The detached signature beside an index, or undefined when the host has none (404). */
async function fetchSignature(url: string): Promise<string | undefined> {
  const sigUrl = url + SIGNATURE_SUFFIX;
  let response: Response;
  try {
    response = await fetch(sigUrl, { redirect: "follow" });
  } catch (error) {
    throw new SkillrtError(
      `Cannot download '${sigUrl}': ${(error as Error).message.split("\n")[0]}`,
    );
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    return undefined;
  }
  await response.body?.cancel();
  return new TextDecoder().decode(await download(sigUrl, 4096));
}

/**
 * Downloads an index and checks its detached signature ([T-2]): none → unsigned; one
 * that does not verify → refused; one that verifies → its key, and its label when the
 * key is in `trustedKeys`.
 */
export async function fetchSignedIndex(
  url: string,
  trustedKeys: Record<string, string>,
): Promise<{ doc: WellKnownIndex; signature?: SignatureCheck }> {
  const bytes = await download(url);
  const sig = await fetchSignature(url);
  const signature = sig === undefined
    ? undefined
    : await verifySignature(bytes, sig, trustedKeys, url);
  return {
    doc: parseIndex(new TextDecoder().decode(bytes), url),
    ...(signature ? { signature } : {}),
  };
}

/** One search hit. */
export interface SearchHit {
  /** The skill's name (install it with `hub install NAME`). */
  name: string;
  /** Its description. */
  description: string;
  /** The index that lists it. */
  index: string;
  /** How many files it has. */
  files: number;
  /** True when it offers a package archive. */
  package: boolean;
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
        results.push({
          name: s.name,
          description: s.description,
          index,
          files: s.files.length,
          package: s.package !== undefined,
        });
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
}

async function packageFiles(skill: IndexSkill, index: string): Promise<ArchiveFile[]> {
  const url = onIndexOrigin(skill.package!.url, index, skill.name);
  const bytes = await download(url);
  if (`sha256:${sha256Hex(bytes)}` !== skill.package!.digest) {
    throw new SkillrtError(`Refusing '${skill.name}': the package does not match its digest.`);
  }
  const files = await readArchiveBytes(bytes, new URL(url).pathname);
  const listed = new Set(skill.files.map((f) => f.path));
  const extra = files.find((f) => !listed.has(f.path));
  if (extra) {
    throw new SkillrtError(`Refusing '${skill.name}': the package holds unlisted '${extra.path}'.`);
  }
  return files;
}

async function singleFiles(skill: IndexSkill, index: string): Promise<ArchiveFile[]> {
  if (skill.files.length > ARCHIVE_LIMITS.files) {
    throw new SkillrtError(`Refusing '${skill.name}': more than ${ARCHIVE_LIMITS.files} files.`);
  }
  const files: ArchiveFile[] = [];
  let budget = ARCHIVE_LIMITS.download;
  for (const f of skill.files) {
    const rel = f.path.split("/").map(encodeURIComponent).join("/");
    const data = await download(onIndexOrigin(`${skill.name}/${rel}`, index, skill.name), budget);
    budget -= data.length;
    files.push({ path: f.path, data });
  }
  return files;
}

/** Checks files against the index: each listed file present, per-file and skill digests equal. */
export function verifyAgainstIndex(skill: IndexSkill, files: ArchiveFile[]): string[] {
  const byPath = new Map(files.map((f) => [f.path, f.data]));
  const hashed: { path: string; hex: string }[] = [];
  for (const f of skill.files) {
    const data = byPath.get(f.path);
    if (!data) throw new SkillrtError(`Refusing '${skill.name}': '${f.path}' is missing.`);
    const hex = sha256Hex(data);
    if (f.digest && f.digest !== `sha256:${hex}`) {
      throw new SkillrtError(`Refusing '${skill.name}': '${f.path}' does not match its digest.`);
    }
    hashed.push({ path: f.path, hex });
  }
  if (skill.digest && skillDigest(hashed) !== skill.digest) {
    throw new SkillrtError(`Refusing '${skill.name}': the files do not match the skill digest.`);
  }
  const unverified = skill.files.some((f) => !f.digest);
  return unverified
    ? [`'${skill.name}' comes from an index without file digests; its integrity is unverified.`]
    : [];
}

/**
 * What a verified signature says of one entry: its key's label (trust) only when the
 * key is trusted and the signed index binds every byte of the entry by a digest (a
 * package's, the skill's, or each file's) — else the key alone, with a warning.
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
  const bound = skill.package !== undefined || skill.digest !== undefined ||
    skill.files.every((f) => f.digest !== undefined);
  if (bound) return signature;
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
    const { doc, signature } = await fetchSignedIndex(index, trustedKeys);
    const skill = doc.skills.find((s) => s.name === name);
    if (!skill) {
      tried.push(index);
      continue;
    }
    const files = skill.package
      ? await packageFiles(skill, index)
      : await singleFiles(skill, index);
    const warnings = verifyAgainstIndex(skill, files);
    return {
      identifier: `${index}#${name}`,
      files,
      warnings,
      ...(signature ? { signature: signatureOver(skill, signature, warnings) } : {}),
      ...(doc.sequence !== undefined ? { sequence: doc.sequence } : {}),
    };
  }
  throw new SkillrtError(
    `No skill '${name}' in the index${tried.length > 1 ? "es" : ""}: ${tried.join(", ")}.`,
  );
}
