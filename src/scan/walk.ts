/**
 * The walk of one root ([S-2], [S-3]): follows symlinks, visits every real directory
 * once, prunes the excluded folder names at any depth and a skill's support folders,
 * and stops at the depth and directory bounds with a diagnostic, never a hang.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isPermissionError } from "../errors.ts";
import { joinPath, realPathOrUndefined } from "../home/paths.ts";
import { follows, leavingDiagnostic, type Reach } from "./containment.ts";

/** Folder names never entered, at any depth ([S-2]); `_deprecated` is an archive like `.archive`. */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  "_deprecated",
  ".git",
  ".github",
  ".hub",
  ".archive",
  ".venv",
  "venv",
  "node_modules",
  "site-packages",
  "__pycache__",
  ".tox",
  ".nox",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
]);

/** A skill's support folders: not entered when looking for skills ([S-2]). */
export const SUPPORT_DIRS: readonly string[] = ["references", "templates", "assets", "scripts"];
/** Folders of a skill the walk does not enter: its support folders and `evals` ([S-2]). */
const SUPPORT = new Set([...SUPPORT_DIRS, "evals"]);

/** Markdown files that are never taken for legacy flat skills. */
const NOT_FLAT = new Set(["SKILL.md", "DESCRIPTION.md", "README.md"]);

/** The bounds of one root's walk ([S-3]). */
export interface WalkLimits {
  /** Deepest directory level entered below the root (default 8). */
  maxDepth: number;
  /** Most directories read in one root (default 50,000). */
  maxDirs: number;
}

/** The default bounds of [S-3]. */
export const DEFAULT_WALK_LIMITS: WalkLimits = { maxDepth: 8, maxDirs: 50_000 };

/** A folder holding a SKILL.md, found by the walk. */
export interface FoundSkill {
  /** Absolute folder path as reached (through links, if any). */
  dir: string;
  /** Folder path relative to the root, `/`-separated. */
  rel: string;
}

/** A legacy flat `<name>.md` skill ([S-8]). */
export interface FoundFlat {
  /** Absolute file path. */
  file: string;
  /** File path relative to the root. */
  rel: string;
  /** The file name without `.md`. */
  name: string;
}

/** Everything one root's walk found. */
export interface WalkResult {
  /** Skill folders, in walk order (sorted names, depth first). */
  skills: FoundSkill[];
  /** Legacy flat skills outside skill folders. */
  flat: FoundFlat[];
  /** Bounds hit and folders that could not be read. */
  diagnostics: Diagnostic[];
}

interface Pending {
  dir: string;
  real: string;
  rel: string;
  depth: number;
  inSkill: boolean;
}

/**
 * Walks `root` (whose real path is `realRoot`) and returns its skill folders, also
 * handing each to `onSkill` as it is found (so another thread can start reading it).
 * Unreadable folders are skipped with a diagnostic, and so are symbolic links that
 * leave `reach` ([S-9]; null, the default, follows every link). `onDir` hears of each
 * folder just before it is read (for stamps of a validated re-scan).
 */
export function walkRoot(
  root: string,
  realRoot: string,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
  onSkill?: (found: FoundSkill) => void,
  reach: Reach = null,
  onDir?: (dir: string) => void,
): WalkResult {
  const result: WalkResult = { skills: [], flat: [], diagnostics: [] };
  const visited = new Set<string>([realRoot]);
  const stack: Pending[] = [{ dir: root, real: realRoot, rel: "", depth: 0, inSkill: false }];
  let dirsRead = 0;
  let depthNoted = false;
  while (stack.length > 0) {
    const here = stack.pop()!;
    if (++dirsRead > limits.maxDirs) {
      result.diagnostics.push(
        diagnostic(
          "warning",
          "walk.dir_limit",
          `Stopped walking after ${limits.maxDirs} directories; the rest of this root is not listed.`,
          { path: root },
        ),
      );
      break;
    }
    onDir?.(here.dir);
    const entries = readEntries(here.dir, result.diagnostics, here.depth === 0);
    if (!entries) continue;
    let hasSkill = false;
    let served = true;
    for (const e of entries) {
      if (e.name === "SKILL.md" && (e.isFile || isLinkTo(here.dir, e, "file"))) {
        hasSkill = true;
        served = e.isFile || linkedFileFollows(here.dir, e.name, reach, result.diagnostics);
        break;
      }
    }
    if (hasSkill && served) {
      const found = { dir: here.dir, rel: here.rel };
      result.skills.push(found);
      onSkill?.(found);
    }
    // Only the entries that can matter, in name order: flat .md files outside skills,
    // and folders (or links) that are neither excluded nor a skill's support folders.
    const flatHere = !hasSkill && !here.inSkill;
    const wanted: Deno.DirEntry[] = [];
    for (const e of entries) {
      const flat = flatHere && !e.isDirectory && e.name.endsWith(".md") && !NOT_FLAT.has(e.name);
      if (
        e.isFile ? flat : flat || !(EXCLUDED_DIRS.has(e.name) || (hasSkill && SUPPORT.has(e.name)))
      ) {
        wanted.push(e);
      }
    }
    if (wanted.length === 0) continue;
    if (wanted.length > 1) wanted.sort(byName);
    const children: Pending[] = [];
    for (const e of wanted) {
      if (e.isFile || (e.isSymlink && !e.isDirectory)) {
        if (!hasSkill && !here.inSkill && e.name.endsWith(".md") && !NOT_FLAT.has(e.name)) {
          if (
            e.isFile ||
            (isLinkTo(here.dir, e, "file") &&
              linkedFileFollows(here.dir, e.name, reach, result.diagnostics))
          ) {
            result.flat.push({
              file: joinPath(here.dir, e.name),
              rel: joinPath(here.rel, e.name),
              name: e.name.slice(0, -3),
            });
          }
        }
        if (e.isFile) continue;
      }
      if (EXCLUDED_DIRS.has(e.name) || (hasSkill && SUPPORT.has(e.name))) continue;
      const path = joinPath(here.dir, e.name);
      let real: string;
      if (e.isDirectory) real = joinPath(here.real, e.name);
      else if (e.isSymlink) {
        const target = linkedDir(path);
        if (!target) continue;
        if (!follows(target, reach)) {
          result.diagnostics.push(leavingDiagnostic(path));
          continue;
        }
        real = target;
      } else continue;
      if (visited.has(real)) continue;
      if (here.depth + 1 > limits.maxDepth) {
        if (!depthNoted) {
          result.diagnostics.push(
            diagnostic(
              "warning",
              "walk.depth_limit",
              `Did not enter folders deeper than ${limits.maxDepth} levels below the root.`,
              { path },
            ),
          );
          depthNoted = true;
        }
        continue;
      }
      visited.add(real);
      children.push({
        dir: path,
        real,
        rel: joinPath(here.rel, e.name),
        depth: here.depth + 1,
        inSkill: hasSkill || here.inSkill,
      });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return result;
}

const byName = (
  a: Deno.DirEntry,
  b: Deno.DirEntry,
) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function readEntries(
  dir: string,
  diagnostics: Diagnostic[],
  isRoot: boolean,
): Deno.DirEntry[] | undefined {
  try {
    return Array.from(Deno.readDirSync(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && isRoot) return undefined;
    const why = isPermissionError(error) ? "not permitted by the sandbox" : (error as Error).name;
    diagnostics.push(
      diagnostic(
        "warning",
        isPermissionError(error) ? "walk.not_permitted" : "walk.unreadable",
        `Skipped a folder that could not be read (${why}).`,
        { path: dir },
      ),
    );
    return undefined;
  }
}

function isLinkTo(dir: string, e: Deno.DirEntry, kind: "file"): boolean {
  if (!e.isSymlink) return false;
  try {
    return kind === "file" && Deno.statSync(joinPath(dir, e.name)).isFile;
  } catch {
    return false;
  }
}

/**
 * True when the file link `name` in folder `dir` may be read: it really lies in a root,
 * or the root walked is the local one. A link that may not is noted in `diagnostics`.
 */
function linkedFileFollows(
  dir: string,
  name: string,
  reach: Reach,
  diagnostics: Diagnostic[],
): boolean {
  if (reach === null) return true;
  const real = realPathOrUndefined(joinPath(dir, name));
  if (real !== undefined && follows(real, reach)) return true;
  diagnostics.push(leavingDiagnostic(joinPath(dir, name)));
  return false;
}

function linkedDir(path: string): string | undefined {
  try {
    return Deno.statSync(path).isDirectory ? Deno.realPathSync(path) : undefined;
  } catch {
    return undefined;
  }
}
