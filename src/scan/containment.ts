/**
 * Which symbolic links are followed ([S-9]) — the one place that decides it. Inside the
 * local root every link is followed (the user made it). In external, project and plugin
 * roots a skill folder (or any folder on the way to it), and a skill's own files
 * (`SKILL.md`, a flat `<name>.md`, `DESCRIPTION.md`), are followed only when their real
 * path lies inside a root of the setup. Files inside a skill never leave the real skill
 * folder, in any root ([F-1]; see `openInside`).
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { openInside, PathEscapeError } from "../files/open_inside.ts";
import { isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import type { SkillSource } from "./record.ts";

/**
 * The real folders a root's skill folders may lie in: every root of the setup; null
 * means anywhere (the local root).
 */
export type Reach = readonly string[] | null;

/** The roots of a setup, as far as containment needs them (a `HomeLayout` is one). */
export interface RootsOf {
  /** The local root. */
  localRoot: string;
  /** The roots in precedence order. */
  roots: readonly { path: string }[];
  /** The plugin roots. */
  plugins: readonly { path: string }[];
}

/** The real paths of every root of the setup: the roots, the plugin roots and the local root. */
export function realRootsOf(setup: RootsOf): string[] {
  const local = realPathOrUndefined(setup.localRoot) ?? setup.localRoot;
  return [
    ...new Set([...setup.roots.map((r) => r.path), ...setup.plugins.map((p) => p.path), local]),
  ];
}

/** The reach of a root of kind `source`: anywhere for the local root, else inside `realRoots`. */
export function reachOf(source: SkillSource, realRoots: readonly string[]): Reach {
  return source === "local" ? null : realRoots;
}

/** True when a folder whose real path is `real` may be entered. */
export function follows(real: string, reach: Reach): boolean {
  return reach === null || reach.some((root) => isInside(root, real));
}

/** The diagnostic of a link that is not followed, naming the link. */
export function leavingDiagnostic(link: string): Diagnostic {
  return diagnostic(
    "warning",
    "symlink.outside_roots",
    "Symbolic link leaves the skill roots; it is not followed and its content is never served.",
    { path: link },
  );
}

/**
 * Opens a skill's own file `name` (`SKILL.md`, a flat `<name>.md`) in folder `dir`: as
 * it is inside the local root, else only when the folder and the file really lie within
 * `reach` (proved on the opened handle; `rounds` as in
 * `openInside`: a listing's head reads take one look, served content the default).
 */
export function openSkillFile(
  dir: string,
  name: string,
  reach: Reach,
  rounds?: number,
): Deno.FsFile {
  if (reach === null) return Deno.openSync(joinPath(dir, name));
  return openInside(dir, name, { dirWithin: reach, fileWithin: reach, rounds });
}

/**
 * The first symbolic link on the path `rel` below `root` that is not followed: a folder
 * whose real path leaves `reach`, or the final `file` (when given) leaving it.
 * Undefined when every link may be followed (always, for the local root).
 */
export function leavingLink(
  root: string,
  rel: string,
  reach: Reach,
  file?: string,
): string | undefined {
  if (reach === null) return undefined;
  let at = root;
  for (const part of rel.split("/").filter((p) => p !== "")) {
    at = `${at}/${part}`;
    if (!isLink(at)) continue;
    const real = realPathOrUndefined(at);
    if (real !== undefined && !follows(real, reach)) return at;
  }
  if (file !== undefined && isLink(`${at}/${file}`)) {
    const real = realPathOrUndefined(`${at}/${file}`);
    if (real && !follows(real, reach)) return `${at}/${file}`;
  }
  return undefined;
}

function isLink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

/** True when an error is the refusal of a path that leaves its folder. */
export function isEscape(error: unknown): boolean {
  return error instanceof PathEscapeError;
}
