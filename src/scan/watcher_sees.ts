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
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(at);
    } catch (error) {
      // Missing: nothing is there yet (a dangling link is no missing path: `lstat` finds it).
      return error instanceof Deno.errors.NotFound;
    }
    if (info.isDirectory) {
      folders?.add(at);
      continue;
    }
    return i === parts.length - 1 && info.isFile && (info.nlink ?? 1) === 1;
  }
  return true;
}

/** {@linkcode watcherSees} of every path in `paths` (each folder on the way looked at once). */
export function watcherSeesAll(root: string, paths: readonly string[]): boolean {
  const folders = new Set<string>();
  return paths.every((path) => watcherSees(root, path, folders));
}
