/**
 * The files of one index entry ([IO-1], [HUB-2]), fetched from the index's own origin
 * (`onIndexOrigin`; a v0.2.0 artifact may lie on another host, a CDN, which its digest
 * binds) and checked before anything is used: a v0.2.0 artifact against its
 * `digest` (the raw bytes of the SKILL.md or the archive; an archive then read under the
 * [HUB-2] limits and refusals, the skill at its root); a draft package against its
 * digest and the files listed; loose files against their digests and the skill digest.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { ValidationError } from "../errors.ts";
import { ARCHIVE_LIMITS, type ArchiveFile, download, readArchiveBytes } from "./archive.ts";
import { type IndexUrlOptions, onIndexOrigin } from "./source_grammar.ts";
import type { IndexArtifact, IndexSkill } from "./index_entries.ts";
import { skillDigest } from "./well_known_index.ts";

/**
 * Downloads what `url` (as the index wrote it) names, on the index's origin (an artifact:
 * where `onIndexOrigin` lets it lie), checked against `digest`.
 */
async function verifiedBytes(
  skill: IndexSkill,
  index: string,
  url: string,
  digest: string,
  what: string,
  options: IndexUrlOptions = {},
): Promise<{ bytes: Uint8Array; url: string }> {
  const at = onIndexOrigin(url, index, skill.name, options);
  const bytes = await download(at);
  if (`sha256:${sha256Hex(bytes)}` !== digest) {
    throw new ValidationError(`Refusing '${skill.name}': the ${what} does not match its digest.`);
  }
  return { bytes, url: at };
}

/** A v0.2.0 artifact: the SKILL.md itself, or an archive holding the skill at its root. */
async function artifactFiles(skill: IndexSkill, index: string): Promise<ArchiveFile[]> {
  const { type, url, digest } = skill.artifact as IndexArtifact;
  const got = await verifiedBytes(
    skill,
    index,
    url,
    digest,
    type === "archive" ? "archive" : "SKILL.md",
    { artifact: true },
  );
  if (type === "skill-md") return [{ path: "SKILL.md", data: got.bytes }];
  const files = await readArchiveBytes(got.bytes, new URL(got.url).pathname);
  if (!files.some((f) => f.path === "SKILL.md")) {
    throw new ValidationError(`Refusing '${skill.name}': the archive has no SKILL.md at its root.`);
  }
  return files;
}

/** The draft's package: its digest, then no file the index does not list. */
async function packageFiles(skill: IndexSkill, index: string): Promise<ArchiveFile[]> {
  const { url, digest } = skill.package!;
  const got = await verifiedBytes(skill, index, url, digest, "package");
  const files = await readArchiveBytes(got.bytes, new URL(got.url).pathname);
  const listed = new Set(skill.files.map((f) => f.path));
  const extra = files.find((f) => !listed.has(f.path));
  if (extra) {
    throw new ValidationError(
      `Refusing '${skill.name}': the package holds unlisted '${extra.path}'.`,
    );
  }
  return files;
}

/** v0.1 and the draft without a package: each file at `<name>/<path>` beside the index. */
async function singleFiles(skill: IndexSkill, index: string): Promise<ArchiveFile[]> {
  if (skill.files.length > ARCHIVE_LIMITS.files) {
    throw new ValidationError(`Refusing '${skill.name}': more than ${ARCHIVE_LIMITS.files} files.`);
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
    if (!data) throw new ValidationError(`Refusing '${skill.name}': '${f.path}' is missing.`);
    const hex = sha256Hex(data);
    if (f.digest && f.digest !== `sha256:${hex}`) {
      throw new ValidationError(`Refusing '${skill.name}': '${f.path}' does not match its digest.`);
    }
    hashed.push({ path: f.path, hex });
  }
  if (skill.digest && skillDigest(hashed) !== skill.digest) {
    throw new ValidationError(`Refusing '${skill.name}': the files do not match the skill digest.`);
  }
  const unverified = skill.files.some((f) => !f.digest);
  return unverified
    ? [`'${skill.name}' comes from an index without file digests; its integrity is unverified.`]
    : [];
}

/** The files of `skill` of the index at `index`, checked, with integrity warnings. */
export async function entryFiles(
  skill: IndexSkill,
  index: string,
): Promise<{ files: ArchiveFile[]; warnings: string[] }> {
  if (skill.artifact) return { files: await artifactFiles(skill, index), warnings: [] };
  const files = skill.package ? await packageFiles(skill, index) : await singleFiles(skill, index);
  return { files, warnings: verifyAgainstIndex(skill, files) };
}

/** True when the index binds every byte of the entry by a digest (an artifact's, a package's, the skill's or each file's). */
export function boundByDigest(skill: IndexSkill): boolean {
  if (skill.artifact) return true;
  return skill.package !== undefined || skill.digest !== undefined ||
    (skill.files.length > 0 && skill.files.every((f) => f.digest !== undefined));
}
