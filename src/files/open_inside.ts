/**
 * Opening a file inside a folder with no check-then-open gap ([S-9], [F-1]): the file is
 * opened first, then the opened handle is proved to be the file that lies inside the
 * folder. Every read of skill content outside the local root's own `SKILL.md` files goes
 * through {@linkcode openInside} (see `src/scan/containment.ts` for which folder).
 *
 * Deno has no `openat` or `O_NOFOLLOW`, so the proof is made on the handle, by the one
 * proof of `proof.ts`: walking the path from a real folder with `lstat` — every folder on
 * the way a folder, no part a symbolic link, no folder changed since just before the open
 * — must end at the very file the handle holds (same device and inode); a folder in
 * motion takes {@linkcode VERIFY_ROUNDS} looks. When a link is on the way (a skill folder
 * linked within the roots, a file linked to a sibling), the path is resolved, must lie
 * inside the real folder, and is walked the same way from the folder, each look resolving
 * it again. A handle Deno does not let this process stat lies outside its read grant (in
 * the sandbox, outside every root) and is refused — unless the real folder itself lies
 * outside the grant (a link the user made in the local root).
 *
 * @module
 */
import { isPermissionError, ValidationError } from "../errors.ts";
import { isAbsoluteAnywhere, isInside, joinPath } from "../home/paths.ts";
import { hasTraversal } from "../resolve/name_guard.ts";
import { type Chain, identity, MOVING_ROUNDS, pause, proveChain, quietLook } from "./proof.ts";

/**
 * How often the opened handle is matched against the path inside the folder when a
 * folder on the way is in motion (see `proof.ts`; a quiet folder takes one look).
 */
export const VERIFY_ROUNDS = MOVING_ROUNDS;

/**
 * Looks that prove a file of which only the head is read for a listing (a SKILL.md's
 * frontmatter in a scan, a linked file's title and summary in a view) when a folder on
 * the way is in motion: fewer than for content served whole, as a listing reads
 * thousands (quiet folders, nearly all of them, take one look either way).
 */
export const HEAD_ROUNDS = 8;

/** Options of {@linkcode openInside}: Deno's open options, and where the folder may lie. */
export interface OpenInsideOptions extends Deno.OpenOptions {
  /**
   * Real folders one of which must hold the real `dir` itself (a skill folder of an
   * external, project or plugin root must lie inside a root, [S-9]); anywhere when absent.
   */
  dirWithin?: readonly string[];
  /**
   * Real folders that may hold the file besides the real `dir` (a skill's `SKILL.md`
   * linked to another root, [S-9]); only the real `dir` when absent.
   */
  fileWithin?: readonly string[];
  /**
   * How many looks prove the handle (default {@linkcode VERIFY_ROUNDS}). A listing that
   * reads thousands of heads may take one; content that is served takes the default.
   */
  rounds?: number;
}

/** The refusal of a path that leaves its folder ([F-1], [S-9]). */
export class PathEscapeError extends ValidationError {
  /** Refuses `path` with "Path escapes allowed directory: <path>". */
  constructor(path: string) {
    super(`Path escapes allowed directory: ${path}`);
    this.name = "PathEscapeError";
  }
}

/**
 * The refusal of a file with more than one name (a hard link) outside the trusted local
 * root: its content may be any file of the user's (a link to `~/.ssh/id_rsa` made by a
 * script or an archive), and no path shows where else it lies. An escape, as callers see it.
 */
export class HardLinkError extends PathEscapeError {
  /** Refuses `path`, which has `links` names. */
  constructor(path: string, links: number) {
    super(path);
    this.message =
      `Refusing '${path}': it is a hard link (${links} names for one file) outside the local root, so its content may be a file outside the skill.`;
    this.name = "HardLinkError";
  }
}

function escapeError(path: string): PathEscapeError {
  return new PathEscapeError(path);
}

/**
 * Opens `path` (relative) inside folder `dir` and returns the handle, after proving on
 * the handle that the file really lies inside the real `dir` (and, with `dirWithin`, that
 * the real `dir` lies inside one of those folders). Throws "Path escapes allowed
 * directory: <path>" otherwise; a missing path, or one that is no regular file (a folder,
 * a FIFO), throws `Deno.errors.NotFound`. Read-only unless `options` say otherwise. Options that change the
 * file as it is opened (`create`, `createNew`, `truncate`, `append`) would act before the
 * proof and are refused: a writer opens with `write: true`, then truncates and writes
 * through the proved handle (a new file is made with `createNew` in a folder proved first).
 */
export function openInside(
  dir: string,
  path: string,
  options: OpenInsideOptions = {},
): Deno.FsFile {
  const { dirWithin, fileWithin = [], rounds = VERIFY_ROUNDS, ...open } = options;
  if (open.create || open.createNew || open.truncate || open.append) {
    throw new TypeError(
      "openInside opens existing files only: create, truncate or append after the proof.",
    );
  }
  if (path === "" || isAbsoluteAnywhere(path) || hasTraversal(path)) throw escapeError(path);
  const target = joinPath(dir, path);
  // Only regular files are opened: opening a FIFO would wait for a writer forever.
  if (!Deno.statSync(target).isFile) throw new Deno.errors.NotFound(`Not a file: ${path}`);
  const since = Date.now();
  const file = Deno.openSync(target, { read: true, ...open });
  try {
    const { id: handle, size } = handleIdentity(file, {
      dir,
      target,
      trusted: dirWithin === undefined,
      path,
    });
    const chain = linkFreeChain(dir, path, dirWithin);
    const proved = chain !== undefined && proveChain(chain, handle, { since, rounds });
    if (
      !proved && !provedThroughLinks(dir, target, handle, { dirWithin, fileWithin, rounds, since })
    ) {
      throw escapeError(path);
    }
    if (!open.write) provedSizes.set(file, size);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/**
 * The usual case, proved without resolving any path: `dir` is trusted (no `dirWithin`),
 * or lies lexically below one of `dirWithin` (real folders). Undefined when it does not.
 */
function linkFreeChain(
  dir: string,
  path: string,
  dirWithin: readonly string[] | undefined,
): Chain | undefined {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (!dirWithin) return { base: dir, parts };
  for (const root of dirWithin) {
    if (dir === root) return { base: root, parts };
    if (dir.startsWith(`${root}/`)) {
      const rel = dir.slice(root.length + 1).split("/").filter((p) => p !== "" && p !== ".");
      return rel.includes("..") ? undefined : { base: root, parts: [...rel, ...parts] };
    }
  }
  return undefined;
}

/**
 * The path has a link on the way (a link inside the skill to another of its files, a
 * skill folder linked within the roots): the real folder is resolved, must lie in
 * `dirWithin`, and each look resolves the path again, and walks it down from `dir` (or
 * from the folder of `fileWithin` that holds it) to the handle's file.
 */
function provedThroughLinks(
  dir: string,
  target: string,
  handle: string,
  how: {
    dirWithin?: readonly string[];
    fileWithin: readonly string[];
    rounds: number;
    since: number;
  },
): boolean {
  const realDir = Deno.realPathSync(dir);
  if (how.dirWithin && !how.dirWithin.some((folder) => isInside(folder, realDir))) return false;
  const dirId = identity(Deno.statSync(dir));
  const bases = [
    { lexical: dir, real: realDir },
    ...how.fileWithin.map((f) => ({ lexical: f, real: f })),
  ];
  for (let round = 0; round < Math.max(1, how.rounds); round++) {
    if (round > 0) pause();
    let real: string;
    try {
      real = Deno.realPathSync(target);
    } catch {
      return false;
    }
    if (identity(Deno.statSync(dir)) !== dirId) return false;
    const base = bases.find((b) => real !== b.real && isInside(b.real, real));
    if (!base) return false;
    const parts = real.slice(base.real === "/" ? 1 : base.real.length + 1).split("/");
    const look = quietLook({ base: base.lexical, parts }, handle, how.since);
    if (look !== "moving") return look === "proved";
  }
  return true;
}

/**
 * The device and inode of an opened file. Deno lets a process stat a handle only when it
 * may read the handle's real path: when it may not, the file lies outside this
 * process's read grant (the sandbox grants every root), which only a link the user made
 * in the local root (a trusted `dir`, no `dirWithin`) whose real folder lies outside the
 * grant can lead to; that file is then identified by its path. Anywhere else — a folder
 * of a skill the grant covers swapped for a link out of it while the file was opened —
 * it is an escape, and never identified by a path that may have been swapped back. A
 * regular file with more than one name is refused outside the local root (see
 * {@linkcode HardLinkError}).
 */
function handleIdentity(
  file: Deno.FsFile,
  { dir, target, trusted, path }: { dir: string; target: string; trusted: boolean; path: string },
) {
  let info: Deno.FileInfo;
  try {
    info = file.statSync();
  } catch (error) {
    if (!isPermissionError(error)) throw error;
    if (!trusted || mayRead(Deno.realPathSync(dir))) throw escapeError(path);
    info = Deno.statSync(target);
  }
  const links = info.nlink ?? 1;
  if (!trusted && info.isFile && links > 1) throw new HardLinkError(path, links);
  return { id: identity(info), size: info.size };
}

/** True when this thread may read `path` (Deno would then let it stat a handle of a file there). */
function mayRead(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
}

/**
 * The size each handle had when {@linkcode openInside} proved it: stat'ing a handle costs
 * Deno a look-up of its real path and a permission check, so a reader asks once (a
 * handle opened for writing is stat'ed each time).
 */
const provedSizes = new WeakMap<Deno.FsFile, number>();

/**
 * The size of an opened file: as {@linkcode openInside} found it when it proved the
 * handle, else stat'ed (by its path where the handle may not be stat'ed, see above).
 */
export function openedSize(file: Deno.FsFile, path: string): number {
  const proved = provedSizes.get(file);
  if (proved !== undefined) return proved;
  try {
    return file.statSync().size;
  } catch (error) {
    if (!isPermissionError(error)) throw error;
    return Deno.statSync(path).size;
  }
}

/** Reads a whole opened file, or returns null as soon as it holds more than `max` bytes. */
export function readCapped(file: Deno.FsFile, max: number): Uint8Array | null {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new Uint8Array(Math.min(64 * 1024, max + 1 - total));
    const n = file.readSync(chunk);
    if (n === null) break;
    total += n;
    if (total > max) return null;
    chunks.push(chunk.subarray(0, n));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
