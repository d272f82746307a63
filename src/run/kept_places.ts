/**
 * Where no script may write ([RUN-1], [RUN-2]): a path any of whose components is a kept
 * name (`.git`, an agent's folder: `keptNames` in `grant.ts`), or that lies in a folder
 * shaped as a git repository (`HEAD` with `objects/` and `refs/`, or a `commondir` file:
 * git runs what such a folder's config names). One check for the work dir and every
 * declared write, on the path as written and on its real path.
 *
 * @module
 */
import { dirname, existsHere, isDirectory, joinPath, normalizePath } from "../home/paths.ts";

/** Whether `folder` is shaped as a git repository (a `.git` folder or a bare one). */
export function isRepositoryShaped(folder: string): boolean {
  if (existsHere(joinPath(folder, "commondir"))) return true;
  return existsHere(joinPath(folder, "HEAD")) && isDirectory(joinPath(folder, "objects")) &&
    isDirectory(joinPath(folder, "refs"));
}

/**
 * Why `path` (absolute) is a kept place, or undefined: a component named in `kept`, or
 * it or a folder above it shaped as a repository (`isRepository`; none when absent).
 */
export function keptPlaceOf(
  path: string,
  kept: readonly string[],
  isRepository?: (folder: string) => boolean,
): string | undefined {
  const parts = normalizePath(path).split("/");
  const name = parts.find((p) => kept.includes(p));
  if (name !== undefined) return `'${name}' is kept read-only (git and agents run what it holds)`;
  if (isRepository === undefined) return undefined;
  for (let folder = normalizePath(path);; folder = dirname(folder)) {
    if (isRepository(folder)) {
      return `it lies in '${folder}', shaped as a git repository (git runs what its config names)`;
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/** The names {@linkcode isRepositoryShaped} looks at in a folder. */
const MARKS = ["HEAD", "commondir", "objects", "refs"];

/**
 * Every path the repository check of `path` looks at, in it and each folder above it: what
 * a Worker checking a work dir must be allowed to read (`run`'s plan).
 */
export function repositoryMarks(path: string): string[] {
  const out: string[] = [];
  for (let folder = normalizePath(path);; folder = dirname(folder)) {
    out.push(...MARKS.map((m) => joinPath(folder, m)));
    if (dirname(folder) === folder) return out;
  }
}
