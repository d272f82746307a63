/**
 * `hub publish DIR… --out SITE [--base-url URL] [--sign KEYFILE] [--force]` ([T-1],
 * [T-2], [IO-2]): a static site any host can serve — `SITE/.well-known/agent-skills/index.json`
 * in the final discovery format v0.2.0 (`$schema`; per skill `name`, `type`,
 * `description`, `url`, `digest` of the artifact at `url`: the SKILL.md of a skill that
 * is only that, else a reproducible `<name>.tar.gz`), each skill's files under `<name>/`,
 * and with `--sign` a detached `index.json.sig` over the index's exact bytes. skillrt's
 * extras — each file's digest (`files`), the scan (`scan`), the index's `sequence` — are
 * fields other clients ignore. The same input gives the same bytes; a file whose bytes
 * are already there is not rewritten and a skill whose files are unchanged is not
 * re-packed. Writes stay inside the site's real folder, never through a link.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { isInside, joinPath, resolvePath } from "../home/paths.ts";
import { atomicWrite, linkRefusal } from "../manage/atomic.ts";
import { sha256Hex } from "../hash/sha256.ts";
import { filesBelow } from "./content_hash.ts";
import { collectSkills, type PublishSkill } from "./publish_collect.ts";
import { SIGNATURE_SUFFIX, signBytes } from "./signing.ts";
import { siteForm } from "./signed_site.ts";
import { tarGzBytes } from "./tar_write.ts";
import {
  type ArtifactType,
  DISCOVERY_SCHEMA,
  parseIndex,
  type WellKnownIndex,
} from "./well_known_index.ts";
import { WELL_KNOWN_PATH } from "./source.ts";

/** How to publish. */
export interface PublishOptions {
  /** The working folder the paths are relative to. */
  cwd: string;
  /** The folders of skills. */
  dirs: string[];
  /** The site folder. */
  out: string;
  /** The public URL of the site; package URLs are then absolute. */
  baseUrl?: string;
  /** Publish `dangerous` skills too. */
  force?: boolean;
  /** A private key file to sign the index with. */
  signKey?: string;
  /** The least `sequence` the index gets (a site rebuilt from nothing: say, the commit count). */
  sequence?: number;
}

/** What a publish did. */
export interface PublishResult {
  /** Always true. */
  success: true;
  /** The index file written. */
  index: string;
  /** Each skill with its digest and verdict. */
  skills: { name: string; digest: string; verdict: string; files: number }[];
  /** Skills whose package was (re)written. */
  packed: string[];
  /** Skills of the previous index that are no longer published (removed). */
  removed: string[];
  /** The index's `sequence` ([T-2]). */
  sequence: number;
  /** The signer's public key line, when signed. */
  signedBy?: string;
}

/** The folder of the index inside the site. */
export function indexFolder(site: string): string {
  return joinPath(site, ...WELL_KNOWN_PATH.split("/").slice(1, -1));
}

/** Makes `rel` below the real folder `base`, refusing any part that is a link or not a folder. */
function ensureInside(base: string, rel: string): string {
  let dir = base;
  for (const part of rel.split("/").filter((p) => p !== "")) {
    dir = joinPath(dir, part);
    try {
      const info = Deno.lstatSync(dir);
      if (!info.isDirectory) throw linkRefusal(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      Deno.mkdirSync(dir);
    }
  }
  return dir;
}

function sameBytes(path: string, data: Uint8Array): boolean {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size !== data.length) return false;
    const old = Deno.readFileSync(path);
    return old.every((b, i) => b === data[i]);
  } catch {
    return false;
  }
}

/** Writes `data` at `rel` below the site's real folder unless the same bytes are there. */
function writeInSite(site: string, rel: string, data: Uint8Array): boolean {
  const slash = rel.lastIndexOf("/");
  const dir = slash === -1 ? site : ensureInside(site, rel.slice(0, slash));
  const path = joinPath(dir, rel.slice(slash + 1));
  if (sameBytes(path, data)) return false;
  atomicWrite(path, data, { within: site });
  return true;
}

function removeInSite(site: string, rel: string): void {
  const path = joinPath(site, rel);
  if (!isInside(site, path) || path === site) return;
  try {
    Deno.removeSync(path, { recursive: Deno.lstatSync(path).isDirectory });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

function previousIndex(folder: string): Pick<Site, "before" | "beforeEntries"> {
  try {
    const text = Deno.readTextFileSync(joinPath(folder, "index.json"));
    const before = parseIndex(text, "index.json");
    return { before, beforeEntries: JSON.parse(text).skills };
  } catch {
    return {}; // None yet, or not one: published afresh.
  }
}

/**
 * The index's `sequence` ([T-2]): the one published before while the entries are the
 * same (the same input gives the same bytes), else one more — and never below `least`
 * (`--sequence`) — so a signed index can never be replaced by an older one without the
 * client seeing it go back.
 */
function nextSequence(at: Site, entries: unknown[], least = 0): number {
  const previous = at.before?.sequence ?? 0;
  const same = JSON.stringify(at.beforeEntries) === JSON.stringify(entries) &&
    at.before?.sequence !== undefined;
  return Math.max(least, same ? previous : previous + 1);
}

/** The URL of `rel` (a path below the well-known folder): relative to the index, or below `baseUrl`. */
function siteUrl(rel: string, baseUrl?: string): string {
  if (!baseUrl) return rel;
  return `${baseUrl.replace(/\/+$/, "")}${WELL_KNOWN_PATH.replace(/index\.json$/, "")}${rel}`;
}

/** A skill's artifact in the index: what `url` serves and the digest of its bytes. */
interface Artifact {
  /** `skill-md` for a skill that is one SKILL.md, else `archive`. */
  type: ArtifactType;
  /** Where it is served. */
  url: string;
  /** `sha256:` of its bytes. */
  digest: string;
}

/** skillrt's extra `files` of an entry: each file's path and digest. */
const fileDigests = (skill: PublishSkill) =>
  skill.files.map((f) => ({ path: f.path, digest: `sha256:${f.hex}` }));

/** The index entry of a skill: the v0.2.0 fields, then skillrt's extras. */
function entryOf(skill: PublishSkill, artifact: Artifact) {
  return {
    name: skill.name,
    type: artifact.type,
    description: skill.description,
    url: artifact.url,
    digest: artifact.digest,
    files: fileDigests(skill),
    scan: { verdict: skill.verdict, findings: skill.findings.length },
  };
}

/** The site being written: its real folder and the well-known folder inside it. */
interface Site {
  /** The site's real path. */
  site: string;
  /** The well-known folder, absolute. */
  folder: string;
  /** The well-known folder, relative to the site. */
  rel: string;
  /** The index published there before, if any. */
  before?: WellKnownIndex;
  /** Its `skills` as written: skillrt's extras kept, what decides whether the sequence is raised. */
  beforeEntries?: Record<string, unknown>[];
}

/** Makes the output folder when missing and finds the well-known folder in it. */
function openSite(out: string): Site {
  try {
    Deno.mkdirSync(out, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const site = Deno.realPathSync(out);
  const folder = ensureInside(site, WELL_KNOWN_PATH.split("/").slice(1, -1).join("/"));
  return { site, folder, rel: folder.slice(site.length + 1), ...previousIndex(folder) };
}

/** Publishes the skills of `options.dirs` into `options.out` ([T-1]). */
export async function publishSite(options: PublishOptions): Promise<PublishResult> {
  if (options.baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(options.baseUrl)) {
    throw new UsageError(`--base-url '${options.baseUrl}' is not an http(s) URL.`);
  }
  if (options.signKey !== undefined && options.baseUrl === undefined) {
    throw new UsageError(
      "hub publish --sign needs --base-url URL: the signed index names the site it is served from, so it cannot be replayed from another.",
    );
  }
  const skills = collectSkills(options.cwd, options.dirs, options.force === true);
  const keyText = options.signKey
    ? Deno.readTextFileSync(resolvePath(options.cwd, options.signKey))
    : undefined;
  if (keyText !== undefined) await signBytes(keyText, new Uint8Array()); // a bad key fails first
  const out = resolvePath(options.cwd, options.out);
  const at = openSite(out);
  const packed: string[] = [];
  const entries = [];
  for (const skill of skills) {
    entries.push(entryOf(skill, await publishSkill(at, skill, packed, options.baseUrl)));
  }
  const names = new Set(skills.map((s) => s.name));
  const removed = (at.before?.skills ?? []).map((s) => s.name).filter((n) => !names.has(n)).sort();
  for (const name of removed) {
    removeInSite(at.site, `${at.rel}/${name}`);
    removeInSite(at.site, `${at.rel}/${name}.tar.gz`);
  }
  const sequence = nextSequence(at, entries, options.sequence);
  // Signed, the index names its site ([T-2], `signed_site.ts`); other clients ignore the field.
  const site = keyText !== undefined ? { site: siteForm(options.baseUrl!)! } : {};
  const index = { $schema: DISCOVERY_SCHEMA, sequence, ...site, skills: entries };
  const signedBy = await writeIndex(at, index, keyText);
  return {
    success: true,
    index: joinPath(out, at.rel, "index.json"),
    skills: skills.map((s) => ({
      name: s.name,
      digest: s.digest,
      verdict: s.verdict,
      files: s.files.length,
    })),
    packed,
    removed,
    sequence,
    ...(signedBy ? { signedBy } : {}),
  };
}

/** Writes one skill's files below `<name>/`, removing those it no longer has. */
function writeFiles(at: Site, skill: PublishSkill): void {
  const { site, folder, rel } = at;
  const listed = new Set(skill.files.map((f) => f.path));
  for (const f of skill.files) writeInSite(site, `${rel}/${skill.name}/${f.path}`, f.data);
  try {
    for (const old of filesBelow(joinPath(folder, skill.name))) {
      if (!listed.has(old)) removeInSite(site, `${rel}/${skill.name}/${old}`);
    }
  } catch {
    // A new skill: no folder before.
  }
}

/** The digest of the package already at `pkgRel` when the previous index lists it for these very files. */
function unchangedPackage(at: Site, skill: PublishSkill, pkgRel: string): string | undefined {
  const old = at.beforeEntries?.find((e) => e?.name === skill.name);
  if (
    old?.type !== "archive" || typeof old.digest !== "string" ||
    JSON.stringify(old.files) !== JSON.stringify(fileDigests(skill))
  ) return undefined;
  try {
    const bytes = Deno.readFileSync(joinPath(at.site, pkgRel));
    return `sha256:${sha256Hex(bytes)}` === old.digest ? old.digest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes one skill's files and its artifact: the SKILL.md of a skill that is only that
 * (a stale package removed), else its package — packed again only when its files
 * changed ([T-1]).
 */
async function publishSkill(
  at: Site,
  skill: PublishSkill,
  packed: string[],
  baseUrl?: string,
): Promise<Artifact> {
  writeFiles(at, skill);
  const pkgRel = `${at.rel}/${skill.name}.tar.gz`;
  if (skill.files.length === 1 && skill.files[0].path === "SKILL.md") {
    removeInSite(at.site, pkgRel);
    const url = siteUrl(`${skill.name}/SKILL.md`, baseUrl);
    return { type: "skill-md", url, digest: `sha256:${skill.files[0].hex}` };
  }
  const url = siteUrl(`${skill.name}.tar.gz`, baseUrl);
  const kept = unchangedPackage(at, skill, pkgRel);
  if (kept) return { type: "archive", url, digest: kept };
  const bytes = await tarGzBytes(skill.files.map((f) => ({ path: f.path, data: f.data })));
  writeInSite(at.site, pkgRel, bytes);
  packed.push(skill.name);
  return { type: "archive", url, digest: `sha256:${sha256Hex(bytes)}` };
}

/** Writes `index.json`, and its signature with a key (else removes a stale one); the signer's label. */
async function writeIndex(
  at: Site,
  index: {
    $schema: string;
    sequence: number;
    site?: string;
    skills: ReturnType<typeof entryOf>[];
  },
  keyText?: string,
): Promise<string | undefined> {
  const indexBytes = new TextEncoder().encode(JSON.stringify(index, null, 2) + "\n");
  writeInSite(at.site, `${at.rel}/index.json`, indexBytes);
  const signature = `${at.rel}/index.json${SIGNATURE_SUFFIX}`;
  if (keyText === undefined) {
    removeInSite(at.site, signature); // a stale signature would refuse the index
    return undefined;
  }
  const sig = await signBytes(keyText, indexBytes);
  writeInSite(at.site, signature, new TextEncoder().encode(sig));
  return sig.split(" ")[0];
}
