/**
 * Stamps: how a folder or a file looks now ([PERF-5], [PERF-6]), and which of a scan's
 * stamps no longer match. The check is the pure part of validating a scan by modification
 * times, shared by this thread and a watch helper's (`watch_helper.ts`), where it runs
 * while the watchers open so that no call waits for a pass over thousands of stamps on
 * the thread that answers.
 *
 * A stamp younger than {@linkcode RACY_MS} cannot prove anything (a file's times have a
 * coarse clock: an edit in the same tick could keep them), so it never matches: such a
 * path counts as changed until it is older.
 *
 * @example Nothing changed since the stamps were taken
 * ```ts
 * import { checkStamps, stampOf } from "./stamp_of.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/SKILL.md`, "---\nname: a\n---\n");
 * const hour = new Date(Date.now() - 3_600_000);
 * Deno.utimeSync(`${dir}/SKILL.md`, hour, hour);
 * const stamp = stampOf(`${dir}/SKILL.md`);
 * const check = checkStamps({ root: dir, dirs: new Map(), files: [`${dir}/SKILL.md`], stamps: [stamp] });
 * console.assert(!check.dirChanged && check.files.length === 0);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";
import { irrelevant } from "./watch_events.ts";

/** How old a stamp must be to prove that nothing changed since (milliseconds). */
export const RACY_MS = 2000;

const RACY = "racy:";
let racy = 0;

/** How `path` looks now (following links); a racy or missing path gets a stamp of its own. */
export function stampOf(path: string, now = Date.now()): string {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return `absent:${(error as Error).name}`;
  }
  const mtime = info.mtime?.getTime() ?? 0;
  if (mtime === 0 || now - mtime < RACY_MS) return `${RACY}${++racy}`;
  return `${mtime}:${info.ctime?.getTime() ?? 0}:${info.size}:${info.ino ?? 0}`;
}

/** Whether `stamp` proves nothing (taken too soon after a change). */
export function isRacy(stamp: string): boolean {
  return stamp.startsWith(RACY);
}

/**
 * Whether a stamp taken now (`fresh`) proves the path is as it was (`kept`): a racy stamp
 * matches nothing (stamps taken in two threads count their racy stamps apart).
 */
export function stampMatches(kept: string, fresh: string): boolean {
  return fresh === kept && !isRacy(fresh);
}

/**
 * The stamp of folder `dir` of root `root`: its times, but for the root itself its entries
 * (their names and kinds): the root holds the usage counters, rewritten by every view
 * ([U-1]), and they would change its times on every call.
 */
export function folderStampOf(dir: string, root: string, now: number): string {
  if (dir !== root) return stampOf(dir, now);
  try {
    const kinds = [...Deno.readDirSync(dir)].filter((e) => !irrelevant(joinPath(dir, e.name), dir))
      .map((e) => `${e.isDirectory ? "d" : e.isSymlink ? "l" : "f"}:${e.name}`);
    return `entries:${JSON.stringify(kinds.sort())}`;
  } catch (error) {
    return `absent:${(error as Error).name}`;
  }
}

/** What a scan of one root saw: each folder it read and each SKILL.md it parsed, with their stamps. */
export interface StampSet {
  /** The root. */
  root: string;
  /** Every folder the walk read, with its stamp (never changed once made). */
  dirs: Map<string, string>;
  /** Each record's SKILL.md. */
  files: string[];
  /** The stamp of each of `files`, in the same order (never changed once made). */
  stamps: string[];
}

/** Which stamps of a {@linkcode StampSet} no longer match. */
export interface StampCheck {
  /** A folder changed (an entry added, removed or renamed): the root must be walked again. */
  dirChanged: boolean;
  /** The index and fresh stamp of each SKILL.md whose stamp changed (none looked at when a folder did). */
  files: [number, string][];
}

/** Stats what `set` saw, folders first (the first changed folder ends the check). */
export function checkStamps(set: StampSet, now = Date.now()): StampCheck {
  for (const [dir, stamp] of set.dirs) {
    if (!stampMatches(stamp, folderStampOf(dir, set.root, now))) {
      return { dirChanged: true, files: [] };
    }
  }
  const files: [number, string][] = [];
  set.files.forEach((file, i) => {
    const fresh = stampOf(file, now);
    if (!stampMatches(set.stamps[i], fresh)) files.push([i, fresh]);
  });
  return { dirChanged: false, files };
}

/**
 * The stamps of what a scan of `root` begun at `started` saw (its folders and SKILL.md
 * files), taken after it: a path modified less than {@linkcode RACY_MS} before `started`
 * (or since) gets a racy stamp (it counts as changed), so that each stamp that matches
 * later proves the scan read what is there. They may be taken any time after the scan:
 * what changed since it began is racy whenever it is looked at.
 */
export function stampsSince(
  root: string,
  dirs: readonly string[],
  files: string[],
  started: number,
): StampSet {
  const stamped = new Map<string, string>();
  for (const dir of dirs) {
    // The root's entries, listed after its walk, prove nothing when it changed since it began.
    const racy = dir === root && isRacy(stampOf(dir, started));
    stamped.set(dir, racy ? stampOf(dir, started) : folderStampOf(dir, root, started));
  }
  return { root, dirs: stamped, files, stamps: files.map((f) => stampOf(f, started)) };
}

/**
 * Stamps taken and checked somewhere else (a watch helper's thread). Each rejects when it
 * cannot; the work is then done on this thread.
 */
export interface StampChecker {
  /** Which of `set`'s stamps no longer match ({@linkcode checkStamps}). */
  check(set: StampSet): Promise<StampCheck>;
  /** The stamps of what a scan begun at `started` saw ({@linkcode stampsSince}). */
  since(root: string, dirs: string[], files: string[], started: number): Promise<StampSet>;
}
