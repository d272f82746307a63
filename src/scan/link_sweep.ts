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

/** The entries of a folder, or none when it cannot be read. */
function entriesOf(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)];
  } catch {
    return [];
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
 * with its target, sorted: one string to compare with an earlier one.
 */
export function linkSignature(root: string): string {
  const lines: string[] = [];
  const look = (dir: string, rel: string, descend: boolean) => {
    for (const e of entriesOf(dir)) {
      if (EXCLUDED_DIRS.has(e.name)) continue;
      const path = joinPath(dir, e.name);
      const at = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymlink) lines.push(`${at}\0${targetOf(path)}`);
      else if (descend && e.isDirectory) look(path, at, false);
    }
  };
  look(root, "", true);
  return lines.sort().join("\n");
}
