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

/** A folder still to be walked. */
export interface Pending {
  /** The folder as reached. */
  dir: string;
  /** Its real path as the walk knows it (the parent's joined with the name, or a link's target). */
  real: string;
  /** The folder relative to the root. */
  rel: string;
  /** Levels below the root. */
  depth: number;
  /** True below a skill folder. */
  inSkill: boolean;
}

/** One root's walk in progress: what it found, where it has been, what it noted. */
export interface Walk {
  root: string;
  limits: WalkLimits;
  reach: Reach;
  onSkill?: (found: FoundSkill) => void;
  result: WalkResult;
  visited: Set<string>;
  depthNoted: boolean;
  /** Folders read so far (the dir bound counts them). */
  dirsRead: number;
  /** When kept: the real folders entered through links (a shared walk checks them). */
  linked?: string[];
}

/** A walk of `root` that has seen `visited`, before it reads any folder. */
export function newWalk(
  root: string,
  visited: Iterable<string>,
  limits: WalkLimits = DEFAULT_WALK_LIMITS,
  onSkill?: (found: FoundSkill) => void,
  reach: Reach = null,
): Walk {
  return {
    root,
    limits,
    reach,
    onSkill,
    result: { skills: [], flat: [], diagnostics: [] },
    visited: new Set<string>(visited),
    depthNoted: false,
    dirsRead: 0,
  };
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
  const walk = newWalk(root, [realRoot], limits, onSkill, reach);
  walkFrom(walk, [topOf(root, realRoot)], onDir);
  return walk.result;
}

/** The root itself, as the first folder of its walk. */
export function topOf(root: string, realRoot: string): Pending {
  return { dir: root, real: realRoot, rel: "", depth: 0, inSkill: false };
}

/** Walks depth first from the folders on `stack` (the last first) until done or the dir bound. */
export function walkFrom(walk: Walk, stack: Pending[], onDir?: (dir: string) => void): void {
  const { limits } = walk;
  while (stack.length > 0) {
    if (++walk.dirsRead > limits.maxDirs) {
      walk.result.diagnostics.push(
        diagnostic(
          "warning",
          "walk.dir_limit",
          `Stopped walking after ${limits.maxDirs} directories; the rest of this root is not listed.`,
          { path: walk.root },
        ),
      );
      break;
    }
    const here = stack.pop()!;
    onDir?.(here.dir);
    const children = visitFolder(walk, here);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/** Reads one folder: notes it when it is a skill, and its flat skills; returns the folders to enter. */
export function visitFolder(walk: Walk, here: Pending): Pending[] {
  const entries = readEntries(here.dir, walk.result.diagnostics, here.depth === 0);
  if (!entries) return [];
  const hasSkill = isSkillFolder(walk, here, entries);
  // Only the entries that can matter, in name order: flat .md files outside skills,
  // and folders (or links) that are neither excluded nor a skill's support folders.
  const flatHere = !hasSkill && !here.inSkill;
  const wanted = entries.filter((e) => {
    const flat = flatHere && isFlatName(e);
    return e.isFile ? flat : flat || !prunedDir(e.name, hasSkill);
  });
  if (wanted.length > 1) wanted.sort(byName);
  const children: Pending[] = [];
  for (const e of wanted) {
    if (e.isFile || (e.isSymlink && !e.isDirectory)) {
      if (flatHere && isFlatName(e)) noteFlat(walk, here, e);
      if (e.isFile) continue;
    }
    if (prunedDir(e.name, hasSkill)) continue;
    const child = childOf(walk, here, e, hasSkill);
    if (child) children.push(child);
  }
  return children;
}

/** True when `e` names a legacy flat skill file (a `.md` other than the reserved ones). */
function isFlatName(e: Deno.DirEntry): boolean {
  return !e.isDirectory && e.name.endsWith(".md") && !NOT_FLAT.has(e.name);
}

/** True for a folder the walk never enters here: excluded, or a skill's support folder. */
function prunedDir(name: string, inSkillFolder: boolean): boolean {
  return EXCLUDED_DIRS.has(name) || (inSkillFolder && SUPPORT.has(name));
}

/**
 * True when the folder holds a SKILL.md (a file, or a link to one); it is recorded as a
 * skill when that file may be read ([S-9]).
 */
function isSkillFolder(walk: Walk, here: Pending, entries: Deno.DirEntry[]): boolean {
  const e = entries.find((e) =>
    e.name === "SKILL.md" && (e.isFile || isLinkTo(here.dir, e, "file"))
  );
  if (!e) return false;
  if (e.isFile || linkedFileFollows(here.dir, e.name, walk.reach, walk.result.diagnostics)) {
    const found = { dir: here.dir, rel: here.rel };
    walk.result.skills.push(found);
    walk.onSkill?.(found);
  }
  return true;
}

/** Records a legacy flat skill, a file or a link to one that may be read. */
function noteFlat(walk: Walk, here: Pending, e: Deno.DirEntry): void {
  const readable = e.isFile ||
    (isLinkTo(here.dir, e, "file") &&
      linkedFileFollows(here.dir, e.name, walk.reach, walk.result.diagnostics));
  if (!readable) return;
  walk.result.flat.push({
    file: joinPath(here.dir, e.name),
    rel: joinPath(here.rel, e.name),
    name: e.name.slice(0, -3),
  });
}

/** The folder `e` to enter, or undefined: a link that leaves the reach, seen, or too deep. */
function childOf(
  walk: Walk,
  here: Pending,
  e: Deno.DirEntry,
  hasSkill: boolean,
): Pending | undefined {
  const path = joinPath(here.dir, e.name);
  const real = e.isDirectory ? joinPath(here.real, e.name) : linkedRealDir(walk, path, e);
  if (real === undefined || walk.visited.has(real)) return undefined;
  if (here.depth + 1 > walk.limits.maxDepth) {
    if (!walk.depthNoted) {
      walk.result.diagnostics.push(
        diagnostic(
          "warning",
          "walk.depth_limit",
          `Did not enter folders deeper than ${walk.limits.maxDepth} levels below the root.`,
          { path },
        ),
      );
      walk.depthNoted = true;
    }
    return undefined;
  }
  walk.visited.add(real);
  if (!e.isDirectory) walk.linked?.push(real);
  return {
    dir: path,
    real,
    rel: joinPath(here.rel, e.name),
    depth: here.depth + 1,
    inSkill: hasSkill || here.inSkill,
  };
}

/** The real folder a link at `path` leads to, when it is one the walk may follow ([S-9]). */
function linkedRealDir(walk: Walk, path: string, e: Deno.DirEntry): string | undefined {
  if (!e.isSymlink) return undefined;
  const target = linkedDir(path);
  if (!target) return undefined;
  if (!follows(target, walk.reach)) {
    walk.result.diagnostics.push(leavingDiagnostic(path));
    return undefined;
  }
  return target;
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
