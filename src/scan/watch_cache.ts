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
 * is exhausted, say), or is not open yet, or has not reported a mark yet (watchers are
 * opened at a server's start or its first call: watching thousands of folders takes
 * seconds) — is validated on every read by the modification times of what its last scan
 * saw (`stamps.ts`), and only that root. With a {@linkcode StampChecker} (a watch helper
 * that opens no watchers) the pass over the stamps is made on the checker's thread, so a
 * call waits for one pass but the thread answering calls makes none ([PERF-6]); without
 * one, while its watcher opens, a root with more stamps than a budget is waited for instead.
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import { scanRoot } from "./scan_root.ts";
import { linkSignature, SWEEP_MS } from "./link_sweep.ts";
import type { ScannedRoot } from "./scanned.ts";
import {
  applyCheck,
  OPEN_WAIT_MS,
  STAMP_BUDGET,
  stampedFrom,
  type StampedScan,
  stampedScan,
  stampedSince,
  stampSetOf,
} from "./stamps.ts";
import { checkStamps, type StampCheck, type StampChecker, stampsSince } from "./stamp_of.ts";
import type { WalkLimits } from "./walk.ts";
import { type FsWatch, watchFailure, watchInThread, type WatchOpener } from "./watch_source.ts";
import { Sentinel } from "./sentinel.ts";
import { type Entry, FIRST_MARKS, LATE_MS, listenTo, newEntry, waitFor } from "./watch_entry.ts";

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

/** Scanned roots kept while nothing below them changes. */
export class WatchedCache {
  #entries = new Map<string, Entry>();
  #sentinel?: Sentinel;
  #opener: WatchOpener;
  #budget: number;
  #checker?: StampChecker;
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
    checker: StampChecker | undefined,
  ) {
    this.#budget = budget;
    this.#checker = checker;
    this.#sentinel = sentinel;
    this.#opener = opener;
    for (const path of roots) {
      this.#entries.set(path, newEntry(path));
    }
  }

  /**
   * A cache over `roots`, not watching yet ({@linkcode start}). `sentinel` is a folder this
   * process may write in (a temp folder is made when absent); `opener` opens watchers;
   * `checker` checks stamps on another thread (when absent, on this one, and a root over
   * `budget` stamps waits for its watcher while it opens).
   */
  static create(
    roots: string[],
    sentinel?: string,
    opener = watchInThread,
    budget = STAMP_BUDGET,
    checker?: StampChecker,
  ): WatchedCache {
    // Without a folder to prove freshness in, every root is validated by modification times.
    return new WatchedCache(roots, Sentinel.in(sentinel), opener, budget, checker);
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
      listenTo(entry, watch, this.#sentinel, () => this.#invalidate(entry));
      if (await this.#proved(entry, watch)) {
        entry.state = "watched";
        entry.reason = undefined;
      }
    } catch (error) {
      if (this.#closed) return;
      entry.state = "fallback";
      entry.reason = watchFailure(error);
    }
  }

  /**
   * Places marks until the watcher just opened reports one ({@linkcode FIRST_MARKS}, each
   * given {@linkcode LATE_MS}): true once it has; a watcher that reports none is closed,
   * and its root falls back. (It stays `opening` meanwhile: validated by its stamps.)
   */
  async #proved(entry: Entry, watch: FsWatch): Promise<boolean> {
    for (let i = 0; i < FIRST_MARKS && entry.watch === watch && !entry.marked; i++) {
      if (!this.#sentinel?.place(++this.#tick)) break;
      await waitFor(entry, () => entry.marked || entry.watch !== watch, LATE_MS);
    }
    if (entry.watch !== watch) return false; // it stopped, or the cache closed
    if (entry.marked) return true;
    entry.watch = undefined;
    entry.state = "fallback";
    entry.reason = "its watcher reported no change";
    watch.close();
    return false;
  }

  /** Grows whenever anything kept is dropped or changed: an unchanged version means nothing changed. */
  get version(): number {
    return this.#version;
  }

  /** True when a watcher covers every root (none waiting, opening, falling back or to be reopened). */
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
   * the root's scan validated by modification times (`stampedSince`), when the root has
   * none. With a checker its stamps are taken there, not before this call answers.
   */
  adopt(root: Root | PluginRoot, scanned: ScannedRoot, started: number): void {
    const entry = this.#entries.get(root.path);
    const dirs = scanned.dirs;
    if (!entry || entry.scanned || !dirs) return;
    entry.root = root;
    entry.links = linkSignature(root.path);
    if (!this.#checker) {
      entry.stamped = stampedSince(scanned, root.path, started);
      entry.scanned = entry.stamped.scanned;
      return;
    }
    entry.scanned = { ...scanned, dirs: undefined };
    const { generation } = entry;
    const files = scanned.records.map((r) => r.file);
    const stamping: Promise<void> = this.#checker.since(root.path, dirs, files, started)
      .catch(() => stampsSince(root.path, dirs, files, started)) // the helper failed: here
      .then((set) => {
        if (entry.stamping !== stamping) return;
        entry.stamping = undefined;
        if (entry.generation === generation) entry.stamped = stampedFrom(scanned, set);
      });
    entry.stamping = stamping;
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
   * Without a checker, when a root being opened has more stamps than the budget, waits for
   * every watcher being opened (roots under it are validated by their stamps meanwhile).
   */
  async #openedOrLate(): Promise<void> {
    if (this.#checker) return;
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
      // Trusted before the mark is placed: a watcher proven later is verified next round.
      const trusted = new Set([...this.#entries.values()].filter((e) => e.state === "watched"));
      await this.#markRound(trusted);
      await this.#revalidate(ctx, trusted);
    } finally {
      if (!this.#next) this.#current = undefined;
    }
  }

  /**
   * Validates by modification times the scan of each root no proven watcher covers (yet),
   * and once more the scan a root's watcher has since proven it covers (then forgotten).
   */
  async #revalidate(ctx: ScanContext, trusted: ReadonlySet<Entry>): Promise<void> {
    await Promise.all([...this.#entries.values()].map((e) => e.stamping));
    const stamped = [...this.#entries.values()].filter((e) => e.stamped && e.root);
    const checks = await Promise.all(stamped.map((e) => this.#check(e.path, e.stamped!)));
    stamped.forEach((entry, i) => {
      const before = entry.stamped;
      if (!before || !entry.root) return; // dropped meanwhile (an event, a reopen)
      const onWalk = () => ctx.onWalk?.(entry.path);
      const next = applyCheck(entry.root, ctx.limits, ctx.realRoots, before, checks[i], onWalk);
      if (next !== before) {
        entry.scanned = next.scanned;
        this.#changed();
      }
      // A watched root's scan from before its watcher, once verified, is the watcher's to keep.
      entry.stamped = trusted.has(entry) && entry.state === "watched" ? undefined : next;
    });
  }

  /** Which of a root's stamps changed: on the checker's thread when there is one, else here. */
  async #check(root: string, stamped: StampedScan): Promise<StampCheck> {
    const set = stampSetOf(root, stamped);
    if (this.#checker) {
      try {
        return await this.#checker.check(set);
      } catch {
        // The helper failed or is slow: checked here.
      }
    }
    return checkStamps(set);
  }

  /** Resolves once a sentinel mark made now has come back from every `trusted` watcher. */
  async #markRound(trusted: ReadonlySet<Entry>): Promise<void> {
    const watched = [...trusted];
    if (watched.length === 0 || !this.#sentinel) return;
    const tick = ++this.#tick;
    if (!this.#sentinel.place(tick)) {
      for (const entry of watched) this.#invalidate(entry); // No proof: forget them.
      return;
    }
    await Promise.all(watched.map((e) => this.#awaitMark(e, tick)));
  }

  /** Resolves when `entry`'s watcher has reported mark `tick` (or drops its scan when late). */
  async #awaitMark(entry: Entry, tick: number): Promise<void> {
    const ready = () => entry.seen >= tick || entry.state !== "watched";
    if (!(await waitFor(entry, ready, LATE_MS))) this.#invalidate(entry); // Unsure: forget this root.
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
