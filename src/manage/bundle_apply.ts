/**
 * Applying a bundle change ([B-3]): under the bundle file's inter-process lock, the file
 * is written through the atomic writer (never through a link, never outside the home's
 * `skill-bundles` folder) or removed; and the exact paths that takes, for the sandbox.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { dirname, isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { PreparedChange } from "./change.ts";
import { creationTarget, makeDirsInside, pastTense, type WriteResult } from "./apply.ts";
import { atomicWrite, linkRefusal, refuseLink } from "./atomic.ts";
import { lockedWritePaths, withLock } from "./mutex.ts";

/**
 * The paths writing `file` (`<home>/skill-bundles/<name>.yaml`) takes: the folder when it
 * is still to be made, else the file, its temporary file and its locks.
 */
export function bundleWriteTargets(file: string): string[] {
  const home = dirname(dirname(file));
  const top = creationTarget(home, file);
  return top === file ? lockedWritePaths(file) : [top];
}

/** The real `skill-bundles` folder, refused when it is a link or leaves the home. */
function realBundlesDir(file: string): string {
  const dir = dirname(file);
  const home = dirname(dir);
  if (Deno.lstatSync(dir).isSymlink) throw linkRefusal(dir);
  const real = Deno.realPathSync(dir);
  const realHome = realPathOrUndefined(home) ?? home;
  if (real !== joinPath(realHome, "skill-bundles") || !isInside(realHome, real)) {
    throw linkRefusal(dir);
  }
  return real;
}

/** Writes or removes a bundle file under its lock; a create finding the file there fails. */
export async function applyBundle(change: PreparedChange, file: string): Promise<WriteResult> {
  const after = change.files[0]?.after ?? null;
  if (after !== null) makeDirsInside(dirname(dirname(file)), "skill-bundles", false);
  realBundlesDir(file); // before the lock file is made in it
  await withLock(file, () => {
    const within = realBundlesDir(file);
    refuseLink(file);
    let there = true;
    try {
      Deno.lstatSync(file);
    } catch {
      there = false;
    }
    if (change.action.action === "bundle-create" && there) {
      throw new ValidationError(`A bundle named '${change.name}' already exists at ${file}.`);
    }
    if (after === null) {
      if (there) Deno.removeSync(file);
      return;
    }
    if (change.action.action === "bundle-edit" && !there) {
      throw new ValidationError(`Bundle '${change.name}' not found.`);
    }
    atomicWrite(file, after, { fixedTemp: true, within });
  });
  return {
    success: true,
    action: change.action.action,
    name: change.name,
    message: pastTense(change.summary) + ".",
    path: file,
    usage: "none",
  };
}
