/**
 * The hub's scratch folders ([HUB-2], §18): each fetch, listing and check works in a
 * folder of its own below `<root>/.hub/quarantine/`, removed when it is done. An operation
 * that had to make `.hub/quarantine` (or `.hub` itself) removes them again when it leaves
 * them empty, so that a refused or failed command leaves the disk as it found it.
 *
 * @module
 */
import { existsHere, joinPath } from "../home/paths.ts";

/** A new scratch folder's path below `root`'s quarantine (not made yet): `<prefix>-<random>`. */
export function scratchFolder(root: string, prefix: string): string {
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  return joinPath(root, ".hub", "quarantine", `${prefix}-${random}`);
}

/** Removes scratch folders (those moved into place, or never made, are skipped). */
export function removeScratch(...dirs: string[]): void {
  for (const dir of dirs) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Moved into place, or never made.
    }
  }
}

/**
 * Runs `work`, then removes `root`'s `.hub/quarantine` and `.hub` when they were not there
 * before and are empty now (a folder that holds anything is left as it is).
 */
export async function withScratch<T>(root: string, work: () => Promise<T>): Promise<T> {
  const hub = joinPath(root, ".hub");
  const made = [joinPath(hub, "quarantine"), hub].filter((dir) => !existsHere(dir));
  try {
    return await work();
  } finally {
    for (const dir of made) {
      try {
        Deno.removeSync(dir); // only an empty folder
      } catch {
        // It holds something (an install's lock and audit log), or was never made.
      }
    }
  }
}
