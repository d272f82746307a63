/**
 * One root of a watched cache (`watch_cache.ts`): what it keeps of the root, how its
 * watcher's events and sentinel marks are followed, and how long a mark may take.
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import type { ScannedRoot } from "./scanned.ts";
import type { StampedScan } from "./stamps.ts";
import type { FsWatch } from "./watch_source.ts";
import type { Sentinel } from "./sentinel.ts";
import { irrelevant } from "./watch_events.ts";

/** How a root is kept fresh: `watched`; `fallback` (validated by modification times), `waiting` or `opening` (not yet watched). */
export type WatchState = "waiting" | "opening" | "watched" | "fallback";

/** What a watched cache keeps of one root. */
export interface Entry {
  path: string;
  state: WatchState;
  reason?: string;
  generation: number;
  scanned?: ScannedRoot;
  /** The stamps of a root validated by modification times (or watched, not yet verified). */
  stamped?: StampedScan;
  /** Settles when the stamps of an adopted scan, being taken in a helper, are `stamped`. */
  stamping?: Promise<void>;
  root?: Root | PluginRoot;
  watch?: FsWatch;
  rebuild: boolean;
  /** The last sentinel mark this root's watcher reported. */
  seen: number;
  /** The root's links as they were before its scan (`link_sweep.ts`). */
  links?: string;
  /** Settles when the watcher being opened is up or has failed. */
  opened?: Promise<void>;
  /**
   * Whether the current watcher has reported a mark yet: until it has, its root stays
   * `opening`, validated by its stamps (see {@linkcode FIRST_MARKS}).
   */
  marked: boolean;
  waiters: Set<() => void>;
}

/** How long a watcher may take to report a sentinel mark before its root is rescanned. */
export const LATE_MS = 1000;

/**
 * How many marks a watcher just opened is given ({@linkcode LATE_MS} each) to report one
 * before it is closed and its root falls back ([PERF-6]). `Deno.watchFs` returns while
 * its last watches are still being set up, the sentinel's last of all: a mark placed at
 * once may never be reported (traced at 10,000 skills). A mark made again later is; the
 * sentinel watched last, its mark proves the root's watches are all set up. No call waits
 * for these marks: until one comes, the root is validated by its stamps.
 */
export const FIRST_MARKS = 5;

/** A root not watched yet. */
export function newEntry(path: string): Entry {
  return {
    path,
    state: "waiting",
    generation: 0,
    rebuild: false,
    seen: 0,
    marked: false,
    waiters: new Set(),
  };
}

/** Resolves true once `ready()` holds (asked whenever `entry`'s waiters are woken), false after `ms`. */
export function waitFor(entry: Entry, ready: () => boolean, ms: number): Promise<boolean> {
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (outcome: boolean) => {
      clearTimeout(timer);
      entry.waiters.delete(wake);
      resolve(outcome);
    };
    const wake = () => ready() && done(true);
    const timer = setTimeout(() => done(false), ms);
    entry.waiters.add(wake);
  });
}

/**
 * Follows `watch`'s events for `entry`: marks are noted (and waiters woken), a change
 * inside the root of a watched (proven) entry calls `invalidate`, as does the stream's
 * end on its own (the root then falls back).
 */
export function listenTo(
  entry: Entry,
  watch: FsWatch,
  sentinel: Sentinel,
  invalidate: () => void,
): void {
  (async () => {
    try {
      for await (const event of watch) {
        if (entry.watch !== watch) break;
        if (event.kind === "access") continue; // reading, our own scans included, changes nothing
        if (event.paths.length === 0 || event.flag === "rescan") {
          invalidate(); // The watcher lost track (queue overflow): trust nothing.
          continue;
        }
        for (const path of event.paths) {
          if (path.startsWith(sentinel.dir + "/")) {
            entry.seen = Math.max(entry.seen, sentinel.tickOf(path));
            entry.marked = true;
            for (const wake of entry.waiters) wake();
            continue;
          }
          if (irrelevant(path, entry.path)) continue;
          // A renamed folder keeps its watch descriptor, which a later move-self event
          // can drop: open this root's watcher again before the cache is read again.
          if (event.kind === "rename") entry.rebuild = true;
          // Before its first mark the root is validated by its stamps: they see this too.
          const inside = path === entry.path || path.startsWith(entry.path + "/");
          if (inside && entry.state === "watched") invalidate();
        }
      }
    } catch {
      // The stream failed: handled as its end.
    } finally {
      if (entry.watch === watch) {
        // It ended on its own: this root falls back to validation by modification times.
        entry.watch = undefined;
        entry.state = "fallback";
        entry.reason = "its watcher stopped";
        invalidate();
        for (const wake of entry.waiters) wake();
      }
    }
  })();
}
