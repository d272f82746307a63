/**
 * The snapshot a script runs from ([RUN-3]): every file of the skill folder read through
 * the proved reads (`openInside`: opened first, the handle proved to be the file inside
 * the folder) and copied into a private temporary folder, each file hashed on the way. The
 * approval binds the snapshot's hash (names, sizes and contents of every file, so a sourced
 * `lib.sh` or an imported module is approved with the entry script), the question shows
 * the snapshot, and the sandbox runs the snapshot — bound read-only where the skill folder
 * is — so that nothing written to the skill folder after it was read (while the question
 * waits, or by a hub update) runs unapproved. `.git` folders are left out; a linked folder,
 * a file linking out of the skill, too many files or bytes refuse the run.
 *
 * @module
 */
import { sha256Hex } from "../hash/sha256.ts";
import { dirname, joinPath } from "../home/paths.ts";
import { openInside, readCapped } from "../files/open_inside.ts";
import { atomicWrite } from "../manage/atomic.ts";
import { makeDirInside, removeInside } from "../manage/inside.ts";

/** The most files a snapshot takes. */
export const SNAPSHOT_MAX_FILES = 1000;

/** The most bytes a snapshot takes, all files together. */
export const SNAPSHOT_MAX_BYTES = 64 * 1024 * 1024;

/** One file of a snapshot. */
export interface SnapshotFile {
  /** The path relative to the skill folder, `/`-separated. */
  path: string;
  /** Its size in bytes. */
  size: number;
  /** The sha256 of its bytes. */
  sha256: string;
}

/** A skill folder as copied. */
export interface Snapshot {
  /** The private folder holding the copy. */
  dir: string;
  /** Every file, sorted by path. */
  files: SnapshotFile[];
  /** The sha256 of the file list (paths, sizes, hashes): what an approval binds. */
  sha256: string;
}

/** The fingerprint of a file list ({@linkcode Snapshot.sha256}). */
export function filesFingerprint(files: readonly SnapshotFile[]): string {
  return sha256Hex(JSON.stringify(files.map((f) => [f.path, f.size, f.sha256])));
}

/** Why a snapshot cannot be taken: a one-line reason (the caller makes it the run's refusal). */
export class SnapshotProblem extends Error {}

interface Walk {
  skillDir: string;
  into: string;
  reach?: readonly string[];
  files: SnapshotFile[];
  bytes: number;
}

/**
 * The mode a copy keeps: a script may start a sibling by its path. Never set-id, never
 * writable by others; 0644 where the handle may not be stat'ed (see `openInside`).
 */
function modeOf(file: Deno.FsFile): number {
  try {
    return (file.statSync().mode ?? 0o644) & 0o755;
  } catch {
    return 0o644;
  }
}

function copyFile(walk: Walk, rel: string): void {
  if (walk.files.length >= SNAPSHOT_MAX_FILES) {
    throw new SnapshotProblem(`the skill has more than ${SNAPSHOT_MAX_FILES} files`);
  }
  let data: Uint8Array | null;
  let mode: number;
  try {
    using file = openInside(walk.skillDir, rel, { dirWithin: walk.reach });
    mode = modeOf(file);
    data = readCapped(file, SNAPSHOT_MAX_BYTES - walk.bytes);
  } catch (error) {
    throw new SnapshotProblem(
      `its file '${rel}' cannot be read inside it (${(error as Error).message})`,
    );
  }
  if (data === null) {
    throw new SnapshotProblem(`the skill's files are larger than ${SNAPSHOT_MAX_BYTES} bytes`);
  }
  walk.bytes += data.length;
  atomicWrite(joinPath(walk.into, rel), data, { within: walk.into, mode });
  walk.files.push({ path: rel, size: data.length, sha256: sha256Hex(data) });
}

/** The entries of a folder of the skill, sorted by name. */
function entriesOf(here: string, rel: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(here)].sort((a, b) => a.name < b.name ? -1 : 1);
  } catch (error) {
    throw new SnapshotProblem(
      `its folder '${rel || "."}' cannot be read (${(error as Error).message})`,
    );
  }
}

/** Whether a link leads to a folder (a dangling one does not: it is refused as a file). */
function linksToFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function copyFolder(walk: Walk, parts: string[]): void {
  const here = joinPath(walk.skillDir, ...parts);
  for (const entry of entriesOf(here, parts.join("/"))) {
    const rel = [...parts, entry.name].join("/");
    const isFolder = entry.isDirectory ||
      (entry.isSymlink && linksToFolder(joinPath(here, entry.name)));
    if (!isFolder) {
      copyFile(walk, rel);
      continue;
    }
    if (entry.name === ".git") continue;
    if (entry.isSymlink) throw new SnapshotProblem(`its folder '${rel}' is a link`);
    makeDirInside(walk.into, parts, entry.name);
    copyFolder(walk, [...parts, entry.name]);
  }
}

/**
 * Copies the skill folder `skillDir` (its real path; `reach`: the real roots it must lie in)
 * into a new private folder under `base` (the system's temporary folder when absent).
 * @throws {SnapshotProblem} when the skill cannot be copied whole; nothing is left behind.
 */
export function takeSnapshot(
  skillDir: string,
  reach?: readonly string[],
  base?: string,
): Snapshot {
  const dir = Deno.realPathSync(
    Deno.makeTempDirSync({ prefix: "skillrt-snapshot-", ...(base ? { dir: base } : {}) }),
  );
  const walk: Walk = { skillDir, into: dir, reach, files: [], bytes: 0 };
  try {
    copyFolder(walk, []);
  } catch (error) {
    dropSnapshot(dir);
    throw error;
  }
  return { dir, files: walk.files, sha256: filesFingerprint(walk.files) };
}

/** Removes a snapshot's folder (what the script could not change: it was bound read-only). */
export function dropSnapshot(dir: string): void {
  try {
    removeInside(dir, dirname(dir), true);
  } catch {
    // Already gone.
  }
}
