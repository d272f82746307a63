/**
 * The one catalog of a long-lived runtime (`watch: true`: the MCP server, a library
 * instance inside an agent) ([PERF-3], [PERF-5]): every call reads it, and it is kept
 * fresh by a {@linkcode WatchedCache}. The first answer comes from a fresh scan; the
 * watchers are opened meanwhile, in a helper Worker, so that setting up thousands of
 * watches never delays an answer (roots are validated by modification times until then).
 *
 * @module
 */
import type { HomeLayout } from "../home/layout.ts";
import { Catalog } from "./catalog.ts";
import { WatchedCache, type WatchStatus } from "./watch_cache.ts";
import { HelperWatches, ownWatchHelper, watchInThread, type WatchOpener } from "./watch_source.ts";

/** Where a live catalog gets its sentinel folder and its watchers. */
export interface LiveOptions {
  /** A folder this process may write in, to prove freshness (a temp folder when absent). */
  sentinel?: string;
  /** Opens watchers (when absent: in a helper Worker, {@linkcode LiveOptions.helper} or its own). */
  opener?: WatchOpener;
  /** Gets the port of a watch helper Worker (the sandbox Worker asks the warden). */
  helper?: () => MessagePort;
}

/** The watched catalog a long-lived runtime serves every call from. */
export class LiveCatalog {
  #setup: HomeLayout;
  #options: LiveOptions;
  #onScan: () => void;
  #cache?: WatchedCache;
  #helper?: HelperWatches;
  /** A second watch helper that opens no watchers: it checks stamps while the first opens them. */
  #checker?: HelperWatches;
  #answered = false;
  #startTimer?: ReturnType<typeof setTimeout>;
  #listeners = new Set<() => void>();
  #current?: { catalog: Catalog; version: number };

  /** A live catalog over `setup`; `onScan` hears of every walk of a root. */
  constructor(setup: HomeLayout, options: LiveOptions, onScan: () => void) {
    this.#setup = setup;
    this.#options = options;
    this.#onScan = onScan;
  }

  /**
   * The catalog for this moment, proved fresh; undefined for the very first call, which
   * answers from a fresh scan (the watchers are opened meanwhile).
   */
  async current(): Promise<Catalog | undefined> {
    const cache = this.#watched();
    if (!this.#answered) {
      this.#answered = true;
      clearTimeout(this.#startTimer);
      void cache.start(); // in the helper, while this thread scans for the first answer
      return undefined;
    }
    void cache.start();
    const helper = this.#helper;
    const files = helper &&
      ((dir: string, reach: readonly string[] | null) => helper.files(dir, reach));
    const catalog = new Catalog(this.#setup, cache, this.#onScan, files);
    await cache.settle(catalog.scanContext);
    // Nothing changed since the last call: the same catalog, its index already built.
    const version = cache.version;
    if (this.#current?.version === version) return this.#current.catalog;
    this.#current = { catalog, version };
    return catalog;
  }

  /**
   * Keeps the first call's scans (those `catalog` made, that noted their folders; `started`:
   * when they began) for the next calls, once the stamps of what they read show nothing
   * changed since they began ([PERF-6]: the second call does not scan the home again).
   */
  adopt(catalog: Catalog, started: number): void {
    const cache = this.#watched();
    for (const root of [...this.#setup.roots, ...this.#setup.plugins]) {
      const scanned = catalog.known(root);
      if (scanned?.dirs) cache.adopt(root, scanned, started);
    }
  }

  /** The watched cache (made on first use, its watchers not opened yet). */
  #watched(): WatchedCache {
    if (!this.#cache) {
      const roots = [...this.#setup.roots, ...this.#setup.plugins].map((r) => r.path);
      this.#cache = WatchedCache.create(
        roots,
        this.#options.sentinel,
        this.#opener(),
        undefined,
        this.#stampHelper(),
      );
      this.#cache.onChange(() => this.#listeners.forEach((listener) => listener()));
    }
    return this.#cache;
  }

  /** Opens watchers: the given opener, else in a helper Worker (in this thread when none can start). */
  #opener(): WatchOpener {
    if (this.#options.opener) return this.#options.opener;
    return (paths) => {
      const ask = this.#options.helper;
      this.#helper ??= ask ? new HelperWatches(ask()) : ownWatchHelper();
      if (this.#helper) return this.#helper.open(paths);
      // In this thread: after the answer being made (opening blocks the thread).
      return new Promise((resolve) => setTimeout(resolve, 0)).then(() => watchInThread(paths));
    };
  }

  /**
   * The helper that checks stamps ([PERF-6]): asked of the sandbox (`helper`), else this
   * process's own; none when watchers come from a given opener (the caller's threads).
   */
  #stampHelper(): HelperWatches | undefined {
    const ask = this.#options.helper;
    if (!ask && this.#options.opener) return undefined;
    return this.#checker ??= ask ? new HelperWatches(ask()) : ownWatchHelper();
  }

  /** How each root is kept fresh, once the watchers are open (this opens them). */
  async status(): Promise<WatchStatus[]> {
    const cache = this.#watched();
    await cache.start();
    return cache.status();
  }

  /** How each root is kept fresh now, without opening or awaiting the watchers. */
  statusNow(): WatchStatus[] {
    return this.#cache?.status() ?? [];
  }

  /**
   * Calls `listener` (debounced) whenever the skills change; returns the function that
   * stops it. Changes are seen once the watchers are open; they are opened now (in the
   * helper): a server that listens for changes opens them at start, so that they are up,
   * or nearly, when the first calls come ([PERF-6]: opening takes seconds at 10,000 skills).
   */
  onChange(listener: () => void): () => void {
    const cache = this.#watched();
    clearTimeout(this.#startTimer);
    this.#startTimer = setTimeout(() => void cache.start(), 0);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops the watchers and forgets everything (the next call answers from a fresh scan). */
  close(): void {
    clearTimeout(this.#startTimer);
    this.#cache?.close();
    this.#cache = undefined;
    this.#helper?.close();
    this.#helper = undefined;
    this.#checker?.close();
    this.#checker = undefined;
    this.#answered = false;
    this.#current = undefined;
    this.#listeners.clear();
  }
}
