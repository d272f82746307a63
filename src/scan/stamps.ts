/**
 * Validated re-scans by modification times ([PERF-5]): the fallback for a root that no
 * file watcher covers (the watcher could not be set up there, or is not ready yet).
 *
 * A stamped scan notes how every folder it read and every SKILL.md it parsed looked
 * (modification and change time, size, inode), each noted *before* it was read, so a
 * change made during the scan shows on the next look. Revalidating stats those paths
 * again: when no folder changed, the walk is reused and only SKILL.md files whose stamp
 * changed are read again; when a folder changed (an entry added, removed or renamed), the
 * root is walked again, and every skill whose SKILL.md kept its stamp keeps its record.
 *
 * Stamps themselves, and the check of which no longer match, are `stamp_of.ts`'s: a watch
 * helper runs the check too (`StampChecker`).
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import { readRecord, rootSource, walkOfRoot } from "./scan_root.ts";
import type { SkillRecord } from "./record.ts";
import type { ScannedRoot } from "./scanned.ts";
import type { WalkLimits } from "./walk.ts";
import { joinPath } from "../home/paths.ts";
import {
  checkStamps,
  folderStampOf,
  type StampCheck,
  stampMatches,
  stampOf,
  type StampSet,
  stampsSince,
} from "./stamp_of.ts";

/**
 * The most stamps (folders and SKILL.md files) a call validates itself while its root's
 * watcher is being opened ([PERF-6]). A root with more waits for its watcher instead (at
 * most {@linkcode OPEN_WAIT_MS}): at 10,000 skills a pass over its 20,000 stamps costs
 * 100-600 ms, and passes on every call took the CPU the watcher's setup needs (under
 * load the watcher did not open in 10 s, every call paying a pass meanwhile).
 */
export const STAMP_BUDGET = 5000;

/** The longest a call waits for a watcher being opened before validating by stamps (ms). */
export const OPEN_WAIT_MS = 10_000;

/** A scanned root with the stamps that prove it still holds. */
export interface StampedScan {
  /** What the walk and the reads found. */
  scanned: ScannedRoot;
  /** Every folder the walk read, with its stamp. */
  dirs: Map<string, string>;
  /** The stamp of each record's SKILL.md (same order as `scanned.records`). */
  files: string[];
}

/**
 * A scan made from `started` on that noted its folders (`dirs`), with the stamps of what
 * it saw, taken now (`stampsSince`). (A file put in place by a rename changes its
 * folder's time, and every folder holding a record is stamped.)
 */
export function stampedSince(scanned: ScannedRoot, root: string, started: number): StampedScan {
  const files = scanned.records.map((r) => r.file);
  return stampedFrom(scanned, stampsSince(root, scanned.dirs ?? [], files, started));
}

/**
 * `scanned` with the stamps of `set` (taken of it, here or in a helper), the same objects:
 * a helper that took them holds them already.
 */
export function stampedFrom(scanned: ScannedRoot, set: StampSet): StampedScan {
  return { scanned: { ...scanned, dirs: undefined }, dirs: set.dirs, files: set.stamps };
}

/**
 * Walks `root` and reads its skills, noting stamps; records of `previous` whose SKILL.md
 * kept its stamp are reused, not read again.
 */
export function stampedScan(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  previous?: StampedScan,
): StampedScan {
  const { source, namespace } = rootSource(root);
  const dirs = new Map<string, string>();
  const now = Date.now();
  const walk = walkOfRoot(
    root,
    limits,
    realRoots,
    (dir) => dirs.set(dir, folderStampOf(dir, root.path, now)),
  );
  const before = new Map<string, number>();
  previous?.scanned.records.forEach((r, i) => before.set(r.skillDir, i));
  const files: string[] = [];
  const records = walk.skills.map((s): SkillRecord => {
    const stamp = stampOf(joinPath(s.dir, "SKILL.md"), now);
    files.push(stamp);
    const i = before.get(s.dir);
    if (previous && i !== undefined && stampMatches(previous.files[i], stamp)) {
      return previous.scanned.records[i];
    }
    return readRecord(s.dir, s.rel, root.path, source, namespace, realRoots);
  });
  return { scanned: { records, flat: walk.flat, diagnostics: walk.diagnostics }, dirs, files };
}

/** What `stamped` saw of `root`, for {@linkcode checkStamps} (here or in a helper). */
export function stampSetOf(root: string, stamped: StampedScan): StampSet {
  return {
    root,
    dirs: stamped.dirs,
    files: stamped.scanned.records.map((r) => r.file),
    stamps: stamped.files,
  };
}

/**
 * `previous` itself when nothing it saw changed; else the root scanned again, re-walked
 * only when a folder changed, re-reading only the skills whose SKILL.md changed.
 * `onWalk` hears of every walk.
 */
export function revalidate(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  previous: StampedScan,
  onWalk?: () => void,
): StampedScan {
  const check = checkStamps(stampSetOf(root.path, previous));
  return applyCheck(root, limits, realRoots, previous, check, onWalk);
}

/**
 * `previous` as `check` (taken after it, here or in a helper) found it: itself when nothing
 * changed; else walked again (a folder changed) or with the changed skills read again.
 */
export function applyCheck(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  previous: StampedScan,
  check: StampCheck,
  onWalk?: () => void,
): StampedScan {
  if (check.dirChanged) {
    onWalk?.();
    return stampedScan(root, limits, realRoots, previous);
  }
  if (check.files.length === 0) return previous;
  const { source, namespace } = rootSource(root);
  const files = [...previous.files];
  const records = [...previous.scanned.records];
  for (const [i, stamp] of check.files) {
    const r = records[i];
    files[i] = stamp;
    records[i] = readRecord(r.skillDir, r.path, root.path, source, namespace, realRoots);
  }
  return { scanned: { ...previous.scanned, records }, dirs: previous.dirs, files };
}
