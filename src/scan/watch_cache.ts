/**
 * The watched cache: the scans of roots (`ScannedRoot`) kept across the calls of a
 * long-lived process (library with `watch: true`, MCP server) ([S-4], [PERF-3], [PERF-5]);
 * one recursive file watcher per root invalidates what it kept. A catalog backed by it
 * reuses them.
 *
 * Freshness is proven, not hoped for: each watcher also watches a private sentinel folder
 * (outside the home). Before the cache is read, a new file with a unique name is made
 * there and its event awaited from every watcher; a watcher's events arrive in order, so
 * every change made before the read has been seen by then. Changes the walk ignores
 * (reads, usage counters, excluded folders) do not invalidate.
 *
 * A root no watcher covers — its watcher could not be opened (the system's watch limit
 * is exhausted, say), or is not open yet (watchers are opened at a server's start or its
 * first call: watching thousands of folders takes seconds) — is validated on every read
 * by the modification times of what its last scan saw (`stamps.ts`), and only that root;
 * while its watcher opens, a root with more stamps than a budget is waited for instead.
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/setup.ts";
import { scanRoot } from "./scan_root.ts";
import { linkSignature, SWEEP_MS } from "./link_sweep.ts";
import type { ScannedRoot } from "./scanned.ts";
import {
  OPEN_WAIT_MS,
  revalidate,
  STAMP_BUDGET,
  type StampedScan,
  stampedScan,
  stampedSince,
} from "./stamps.ts";
import type { WalkLimits } from "./walk.ts";
import { irrelevant } from "./watch_events.ts";
import { type FsWatch, watchFailure, watchInThread, type WatchOpener } from "./watch_source.ts";
import { Sentinel } from "./sentinel.ts";

/** What a scan needs besides its root (a catalog's bounds and real roots). */
export interface ScanContext {
  /** The walk bounds. */
  limits: WalkLimits;
  /** The real paths of every root ([S-9]). */
  realRoots: readonly string[];
  /** Hears of every walk of a root (for counts of work done). */
  onWalk?: (root: string) => void;
}

/** How a root is kept fresh. */
export interface WatchStatus {
  /** The root. */
  root: string;
  /** `watched`; `fallback` (validated by modification times), `waiting` or `opening` (not yet watched). */
  state: "waiting" | "opening" | "watched" | "fallback";
  /** Why a `fallback` root is not watched. */
  reason?: string;
}

interface Entry {
  path: string;
  state: WatchStatus["state"];
  reason?: string;
  generation: number;
  scanned?: ScannedRoot;
  /** The stamps of a root validated by modification times (or watched, not yet verified). */
  stamped?: StampedScan;
  root?: Root | PluginRoot;
  watch?: FsWatch;
  rebuild: boolean;
  /** The last sentinel mark this root's watcher reported. */
  seen: number;
  /** The root's links as they were before its scan (`link_sweep.ts`). */
  links?: string;
  /** Settles when the watcher being opened is up or has failed. */
  opened?: Promise<void>;
  /** Whether the current watcher has reported a mark yet (see {@linkcode FIRST_MARKS}). */
  marked: boolean;
  waiters: Set<() => void>;
}

/** How long a watcher may take to report a sentinel mark before its root is rescanned. */
const LATE_MS = 1000;

/**
 * How many marks a watcher just opened is given ({@linkcode LATE_MS} each) before its
 * root is rescanned ([PERF-6]). `Deno.watchFs` returns while its last watches are still
 * being set up, the sentinel's last of all: a mark placed at once may never be reported
 * (traced at 10,000 skills), and a root walked again for it cost the call seconds. A mark
 * made again later is; the sentinel watched last, its mark proves the root's watches are
 * all set up.
 */
const FIRST_MARKS = 5;

/** Scanned roots kept while nothing below them changes. */
export class WatchedCache {
  #entries = new Map<string, Entry>();
  #sentinel?: Sentinel;
  #opener: WatchOpener;
  #budget: number;
  #tick = 0;
  /** The timer of the link sweep, once the watchers are open. */
  #sweep?: ReturnType<typeof setInterval>;
  #version = 0;
  #listeners = new Set<() => void>();
  #notify?: ReturnType<typeof setTimeout>;
  #started?: Promise<void>;
  #closed = false;
  /** The round (sentinel mark, validation) out now, and the one callers that came meanwhile wait for. */
  #current?: Promise<void>;
  #next?: Promise<void>;

  private constructor(
    roots: string[],
    sentinel: Sentinel | undefined,
    opener: WatchOpener,
    budget: number,
  ) {
    this.#budget = budget;
    this.#sentinel = sentinel;
    this.#opener = opener;
    for (const path of roots) {
      this.#entries.set(path, {
        path,
        state: "waiting",
        generation: 0,
        rebuild: false,
        seen: 0,
        marked: false,
        waiters: new Set(),
      });
    }
  }

  /**
   * A cache over `roots`, not watching yet ({@linkcode start}). `sentinel` is a folder this
   * process may write in (a temp folder is made when absent); `opener` opens watchers.
   */
  static create(
    roots: string[],
    sentinel?: string,
    opener = watchInThread,
    budget = STAMP_BUDGET,
  ): WatchedCache {
    // Without a folder to prove freshness in, every root is validated by modification times.
    return new WatchedCache(roots, Sentinel.in(sentinel), opener, budget);
  }

  /**
   * Opens the watchers (once); resolves when every root is watched or has fallen back.
   * Listeners are told once then: what changed before could not be seen.
   */
  start(): Promise<void> {
    return this.#started ??= Promise.all([...this.#entries.values()].map((e) => this.#open(e)))
      .then(() => {
        if (this.#closed) return;
        this.#changed();
        this.#sweep = setInterval(() => this.#sweepLinks(), SWEEP_MS);
        Deno.unrefTimer(this.#sweep);
      });
  }

  /** Drops the scan of each watched root whose links changed unreported (`link_sweep.ts`). */
  #sweepLinks(): void {
    for (const entry of this.#entries.values()) {
      if (entry.state !== "watched" || !entry.scanned || entry.links === undefined) continue;
      if (linkSignature(entry.path) !== entry.links) this.#invalidate(entry);
    }
  }

  #open(entry: Entry): Promise<void> {
    return entry.opened = this.#opening(entry);
  }

  async #opening(entry: Entry): Promise<void> {
    if (!this.#sentinel) {
      entry.state = "fallback";
      entry.reason = "no private folder to prove freshness in";
      return;
    }
    entry.state = "opening";
    try {
      const watch = await this.#opener([entry.path, this.#sentinel.dir]);
      if (this.#closed) return watch.close();
      entry.watch = watch;
      entry.marked = false;
      entry.state = "watched";
      entry.reason = undefined;
      this.#listen(entry, watch, this.#sentinel);
    } catch (error) {
      if (this.#closed) return;
      entry.state = "fallback";
      entry.reason = watchFailure(error);
    }
  }

  #listen(entry: Entry, watch: FsWatch, sentinel: Sentinel): void {
    (async () => {
      try {
        for await (const event of watch) {
          if (entry.watch !== watch) break;
          if (event.kind === "access") continue; // reading, our own scans included, changes nothing
          if (event.paths.length === 0 || event.flag === "rescan") {
            this.#invalidate(entry); // The watcher lost track (queue overflow): trust nothing.
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
            if (path === entry.path || path.startsWith(entry.path + "/")) this.#invalidate(entry);
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
          this.#invalidate(entry);
          for (const wake of entry.waiters) wake();
        }
      }
    })();
  }

  /** Grows whenever anything kept is dropped or changed: an unchanged version means nothing changed. */
  get version(): number {
    return this.#version;
  }

  /** True when a watcher covers every root (none waiting, falling back or to be reopened). */
  everyRootWatched(): boolean {
    if (this.#closed) return false;
    for (const e of this.#entries.values()) if (e.state !== "watched" || e.rebuild) return false;
    return true;
  }

  /** How each root is kept fresh. */
  status(): WatchStatus[] {
    return [...this.#entries.values()].map((e) => ({
      root: e.path,
      state: e.state,
      ...(e.reason ? { reason: e.reason } : {}),
    }));
  }

  /** Calls `listener` (at most every 100 ms) after a change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#version++;
    if (this.#listeners.size && this.#notify === undefined) {
      this.#notify = setTimeout(() => {
        this.#notify = undefined;
        for (const listener of this.#listeners) listener();
      }, 100);
    }
  }

  /** Drops what a root kept and tells the listeners. */
  #invalidate(entry: Entry): void {
    entry.generation++;
    entry.scanned = undefined;
    entry.stamped = undefined;
    this.#changed();
  }

  /**
   * Keeps `scanned`, a scan of `root` made from `started` on that noted its folders, as
   * the root's scan validated by modification times (`stampedSince`), when the root has none.
   */
  adopt(root: Root | PluginRoot, scanned: ScannedRoot, started: number): void {
    const entry = this.#entries.get(root.path);
    if (!entry || entry.scanned || !scanned.dirs) return;
    entry.root = root;
    entry.links = linkSignature(root.path);
    entry.stamped = stampedSince(scanned, root.path, started);
    entry.scanned = entry.stamped.scanned;
  }

  /** The scan of a root as kept now (see {@linkcode scan}), without walking; undefined when none is. */
  kept(path: string): ScannedRoot | undefined {
    return this.#entries.get(path)?.scanned;
  }

  /**
   * The scan of a root: kept while its watcher saw no change; for a root no watcher
   * covers, the last scan as validated by {@linkcode settle} (a stamped scan the first time).
   */
  scan(root: Root | PluginRoot, ctx: ScanContext): ScannedRoot {
    const entry = this.#entries.get(root.path);
    if (entry?.scanned) return entry.scanned;
    ctx.onWalk?.(root.path);
    if (!entry) return scanRoot(root, ctx.limits, ctx.realRoots);
    entry.root = root;
    entry.links = linkSignature(root.path); // before the scan: a link made after it is swept
    if (entry.state === "watched") {
      // Synchronous: a change made meanwhile is reported after, and drops this scan.
      return entry.scanned = scanRoot(root, ctx.limits, ctx.realRoots);
    }
    entry.stamped = stampedScan(root, ctx.limits, ctx.realRoots, entry.stamped);
    return entry.scanned = entry.stamped.scanned;
  }

  /**
   * Makes what is kept true for this moment: waits until every watcher has seen every
   * change made so far (the sentinel's mark has come back), and validates by modification
   * times each root no watcher covers (and a newly watched root's scan from before).
   */
  async settle(ctx: ScanContext): Promise<void> {
    for (const entry of this.#entries.values()) {
      if (entry.state === "watched" && entry.rebuild) this.#reopen(entry);
    }
    await this.#openedOrLate();
    await this.#round(ctx);
  }

  /**
   * When a root being opened has more stamps than the budget, waits for every watcher
   * being opened (roots under it are validated by their stamps meanwhile).
   */
  async #openedOrLate(): Promise<void> {
    const costly = [...this.#entries.values()].filter((e) =>
      e.state === "opening" && e.opened && e.stamped &&
      e.stamped.dirs.size + e.stamped.files.length > this.#budget
    );
    if (costly.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, OPEN_WAIT_MS)));
    // Every watcher being opened: the helper opens them one after the other, and a mark
    // placed while it opens one was not reported by those already open (at 10,000 skills
    // their first mark never came: each late mark walked the root again).
    const opening = [...this.#entries.values()].filter((e) => e.state === "opening");
    await Promise.race([Promise.all(opening.map((e) => e.opened)), late]);
    clearTimeout(timer);
  }

  /**
   * Resolves once a sentinel mark made after this call has come back from every watcher
   * and the roots no watcher covers were validated after it. Concurrent callers share
   * rounds (a group commit): a caller arriving while a round is out waits for the next
   * one, which starts when that one ends and serves all of them.
   */
  #round(ctx: ScanContext): Promise<void> {
    if (!this.#current) return this.#current = this.#runRound(ctx);
    return this.#next ??= this.#current.catch(() => {}).then(() => {
      this.#next = undefined;
      return this.#current = this.#runRound(ctx);
    });
  }

  async #runRound(ctx: ScanContext): Promise<void> {
    try {
      await this.#markRound();
      this.#revalidate(ctx);
    } finally {
      if (!this.#next) this.#current = undefined;
    }
  }

  /** Validates by modification times the scan of each root no watcher covers (yet). */
  #revalidate(ctx: ScanContext): void {
    for (const entry of this.#entries.values()) {
      if (!entry.stamped || !entry.root) continue;
      const onWalk = () => ctx.onWalk?.(entry.path);
      const next = revalidate(entry.root, ctx.limits, ctx.realRoots, entry.stamped, onWalk);
      if (next !== entry.stamped) {
        entry.scanned = next.scanned;
        this.#changed();
      }
      // A watched root's scan from before its watcher, once verified, is the watcher's to keep.
      entry.stamped = entry.state === "watched" ? undefined : next;
    }
  }

  /** Resolves once a sentinel mark made now has come back from every watcher. */
  async #markRound(): Promise<void> {
    const watched = [...this.#entries.values()].filter((e) => e.state === "watched");
    if (watched.length === 0 || !this.#sentinel) return;
    const tick = ++this.#tick;
    if (!this.#sentinel.place(tick)) {
      for (const entry of watched) this.#invalidate(entry); // No proof: forget them.
      return;
    }
    await Promise.all(watched.map((e) => this.#awaitMark(e, tick)));
  }

  /** Resolves when `entry`'s watcher has reported mark `tick` (or drops its scan when late). */
  #awaitMark(entry: Entry, tick: number): Promise<void> {
    if (entry.seen >= tick) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        entry.waiters.delete(wake);
        resolve();
      };
      const wake = () => (entry.seen >= tick || entry.state !== "watched") && done();
      let tries = entry.marked ? 1 : FIRST_MARKS;
      const late = () => {
        if (--tries > 0 && this.#sentinel?.place(++this.#tick)) {
          timer = setTimeout(late, LATE_MS); // a later mark proves as much
          return;
        }
        this.#invalidate(entry); // Unsure: forget this root.
        done();
      };
      let timer = setTimeout(late, LATE_MS);
      entry.waiters.add(wake);
    });
  }

  /** Replaces a root's watcher (after a rename); validated by modification times meanwhile. */
  #reopen(entry: Entry): void {
    entry.rebuild = false;
    const old = entry.watch;
    entry.watch = undefined;
    old?.close();
    this.#invalidate(entry);
    void this.#open(entry);
  }

  /** Stops watching and forgets everything. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#sweep);
    for (const entry of this.#entries.values()) {
      const watch = entry.watch;
      entry.watch = undefined;
      entry.state = "fallback";
      entry.reason = "closed";
      watch?.close();
      for (const wake of entry.waiters) wake();
    }
    this.#sentinel?.remove();
    this.#entries.clear();
    clearTimeout(this.#notify);
    this.#listeners.clear();
  }
}
