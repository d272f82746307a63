/**
 * `sync --from DIR` ([SY-1]): copies an agent's bundled skills into the local root and
 * tracks them in `skills/.bundled_manifest` — sorted `name:md5hex` lines, the MD5 over
 * each file's relative path and bytes in sorted order (Hermes' format) — and the folders
 * they were written to in `skills/.bundled_folders`. New skills are
 * copied; a skill changed upstream is updated only while the user's copy still matches
 * the manifest; a user-modified skill is left alone; one the user deleted is not restored;
 * one an external dir provides is skipped. The category `DESCRIPTION.md` files beside the
 * skill folders are copied too when missing (never overwritten), so `list --categories`
 * has them. Nothing outside the local root is touched.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { splitFrontmatter } from "../frontmatter/fence.ts";
import { parseFrontmatter } from "../frontmatter/parse.ts";
import { type SkillrtError, ValidationError } from "../errors.ts";
import { basename, dirname, ensureDir, isInside, joinPath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { creationTarget, makeDirsInside } from "../manage/apply.ts";
import { atomicWrite, linkRefusal, tempPathFor } from "../manage/atomic.ts";
import { assertCleanFileName } from "../manage/file_names.ts";
import { withLock } from "../manage/mutex.ts";
import { Catalog } from "../scan/catalog.ts";
import { walkRoot } from "../scan/walk.ts";
import { filesBelow } from "./content_hash.ts";
import {
  FOLDERS,
  MANIFEST,
  parseManifest,
  readFolders,
  renderFolders,
  renderManifest,
} from "./bundled_manifest.ts";
export { MANIFEST };
import { openInside, PathEscapeError, readCapped } from "../files/open_inside.ts";

/** The MD5 of a skill folder: every file's relative path and bytes, in sorted order. */
export function folderMd5(dir: string): string {
  const h = createHash("md5");
  for (const path of filesBelow(dir)) {
    h.update(path);
    h.update(Deno.readFileSync(joinPath(dir, path)));
  }
  return h.digest("hex");
}

/** What a sync did. */
export interface SyncResult {
  /** Always true. */
  success: true;
  /** New skills copied in. */
  copied: string[];
  /** Skills updated from upstream. */
  updated: string[];
  /** Skills the user changed: left alone. */
  userModified: string[];
  /** Skills the user deleted: not restored. */
  userDeleted: string[];
  /** Skills an external dir provides: skipped. */
  external: string[];
  /** Skills already up to date. */
  unchanged: string[];
  /** Category `DESCRIPTION.md` files copied in (paths below the local root). */
  descriptions: string[];
}

/** One skill of the folder being synced from. */
export interface UpstreamSkill {
  /** Its name (frontmatter `name`, else the folder name). */
  name: string;
  /** Its folder. */
  dir: string;
  /** Its folder relative to the folder synced from. */
  rel: string;
}

/**
 * The skills of the folder synced from ([SY-1]). A skill folder, `SKILL.md` or any file
 * whose real path leaves that folder, and any name with a control character, is refused
 * ([S-9], [X-7]): nothing outside what was named is ever copied in.
 * @throws {SkillrtError} for a link out of the folder or a bad name.
 */
export function upstreamSkills(from: string): UpstreamSkill[] {
  const real = Deno.realPathSync(from);
  return walkRoot(real, real).skills.map((s) => {
    const rel = s.rel || basename(s.dir);
    for (const part of rel.split("/")) assertCleanFileName(part);
    const dir = Deno.realPathSync(s.dir);
    if (!isInside(real, dir)) throw outside(from, rel);
    if (!isInside(dir, Deno.realPathSync(joinPath(s.dir, "SKILL.md")))) {
      throw outside(from, `${rel}/SKILL.md`);
    }
    for (const path of filesBelow(s.dir)) {
      path.split("/").forEach(assertCleanFileName);
      if (!isInside(dir, Deno.realPathSync(joinPath(s.dir, path)))) {
        throw outside(from, `${rel}/${path}`);
      }
    }
    const fence = splitFrontmatter(Deno.readTextFileSync(joinPath(dir, "SKILL.md")));
    const fm = fence.kind === "ok" ? parseFrontmatter(fence.yaml).data : {};
    const name = typeof fm.name === "string" && fm.name.trim() ? fm.name.trim() : basename(s.dir);
    return { name, dir, rel };
  });
}

/** The category description file's name ([L0-6]). */
const DESCRIPTION = "DESCRIPTION.md";

/** A category description of the folder synced from, read. */
export interface UpstreamDescription {
  /** Its path below the folder (and below the local root): `<category>/DESCRIPTION.md`. */
  rel: string;
  /** Its bytes, read through a handle proved inside the folder. */
  bytes: Uint8Array;
}

/** Largest category description copied (a larger one is passed over). */
const MAX_DESCRIPTION_BYTES = 1024 * 1024;

/**
 * The category `DESCRIPTION.md` files of the folder synced from (real path `real`): one
 * in each folder above a skill folder, below `real` itself, each read through a handle
 * proved inside `real` (no check-then-read gap). One whose real path leaves `real` is
 * refused like a skill's file; one that is not a regular file, or over 1 MiB, is passed over.
 * @throws {SkillrtError} for a link out of the folder.
 */
export function upstreamDescriptions(
  from: string,
  real: string,
  skills: UpstreamSkill[],
): UpstreamDescription[] {
  const folders = new Set<string>();
  for (const skill of skills) {
    const parts = skill.rel.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const out: UpstreamDescription[] = [];
  for (const folder of [...folders].sort()) {
    const rel = `${folder}/${DESCRIPTION}`;
    let file: Deno.FsFile;
    try {
      file = openInside(real, rel);
    } catch (error) {
      if (error instanceof PathEscapeError) throw outside(from, rel);
      continue; // none there, or not a regular file
    }
    try {
      const bytes = readCapped(file, MAX_DESCRIPTION_BYTES);
      if (bytes !== null) out.push({ rel, bytes });
    } finally {
      file.close();
    }
  }
  return out;
}

/**
 * Copies a category description into the local root when the local root has none there
 * (the user's own text is never overwritten): the same folder helpers and atomic writer
 * as the skills, nothing written through a link. Returns whether it was copied.
 */
function copyDescription(root: string, { rel, bytes }: UpstreamDescription): boolean {
  const target = joinPath(root, rel);
  try {
    Deno.lstatSync(target);
    return false;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  makeDirsInside(root, dirname(rel), false);
  const within = Deno.realPathSync(dirname(target));
  if (!isInside(Deno.realPathSync(root), within)) throw linkRefusal(target);
  // Under the manifest's lock, so its fixed temporary name is granted in the plan.
  atomicWrite(target, bytes, { within, fixedTemp: true });
  return true;
}

/**
 * What a sync may write for the category descriptions of `from` ([X-6]): for each one
 * missing from the local root, its first missing folder, or the file and its fixed
 * temporary name when the category folder is there already.
 */
export function descriptionTargets(root: string, from: string): string[] {
  const real = Deno.realPathSync(from);
  const out: string[] = [];
  for (const { rel } of upstreamDescriptions(from, real, upstreamSkills(from))) {
    const target = joinPath(root, rel);
    try {
      Deno.lstatSync(target);
      continue; // never overwritten
    } catch {
      // Missing: it may be written.
    }
    const first = creationTarget(root, target);
    out.push(first, ...(first === target ? [tempPathFor(target)] : []));
  }
  return out;
}

function outside(from: string, rel: string): SkillrtError {
  return new ValidationError(
    `Refusing to sync from '${from}': '${rel}' is a symbolic link that leaves it.`,
  );
}

/** Copies a skill folder into the local root: folders made and files written inside it only. */
function copyFolder(from: string, root: string, rel: string): void {
  makeDirsInside(root, rel, false);
  const to = joinPath(root, rel);
  const within = Deno.realPathSync(to);
  if (!isInside(Deno.realPathSync(root), within)) throw linkRefusal(to);
  for (const path of filesBelow(from)) {
    makeDirsInside(to, dirname(path));
    atomicWrite(joinPath(to, path), Deno.readFileSync(joinPath(from, path)), { within });
  }
}

/** Syncs the bundled skills in `from` into the local root. */
export async function syncBundled(setup: HomeLayout, from: string): Promise<SyncResult> {
  const root = setup.localRoot;
  const result: SyncResult = {
    success: true,
    copied: [],
    updated: [],
    userModified: [],
    userDeleted: [],
    external: [],
    unchanged: [],
    descriptions: [],
  };
  const upstream = upstreamSkills(from);
  const fromReal = Deno.realPathSync(from);
  const descriptions = upstreamDescriptions(from, fromReal, upstream);
  const externalNames = new Set(
    new Catalog(setup).index().records.filter((r) => r.source === "external").map((r) => r.name),
  );
  ensureDir(root);
  const manifestFile = joinPath(root, MANIFEST);
  await withLock(manifestFile, () => {
    let manifest = new Map<string, string>();
    try {
      manifest = parseManifest(Deno.readTextFileSync(manifestFile));
    } catch {
      // First sync.
    }
    for (const skill of upstream) {
      if (externalNames.has(skill.name)) result.external.push(skill.name);
      else syncSkill(skill, root, manifest, result);
    }
    syncDescriptions(root, upstream, descriptions, result);
    atomicWrite(manifestFile, renderManifest(manifest), { fixedTemp: true });
    // The folder each tracked skill was written to: how `run` knows it ([RUN-3]).
    const folders = readFolders(root);
    for (const skill of upstream) if (manifest.has(skill.name)) folders.add(skill.rel);
    atomicWrite(joinPath(root, FOLDERS), renderFolders(folders), { fixedTemp: true });
  });
  return result;
}

/**
 * Syncs one bundled skill: copied when new, updated when upstream changed and the user
 * did not; a skill the user changed, deleted or made there is left alone.
 */
function syncSkill(
  skill: UpstreamSkill,
  root: string,
  manifest: Map<string, string>,
  result: SyncResult,
): void {
  const target = joinPath(root, skill.rel);
  const upstreamHash = folderMd5(skill.dir);
  const recorded = manifest.get(skill.name);
  let present = true;
  try {
    Deno.statSync(joinPath(target, "SKILL.md"));
  } catch {
    present = false;
  }
  if (recorded === undefined) {
    if (present) {
      result.userModified.push(skill.name); // a skill of the user's own, same place: never overwritten
      return;
    }
    copyFolder(skill.dir, root, skill.rel);
    manifest.set(skill.name, upstreamHash);
    result.copied.push(skill.name);
  } else if (!present) {
    result.userDeleted.push(skill.name);
  } else if (folderMd5(target) !== recorded) {
    result.userModified.push(skill.name);
  } else if (upstreamHash !== recorded) {
    copyFolder(skill.dir, root, skill.rel);
    manifest.set(skill.name, upstreamHash);
    result.updated.push(skill.name);
  } else result.unchanged.push(skill.name);
}

/** A category's description goes with its skills: only where one of them is now here. */
function syncDescriptions(
  root: string,
  upstream: UpstreamSkill[],
  descriptions: UpstreamDescription[],
  result: SyncResult,
): void {
  const here = new Set([
    ...result.copied,
    ...result.updated,
    ...result.userModified,
    ...result.unchanged,
  ]);
  for (const description of descriptions) {
    const folder = dirname(description.rel);
    const served = upstream.some((s) => here.has(s.name) && s.rel.startsWith(`${folder}/`));
    if (served && copyDescription(root, description)) result.descriptions.push(description.rel);
  }
}
