/**
 * What a root's file watcher vouches for ([PERF-5]) — the one place that decides whether a
 * long-lived runtime may remember what it read at a path until its watcher reports a
 * change. A watcher does not see every change below its root: Deno drops the event of a
 * path that resolves outside the watched folders (a link made there, or moved in over a
 * file from elsewhere), nothing reports a change in a link's target outside the root, and
 * a file with a second hard link may be rewritten through its other name. So a path is
 * vouched for only while no part of it below the root is a link and its file has one
 * link. This is looked at (`lstat`, one call per part) on every use, never remembered:
 * whatever appears on the way — a plain file or folder the watcher reports, a link the
 * next look finds.
 *
 * @module
 */

/**
 * True when the watcher of `root` (a real folder) sees every change of what lies at
 * `path` (below `root`): every part on the way is a folder and no link, and the last part
 * is a folder or a file with a single link — or the path ends, missing, before any link
 * (nothing is there yet). False for a link on the way, a file with another hard link, and
 * a path not below `root`. `folders` (of one look) holds folders already found plain.
 */
export function watcherSees(root: string, path: string, folders?: Set<string>): boolean {
  if (!path.startsWith(`${root}/`)) return false;
  const parts = path.slice(root.length + 1).split("/");
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === "" || parts[i] === "." || parts[i] === "..") return false;
    at = `${at}/${parts[i]}`;
    if (folders?.has(at)) continue;
    const info = lstatOrMissing(at);
    // Missing: nothing is there yet (a dangling link is no missing path: `lstat` finds it).
    if (info === "missing") return true;
    if (info === "error") return false;
    if (info.isDirectory) {
      folders?.add(at);
      continue;
    }
    return i === parts.length - 1 && info.isFile && (info.nlink ?? 1) === 1;
  }
  return true;
}

/** `lstat` of `path`, or why there is none. */
function lstatOrMissing(path: string): Deno.FileInfo | "missing" | "error" {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? "missing" : "error";
  }
}

/** {@linkcode watcherSees} as one call asks it: each path and each folder looked at once. */
export type Look = (root: string, path: string) => boolean;

/**
 * A {@linkcode Look} for one call: what it reads of one skill (its name's resolution, its
 * text, its files, its hub lock) shares the looks at the folders on the way.
 */
export function oneLook(): Look {
  const folders = new Set<string>();
  const answers = new Map<string, boolean>();
  return (root, path) => {
    const key = `${root}\0${path}`;
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, answer = watcherSees(root, path, folders));
    return answer;
  };
}

/** A folder's state at a moment: an entry made, renamed or removed in it since changes it. */
export interface FolderStamp {
  ino: number | null;
  mtime: number;
  ctime: number;
}

/**
 * How long ago a folder's last change must be for its stamp to vouch for its entries:
 * more than the tick of the coarse clock the kernel stamps files with (1–10 ms), so that
 * any later change is stamped later.
 */
export const SETTLED_MS = 50;

/**
 * The stamp of folder `path`, when it can vouch that no entry was added since: its last
 * change at least {@linkcode SETTLED_MS} before now (a change in the same clock tick as
 * the stamp would leave it as it is). Undefined when not settled or not a plain folder.
 */
export function settledStamp(path: string): FolderStamp | undefined {
  const info = lstatOrMissing(path);
  if (typeof info === "string" || !info.isDirectory) return undefined;
  const stamp = { ino: info.ino, mtime: info.mtime?.getTime() ?? NaN, ctime: ctimeOf(info) };
  const settled = Date.now() - SETTLED_MS;
  return stamp.mtime < settled && stamp.ctime < settled ? stamp : undefined;
}

/** True while folder `path` is as `stamp` saw it (one `lstat`, no error made when it is gone). */
export function stampHolds(path: string, stamp: FolderStamp): boolean {
  const info = lstatOrMissing(path);
  return typeof info !== "string" && info.isDirectory && info.ino === stamp.ino &&
    info.mtime?.getTime() === stamp.mtime && ctimeOf(info) === stamp.ctime;
}

function ctimeOf(info: Deno.FileInfo): number {
  return info.ctime?.getTime() ?? NaN;
}
