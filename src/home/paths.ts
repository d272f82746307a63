/**
 * Small POSIX path helpers, so every module joins and resolves the same way. They are ours
 * rather than `node:path` because importing Deno's Node layer costs the warden and every
 * sandbox Worker milliseconds at start-up (SPEC §19); the tests hold them to `node:path`.
 *
 * @module
 */

/**
 * Normalizes a `/`-separated path: collapses `//`, `.` and `..` (never above the root of
 * an absolute path), keeps a trailing slash, and yields `.` for an empty relative path.
 */
export function normalizePath(p: string): string {
  if (p === "") return ".";
  const absolute = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") out.push(part);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!absolute) out.push("..");
  }
  const joined = (absolute ? "/" : "") + out.join("/");
  const trailing = p.endsWith("/") && joined !== "/";
  if (joined === "") return trailing ? "./" : ".";
  return trailing ? `${joined}/` : joined;
}

/** Resolves `p` against `base` (absolute paths stay as they are); no trailing slash. */
export function resolvePath(base: string, p: string): string {
  let full = p.startsWith("/") ? p : `${base}/${p}`;
  if (!full.startsWith("/")) full = `${Deno.cwd()}/${full}`;
  const normal = normalizePath(full);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

/** True when `p` is absolute on POSIX or Windows, or starts with a drive letter. */
export function isAbsoluteAnywhere(p: string): boolean {
  return /^([\\/]|[A-Za-z]:)/.test(p);
}

/** True when `child` is `parent` or lies inside it (both absolute, normalized). */
export function isInside(parent: string, child: string): boolean {
  const from = resolvePath("/", parent);
  const to = resolvePath("/", child);
  return to === from || to.startsWith(from === "/" ? "/" : `${from}/`);
}

/** The real path of `p`, or undefined when it does not exist or cannot be read. */
export function realPathOrUndefined(p: string): string | undefined {
  try {
    return Deno.realPathSync(p);
  } catch {
    return undefined;
  }
}

/** True when something is at `p` (a link counts, even a dangling one: it is not followed). */
export function existsHere(p: string): boolean {
  try {
    Deno.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** True when `p` is a symbolic link (not followed; false when nothing is there). */
export function isLinkHere(p: string): boolean {
  try {
    return Deno.lstatSync(p).isSymlink;
  } catch {
    return false;
  }
}

/** True when `p` is a regular file (not followed: a link is not one). */
export function isFileHere(p: string): boolean {
  try {
    return Deno.lstatSync(p).isFile;
  } catch {
    return false;
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

/** The parent folder of `p` (`.` for a bare name, `/` for the root). */
export function dirname(p: string): string {
  const trimmed = p.replace(/\/+$/, "");
  if (trimmed === "") return p.startsWith("/") ? "/" : ".";
  const cut = trimmed.lastIndexOf("/");
  if (cut === -1) return ".";
  const parent = trimmed.slice(0, cut).replace(/\/+$/, "");
  return parent === "" ? "/" : parent;
}

/** The last segment of `p` (trailing slashes ignored). */
export function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** A `//`, or a `.` or `..` segment: what `normalizePath` would change. */
const NOT_NORMAL = /\/\/|(^|\/)\.\.?(\/|$)/;

/**
 * Joins path segments with `/` and normalizes — the one path joiner (the walk joins every
 * folder entry with it, so a join with nothing to normalize skips the normalizing).
 */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((part) => part !== "").join("/");
  if (joined === "") return ".";
  return NOT_NORMAL.test(joined) ? normalizePath(joined) : joined;
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
