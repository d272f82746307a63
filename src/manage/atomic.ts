/**
 * Atomic writes ([M-4], [X-6]): the new content goes to a temporary file created
 * exclusively in the target's folder, is flushed, then renamed over the target, so a
 * failed or interrupted write leaves the old content intact.
 *
 * No write follows a symbolic link: the target must not be a link (checked with
 * `lstat`), the temporary file is created with `createNew` (which never opens through a
 * link), the folder is the real path of the target's parent (optionally required to lie
 * inside a given folder), and after opening, the opened file is checked to be the one
 * in that folder — so swapping a folder for a link between the check and the write is
 * caught, not followed.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { basename, dirname, isInside, joinPath } from "../home/paths.ts";

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
  return new SkillrtError(`Refusing to write through a symbolic link: '${path}'.`, {}, 1);
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

function openTemp(temp: string, fixed: boolean): Deno.FsFile {
  if (fixed) {
    try {
      // A leftover of a killed writer (or a planted link): unlinked, never followed.
      if (!Deno.lstatSync(temp).isDirectory) Deno.removeSync(temp);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return Deno.openSync(temp, { write: true, createNew: true, mode: 0o644 });
}

/**
 * Writes bytes or text to `path` atomically, never through a symbolic link.
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
  const file = openTemp(temp, options.fixedTemp === true);
  let renamed = false;
  try {
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    file.syncSync();
    // The file we wrote is still the one in the checked folder (no folder swapped for a link).
    const opened = file.statSync();
    if (realParent(path, options.within) !== folder || !sameFile(opened, Deno.lstatSync(temp))) {
      throw linkRefusal(path);
    }
    refuseLink(target);
    Deno.renameSync(temp, target);
    renamed = true;
  } finally {
    file.close();
    if (!renamed) {
      try {
        Deno.removeSync(temp);
      } catch {
        // Already gone.
      }
    }
  }
}

/** Writes a JSON document atomically (pretty-printed, with a final newline) under its lock. */
export function atomicWriteJson(path: string, value: unknown): void {
  atomicWrite(path, JSON.stringify(value, null, 2) + "\n", { fixedTemp: true });
}
