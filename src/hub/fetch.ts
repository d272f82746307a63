/**
 * Fetching a hub source into the quarantine ([HUB-1], [HUB-2]): local folders and
 * archives, HTTP(S) archives and GitHub tarballs (downloaded within the limit), and git
 * repositories (a shallow clone by the `git` program).
 *
 * @module
 */
import { NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { openInside, readCapped } from "../files/open_inside.ts";
import {
  basename,
  dirname,
  ensureDir,
  existsHere,
  isAbsoluteAnywhere,
  joinPath,
  resolvePath,
} from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import {
  ARCHIVE_LIMITS,
  type ArchiveFile,
  download,
  readArchive,
  readArchiveBytes,
  skillRootOf,
} from "./archive.ts";
import { type Trust, trustOf } from "./policy.ts";
import { assertCleanFileName } from "../manage/file_names.ts";
import {
  collectionOf,
  type CollectionSkill,
  declaredOf,
  skillFoldersOfDir,
  skillFoldersOfFiles,
  type Skipped,
  slugForm,
} from "./collection.ts";
import { ARCHIVE, type Source, sourceName } from "./source.ts";
import { fetchWellKnown } from "./well_known.ts";
import { sourceOf } from "./source_of.ts";
import { trustedKeysOf } from "./signing.ts";
import { fetchGithub } from "./github.ts";
import { gitClone } from "./git_clone.ts";
import { collectionFolders, filesTree, folderTree } from "./marketplace.ts";

/** Copies a folder into the quarantine, refusing links (symbolic and hard), devices and oversize trees. */
export function copyIntoQuarantine(source: string, target: string): void {
  const real = Deno.realPathSync(source);
  let files = 0;
  let bytes = 0;
  const walk = (rel: string) => {
    const from = rel ? joinPath(source, rel) : source;
    Deno.mkdirSync(rel ? joinPath(target, rel) : target, { recursive: true });
    for (const e of Deno.readDirSync(from)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === ".git") continue;
      assertCleanFileName(path);
      if (e.isSymlink) {
        throw new ValidationError(`Refusing to install: '${path}' is a symbolic link.`);
      }
      if (e.isDirectory) {
        walk(path);
        continue;
      }
      if (!e.isFile) {
        throw new ValidationError(`Refusing to install: '${path}' is not a regular file.`);
      }
      if (++files > ARCHIVE_LIMITS.files) {
        throw new ValidationError(`Refusing to install: more than ${ARCHIVE_LIMITS.files} files.`);
      }
      const data = readSourceFile(real, path, ARCHIVE_LIMITS.extracted - bytes);
      if (data === null) {
        throw new ValidationError(
          `Refusing to install: more than ${ARCHIVE_LIMITS.extracted} bytes.`,
        );
      }
      bytes += data.length;
      Deno.writeFileSync(joinPath(target, path), data, { createNew: true });
    }
  };
  walk("");
}

/**
 * A file of a source folder, read as skill content is ([S-9]): through a handle proved
 * inside the folder, a hard link refused (see `openInside`). Null past `max` bytes.
 */
function readSourceFile(real: string, path: string, max: number): Uint8Array | null {
  using file = openInside(real, path, { dirWithin: [real] });
  return readCapped(file, max);
}

/** What a source put into the quarantine, before the shared steps. */
export interface Fetched {
  /** The resolved identifier (a real path). */
  identifier: string;
  /** How far it is trusted. */
  trust: Trust;
  /** The folder name to fall back on for the skill's name. */
  folder: string;
  /** The SKILL.md text. */
  text: string;
  /** Fills the quarantine folder. */
  fill(quarantine: string): void;
  /** Integrity warnings to pass on to the user. */
  warnings?: string[];
  /** The label of the trusted key that signed the index it came from ([T-2]). */
  signedBy?: string;
  /** That key's public key line: what a signed install stays bound to ([T-2]). */
  signingKey?: string;
  /** The signed index's `sequence`: an update may not go below it ([T-2]). */
  indexSequence?: number;
  /** The site the signed index is for (checked where it was read): an update comes from it ([T-2]). */
  indexSite?: string;
  /** Set when the source holds several skills ([HUB-8]); `text` and `fill` are then unused. */
  collection?: Collection;
  /** The commit it came from (a git clone's, a GitHub tarball's), for a lock export ([T-4]). */
  commit?: string;
}

/** The skills of a collection source and how to put one of them into a quarantine. */
export interface Collection {
  /** Its skills, sorted by path. */
  skills: CollectionSkill[];
  /** Links that were not followed. */
  skipped: Skipped[];
  /** Fills `quarantine` with the skill at `path`. */
  fill(path: string, quarantine: string): void;
  /** The SKILL.md text of the skill at `path`. */
  text(path: string): string;
}

/** The files of an archive below `root`, with paths relative to it. */
function filesBelow(files: ArchiveFile[], root: string): ArchiveFile[] {
  return files.filter((f) => root === "" || f.path.startsWith(root + "/"))
    .map((f) => ({ path: root === "" ? f.path : f.path.slice(root.length + 1), data: f.data }));
}

/** Writes archive files into a quarantine folder. */
function writeFiles(files: ArchiveFile[], quarantine: string): void {
  for (const f of files) {
    ensureDir(dirname(joinPath(quarantine, f.path)));
    Deno.writeFileSync(joinPath(quarantine, f.path), f.data);
  }
}

const skillText = (files: ArchiveFile[]) =>
  new TextDecoder().decode(files.find((f) => f.path === "SKILL.md")!.data);

/**
 * The skill inside an archive's files (its folder, SKILL.md text and how to unpack it),
 * or the collection of skills it holds ([HUB-8]).
 */
function unpack(
  files: ArchiveFile[],
): Pick<Fetched, "text" | "fill" | "collection"> & { root: string } {
  const { folders, skipped } = collectionFolders(filesTree(files, skillFoldersOfFiles(files)));
  if (folders.length > 1) {
    const below = (path: string) => filesBelow(files, path);
    return {
      root: "",
      text: "",
      fill: () => {},
      collection: {
        skills: collectionOf(folders.map((path) => ({ path, text: skillText(below(path)) }))),
        skipped,
        fill: (path, quarantine) => writeFiles(below(path), quarantine),
        text: (path) => skillText(below(path)),
      },
    };
  }
  const root = folders[0] ?? skillRootOf(files);
  const inside = filesBelow(files, root);
  return { root, text: skillText(inside), fill: (quarantine) => writeFiles(inside, quarantine) };
}

/** A source folder holding no SKILL.md of its own: its one skill, or its collection ([HUB-8]). */
function fromFolder(
  folder: string,
  missing: string,
): Pick<Fetched, "text" | "fill" | "folder" | "collection"> {
  let own = true;
  try {
    Deno.lstatSync(joinPath(folder, "SKILL.md"));
  } catch {
    own = false; // No SKILL.md here: look below.
  }
  if (own) {
    const text = readSourceSkill(folder, missing); // refuses a link
    return { text, folder: basename(folder), fill: (q) => copyIntoQuarantine(folder, q) };
  }
  const walked = skillFoldersOfDir(folder);
  const { folders, skipped: unfollowed } = collectionFolders(folderTree(folder, walked.folders));
  const skipped = [...walked.skipped, ...unfollowed];
  if (folders.length === 0) readSourceSkill(folder, missing); // refuses a link, else `missing`
  if (folders.length === 1) return fromFolder(joinPath(folder, folders[0]), missing);
  const text = (path: string) => readSourceSkill(joinPath(folder, path), missing);
  return {
    text: "",
    folder: basename(folder),
    fill: () => {},
    collection: {
      skills: collectionOf(folders.map((path) => ({ path, text: text(path) }))),
      skipped: skipped.filter((s) => !folders.some((f) => s.path.startsWith(`${f}/`))),
      fill: (path, quarantine) => copyIntoQuarantine(joinPath(folder, path), quarantine),
      text,
    },
  };
}

/**
 * The SKILL.md of a source folder, never read through a symbolic link.
 * @throws {SkillrtError} `missing` when there is none, or a refusal for a link.
 */
function readSourceSkill(folder: string, missing: string): string {
  const file = joinPath(folder, "SKILL.md");
  try {
    if (Deno.lstatSync(file).isSymlink) {
      throw new ValidationError("Refusing to install: 'SKILL.md' is a symbolic link.");
    }
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    throw new NotFoundError(missing);
  }
}

/** Reads a local source: a skill folder (trust `local`) or an archive (trust `community`). */
export async function fetchLocal(source: string): Promise<Fetched> {
  let real: string;
  try {
    real = Deno.realPathSync(source);
  } catch {
    throw new NotFoundError(`Source '${source}' does not exist.`);
  }
  if (ARCHIVE.test(real) && Deno.statSync(real).isFile) {
    const { root, ...found } = unpack(await readArchive(real));
    return {
      identifier: real,
      trust: trustOf({ kind: "other" }),
      folder: root.split("/").pop() || basename(real).replace(ARCHIVE, ""),
      ...found,
    };
  }
  return {
    identifier: real,
    trust: trustOf({ kind: "local-folder" }),
    ...fromFolder(real, `Source '${source}' has no SKILL.md.`),
  };
}

function fromFiles(
  files: ArchiveFile[],
  identifier: string,
  trust: Trust,
  folder: string,
): Fetched {
  const { text, fill, collection } = unpack(files);
  return { identifier, trust, folder, text, fill, collection };
}

/**
 * The folder `subpath` names inside a checkout: a plain relative path none of whose
 * components is a symbolic link ([S-9]) — a repository cannot make the install copy a
 * folder from elsewhere on this machine.
 * @throws {SkillrtError} for `..`, an absolute path, or a link on the way.
 */
export function checkoutFolder(work: string, subpath: string): string {
  const parts = subpath.split("/").filter((p) => p !== "" && p !== ".");
  if (isAbsoluteAnywhere(subpath) || parts.includes("..")) {
    throw new ValidationError(
      `The subpath '${subpath}' must be a relative path inside the repository.`,
    );
  }
  let path = work;
  for (const part of parts) {
    path = joinPath(path, part);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      throw new NotFoundError(`The repository has no folder '${subpath}'.`);
    }
    if (info.isSymlink) {
      throw new ValidationError(
        `Refusing to install: '${subpath}' passes through a symbolic link in the repository.`,
      );
    }
  }
  return path;
}

/**
 * The line that says a folder here is named like a remote source that was fetched instead
 * ([IO-5]): `owner/repo` is always the repository; the folder is spelled `./owner/repo`.
 */
export function shadowHint(setup: HomeLayout, raw: string): string[] {
  if (!existsHere(resolvePath(setup.host.cwd, raw))) return [];
  return [
    `A local folder '${raw}' exists; it was not installed ('${raw}' is a remote source). Spell it './${raw}' to install the folder.`,
  ];
}

/**
 * Fetches any source ([HUB-1]); `work` is a scratch folder for git clones and `index`
 * a well-known index to look a bare name up in instead of the configured ones.
 */
export async function fetchSource(
  setup: HomeLayout,
  raw: string,
  work: string,
  index?: string,
): Promise<Fetched> {
  const source = sourceOf(setup, raw, index);
  const fetched = await fetchParsed(setup, source, work);
  const hint = source.kind === "local" ? [] : shadowHint(setup, raw);
  return hint.length ? { ...fetched, warnings: [...hint, ...fetched.warnings ?? []] } : fetched;
}

/** Fetches a parsed source. */
async function fetchParsed(setup: HomeLayout, source: Source, work: string): Promise<Fetched> {
  const name = sourceName(source);
  switch (source.kind) {
    case "well-known":
      return await fetchFromIndex(setup, source, name);
    case "local":
      return await fetchLocal(resolvePath(setup.host.cwd, source.path));
    case "http": {
      const bytes = await download(source.url);
      const files = await readArchiveBytes(bytes, new URL(source.url).pathname);
      return fromFiles(files, source.url, trustOf({ kind: "other" }), name);
    }
    case "github": {
      const got = await fetchGithub(source);
      const commit = got.commit !== undefined ? { commit: got.commit } : {};
      return {
        ...fromFiles(got.files, got.identifier, got.trust, name),
        warnings: got.warnings,
        ...commit,
      };
    }
    case "git":
      return await fetchGit(source, name, work);
  }
}

/** A skill looked up by name in well-known indexes; a trusted signature makes it `trusted` ([T-2]). */
async function fetchFromIndex(
  setup: HomeLayout,
  source: Extract<Source, { kind: "well-known" }>,
  name: string,
): Promise<Fetched> {
  const got = await fetchWellKnown(source.indexes, source.name, trustedKeysOf(setup.config.hub));
  const label = got.signature?.label;
  const trust = label !== undefined ? "trusted" : trustOf({ kind: "other" });
  const found = fromFiles(got.files, got.identifier, trust, name);
  const declared = found.collection ? name : declaredOf(found.text, name).name;
  if (slugForm(declared) !== name) {
    // It installs under its frontmatter's name ([IO-5]): an index may not list it as another.
    throw new ValidationError(
      `Refusing '${name}': its SKILL.md is named '${declared}', not the index's '${name}'.`,
    );
  }
  return {
    ...found,
    warnings: got.warnings,
    ...(got.signature ? { signingKey: got.signature.key } : {}),
    ...(label !== undefined ? { signedBy: label } : {}),
    ...(got.sequence !== undefined ? { indexSequence: got.sequence } : {}),
    ...(got.site !== undefined ? { indexSite: got.site } : {}),
  };
}

/** A git repository, cloned into `work`; the skill at its subpath. */
async function fetchGit(
  source: Extract<Source, { kind: "git" }>,
  name: string,
  work: string,
): Promise<Fetched> {
  const commit = await gitClone(source.url, source.ref, work);
  const folder = source.subpath ? checkoutFolder(work, source.subpath) : work;
  const found = fromFolder(folder, `The repository has no SKILL.md at '${source.subpath ?? "/"}'.`);
  return {
    // The commit that was checked out: what a `#<sha>` pinned, or where the branch was.
    identifier: `${source.url}#${commit}`,
    commit,
    trust: trustOf({ kind: "other" }),
    ...found,
    folder: name,
  };
}
