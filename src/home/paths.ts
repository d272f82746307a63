/**
 * Small path helpers over `node:path`, so every module joins and resolves the same way.
 *
 * @module
 */
import * as path from "node:path";

/** Resolves `p` against `base` (absolute paths stay as they are). */
export function resolvePath(base: string, p: string): string {
  return path.resolve(base, p);
}

/** True when `p` is absolute on POSIX or Windows, or starts with a drive letter. */
export function isAbsoluteAnywhere(p: string): boolean {
  return path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[A-Za-z]:/.test(p);
}

/** True when `child` is `parent` or lies inside it (both absolute, normalized). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The real path of `p`, or undefined when it does not exist or cannot be read. */
export function realPathOrUndefined(p: string): string | undefined {
  try {
    return Deno.realPathSync(p);
  } catch {
    return undefined;
  }
}

/** True when `p` is an existing directory. */
export function isDirectory(p: string): boolean {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
}

/** The parent folder of `p`. */
export function dirname(p: string): string {
  return path.dirname(p);
}

/** The last segment of `p`. */
export function basename(p: string): string {
  return path.basename(p);
}

/** Joins path segments with the platform separator and normalizes. */
export function joinPath(...parts: string[]): string {
  return path.join(...parts);
}

/**
 * Creates a folder (and its parents) only when it is missing: creating an existing folder
 * still needs write access to it, which a sandbox plan may rightly not grant.
 */
export function ensureDir(dir: string): void {
  try {
    if (Deno.statSync(dir).isDirectory) return;
  } catch {
    // Missing: create it below.
  }
  Deno.mkdirSync(dir, { recursive: true });
}
