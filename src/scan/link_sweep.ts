/**
 * Links made under a watched root ([PERF-5]). Deno's file watcher drops the event of a
 * path that resolves outside the watched folders, so a skill linked into a root while a
 * long-lived runtime runs (`ln -s ~/dev/x ~/.hermes/skills/x`) would stay unlisted until
 * some other change there. A sweep every {@linkcode SWEEP_MS} looks at the links in each
 * watched root and in its folders one level down (one directory read each, and each
 * link's target) and tells when they differ from what they were before the root's scan.
 * (A link removed, or made in place of a file or folder, is reported by the watcher.)
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";
import { EXCLUDED_DIRS } from "./walk.ts";

/** How often the links of the watched roots are looked at (milliseconds). */
export const SWEEP_MS = 2000;

/**
 * The most entries one sweep of a root looks at: a cloned repository's root of endless
 * links must not hold the thread that answers calls (a link beyond them waits for a
 * change the watcher reports).
 */
export const SWEEP_ENTRIES = 20_000;

/** The entries of a folder, read as they are asked for; none when it cannot be read. */
function* entriesOf(dir: string): Generator<Deno.DirEntry> {
  try {
    yield* Deno.readDirSync(dir);
  } catch {
    // Unreadable (or gone): nothing to look at.
  }
}

/** Where a link points, as written (empty when it cannot be read). */
function targetOf(path: string): string {
  try {
    return Deno.readLinkSync(path);
  } catch {
    return "";
  }
}

/**
 * The links in `root` and in its folders one level down (not the excluded ones), each
 * with its target, sorted: one string to compare with an earlier one. At most `limit`
 * entries are looked at.
 */
export function linkSignature(root: string, limit = SWEEP_ENTRIES): string {
  const links: [string, string][] = [];
  let budget = limit;
  const look = (dir: string, rel: string, descend: boolean) => {
    for (const e of entriesOf(dir)) {
      if (budget-- <= 0) return;
      if (EXCLUDED_DIRS.has(e.name)) continue;
      const path = joinPath(dir, e.name);
      const at = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymlink) links.push([at, targetOf(path)]);
      else if (descend && e.isDirectory) look(path, at, false);
    }
  };
  look(root, "", true);
  return JSON.stringify(links.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
