/**
 * Atomic writes ([M-4], [X-6]): the new content goes to a temporary file created
 * exclusively in the target's folder, is flushed, then renamed over the target, so a
 * failed or interrupted write leaves the old content intact.
 *
 * No write follows a symbolic link: the target must not be a link (checked with
 * `lstat`), the temporary file is created with `createNew` (which never opens through a
 * link), the folder is the real path of the target's parent (optionally required to lie
 * inside a given folder), and after opening, the opened file is proved to be the one in
 * that folder by the proof every read takes too (`src/files/proof.ts`) — so swapping a
 * folder for a link between the check and the write is caught, not followed.
 *
 * @module
 */
import { isPermissionError, type SkillrtError, ValidationError } from "../errors.ts";
import { basename, dirname, isInside, joinPath } from "../home/paths.ts";
import { chainTo, folderIdentity, identity, proveChain } from "../files/proof.ts";
import { inFolder } from "./pinned.ts";

/** How a write is placed. */
export interface WriteOptions {
  /**
   * The temporary file's name beside the target. By default a random name, created
   * exclusively. Files written under their inter-process lock whose sandbox grant names
   * exact paths (`.usage.json`, `lock.json`, the manifest) use the fixed name of
   * {@linkcode tempPathFor}: any leftover there is unlinked (never followed) before the
   * exclusive create.
   */
  fixedTemp?: boolean;
  /** The real folder the target must stay inside (its parent's real path is checked). */
  within?: string;
  /** The new file's permission bits (default 0o644; `.env` is written 0o600). */
  mode?: number;
}

/** The fixed temporary file of a target written under its lock. */
export function tempPathFor(path: string): string {
  return `${path}.tmp`;
}

function randomSuffix(): string {
  return crypto.getRandomValues(new Uint8Array(6)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
}

/** A unique temporary name beside `path`. */
export function uniqueTempFor(path: string): string {
  return joinPath(dirname(path), `.${basename(path)}.${randomSuffix()}.tmp`);
}

/** The error of a write refused because it would go through a link or leave its folder. */
export function linkRefusal(path: string): SkillrtError {
  return new ValidationError(`Refusing to write through a symbolic link: '${path}'.`, {}, 1);
}

/**
 * The real path of `path`'s parent folder, checked to lie inside `within` (when given).
 * @throws {SkillrtError} when the folder leaves `within`.
 */
export function realParent(path: string, within?: string): string {
  const parent = Deno.realPathSync(dirname(path));
  if (within !== undefined && !isInside(within, parent)) throw linkRefusal(path);
  return parent;
}

/**
 * Throws when `path` exists and is a symbolic link (or not a regular file, when
 * `fileOnly`); a missing path is fine.
 * @throws {SkillrtError} for a link.
 */
export function refuseLink(path: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (info.isSymlink) throw linkRefusal(path);
}

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function openTemp(temp: string, fixed: boolean, mode = 0o644): Deno.FsFile {
  if (fixed) {
    try {
      // A leftover of a killed writer (or a planted link): unlinked, never followed.
      if (!Deno.lstatSync(temp).isDirectory) Deno.removeSync(temp);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return Deno.openSync(temp, { write: true, createNew: true, mode });
}

/** How long a clean-up keeps looking for a name of ours that a swapped folder may hide. */
const HIDDEN_BUDGET_MS = 1000;
const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` — a step on a name of ours (unique, or proved ours) — until it meets the
 * name (true) or gives up (false): it throws `NotFound` (or what `hidden` accepts) while
 * a swapped folder hides the name, and anything else stops it. Tried at once, then every millisecond (letting the
 * swapper run) for up to a second.
 */
export function whileHidden(
  step: () => void,
  hidden: (error: unknown) => boolean = (error) => error instanceof Deno.errors.NotFound,
): boolean {
  const until = Date.now() + HIDDEN_BUDGET_MS;
  for (let attempt = 0;; attempt++) {
    try {
      step();
      return true;
    } catch (error) {
      if (!hidden(error)) return false;
    }
    if (Date.now() >= until) return false;
    if (attempt >= 16) Atomics.wait(nap, 0, 0, 1);
  }
}

/**
 * Removes the file we opened (`opened`) under any of `names`, wherever a swapped folder
 * put it: in the folder by its path, or in a folder it was seen in. Only the very file
 * (same device and inode) is removed. A folder swapped away for good may hide it; it is
 * empty by then (see below).
 */
function removeOwn(dir: string, names: string[], opened: Deno.FileInfo, seenIn: string[]): void {
  whileHidden(() => {
    const dirs = [dir, ...seenIn];
    try {
      dirs.push(Deno.realPathSync(dir));
    } catch {
      // The folder is gone or moving: try the path as it is.
    }
    for (const candidate of dirs.flatMap((d) => names.map((n) => joinPath(d, n)))) {
      try {
        if (sameFile(Deno.lstatSync(candidate), opened)) return Deno.removeSync(candidate);
      } catch {
        // Not there.
      }
    }
    throw new Deno.errors.NotFound(names[0]);
  });
}

/**
 * Writes bytes or text to `path` atomically, never through a symbolic link.
 *
 * The temporary file is created exclusively in the real folder of `path`; before a byte
 * is written, again before the rename and once more after it, the opened file is proved
 * (`src/files/proof.ts`) to be the one a no-follow walk from `within` (the real skill
 * folder) finds at that name, through the folder that was there before the create. A
 * rename only ever moves it within that folder. A folder swapped for a link while this
 * runs therefore never receives content: whatever the proof refuses is emptied through
 * the handle and removed.
 * @throws {SkillrtError} when the target or its folder is a link (out of `within`).
 */
export function atomicWrite(
  path: string,
  content: string | Uint8Array,
  options: WriteOptions = {},
): void {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const folder = realParent(path, options.within);
  const target = joinPath(folder, basename(path));
  refuseLink(target);
  const temp = options.fixedTemp ? tempPathFor(target) : uniqueTempFor(target);
  const before = folderIdentity(chainTo(folder, basename(temp), options.within));
  if (before === undefined) throw linkRefusal(path);
  const since = Date.now();
  let file: Deno.FsFile;
  try {
    file = openTemp(temp, options.fixedTemp === true, options.mode);
  } catch (error) {
    // The folder was there a moment ago (its identity was taken): a swap moved it.
    if (error instanceof Deno.errors.NotFound) throw linkRefusal(path);
    throw error;
  }
  const opened = statCreated(file, temp, path);
  const seenIn: string[] = []; // where the temporary file's folder really was, for the clean-up
  const assertPlaced = (leaf: string) => {
    try {
      seenIn.push(Deno.realPathSync(folder));
    } catch {
      // Moving: the proof below fails.
    }
    const chain = chainTo(folder, leaf, options.within);
    if (!proveChain(chain, identity(opened), { since, exempt: before })) throw linkRefusal(path);
  };
  let placed = false;
  try {
    placeAndWrite();
    placed = true;
  } catch (error) {
    // The file vanished from its folder, or Deno's grant met it outside: a swapped folder.
    if (error instanceof Deno.errors.NotFound || isPermissionError(error)) throw linkRefusal(path);
    throw error;
  } finally {
    if (!placed) {
      try {
        file.truncateSync(0); // whatever happened, no content stays behind
      } catch {
        // Nothing was written.
      }
    }
    file.close();
    if (!placed) removeOwn(folder, [basename(temp), basename(target)], opened, seenIn);
  }

  function placeAndWrite(): void {
    assertPlaced(basename(temp));
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    file.syncSync();
    assertPlaced(basename(temp));
    refuseLink(target);
    // rename(2) looks its two paths up one after the other: in the folder pinned as the
    // working directory both names are found in the one directory proved above (under a
    // path grant Deno makes them absolute again: the proof after the rename holds then).
    const pinned = inFolder(folder, options.within ?? folder, () => linkRefusal(path), () => {
      refuseLink(basename(target));
      Deno.renameSync(basename(temp), basename(target));
    });
    if (!pinned) Deno.renameSync(temp, target);
    assertPlaced(basename(target));
  }
}

/**
 * The identity of the temporary file just created. Deno refuses to stat a handle whose
 * file lies outside this process's read grant: the folder was swapped for a link out of
 * it at the create, so the empty file is removed by its unique name (tried while the swap
 * may still lead there) and the write refused.
 */
function statCreated(file: Deno.FsFile, temp: string, path: string): Deno.FileInfo {
  try {
    return file.statSync();
  } catch (error) {
    file.close();
    if (!isPermissionError(error)) throw error;
    whileHidden(() => Deno.removeSync(temp)); // not there while the folder is the real one
    throw linkRefusal(path);
  }
}

/** Writes a JSON document atomically (pretty-printed, with a final newline) under its lock. */
export function atomicWriteJson(path: string, value: unknown): void {
  atomicWrite(path, JSON.stringify(value, null, 2) + "\n", { fixedTemp: true });
}
