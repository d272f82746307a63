/**
 * The catalog: what one call (or one command) reads. It scans each root at most once, and
 * only the roots the call needs (a bare-name `view` stops at the first root with a
 * candidate; a `view category/name` scans none), and builds the index once. It lives as
 * long as its call, so it is never stale; backed by the watched cache, it reuses scans of
 * roots unchanged since an earlier call. (The nouns: `skill_index.ts`.)
 *
 * @module
 */
import type { Diagnostic } from "../diagnostics.ts";
import type { HomeLayout, PluginRoot, Root } from "../home/layout.ts";
import { realRootsOf } from "./containment.ts";
import { scanRoot } from "./scan_root.ts";
import { indexRecords, type SkillIndex } from "./skill_index.ts";
import { hubInstalledIn, type PlacedSkill } from "./hub_installed.ts";
import type { SkillRecord } from "./record.ts";
import type { ScannedRoot } from "./scanned.ts";
import type { FoundFlat, WalkLimits } from "./walk.ts";
import { type HelperSource, scanWithHelper } from "./parallel.ts";
import type { ScanContext, WatchedCache } from "./watch_cache.ts";

/**
 * The catalog of the skills under a setup's roots: got from `SkillRuntime.currentCatalog()`
 * and passed to operations as their `catalog` option, so several calls read one scan.
 * Roots are scanned on demand and remembered for the catalog's life.
 */
export class Catalog {
  /** The setup the catalog reads. */
  readonly setup: HomeLayout;
  #roots = new Map<string, ScannedRoot>();
  #index?: SkillIndex;

  #cache?: WatchedCache;
  #realRoots?: string[];

  #onScan?: (root: string) => void;
  #hubInstalled?: (skill: PlacedSkill) => boolean;
  #memos = new Map<string, unknown>();

  /**
   * Creates a catalog over a setup's roots and plugins, optionally backed by a watched
   * cache; `onScan` hears of every root actually walked (for counts of work done).
   *
   * @ignore Internal to the runtime.
   */
  constructor(
    setup: HomeLayout,
    cache?: WatchedCache,
    onScan?: (root: string) => void,
    helperFiles?: (dir: string, reach: readonly string[] | null) => Promise<unknown>,
  ) {
    this.setup = setup;
    this.#cache = cache;
    this.#onScan = onScan;
    this.helperFiles = helperFiles;
  }

  /**
   * Reads a skill folder's files on the watch helper's thread (a long-lived runtime's);
   * undefined when there is none. The view layer knows what the answer holds.
   *
   * @ignore Internal to the runtime.
   */
  readonly helperFiles?: (dir: string, reach: readonly string[] | null) => Promise<unknown>;

  /**
   * The walk bounds the config asks for.
   *
   * @ignore Internal to the runtime.
   */
  get limits(): WalkLimits {
    return { maxDepth: this.setup.config.max_depth, maxDirs: this.setup.config.max_dirs };
  }

  /**
   * The real paths of every root of the setup: links leaving them are not followed ([S-9]).
   *
   * @ignore Internal to the runtime.
   */
  get realRoots(): string[] {
    return this.#realRoots ??= realRootsOf(this.setup);
  }

  /**
   * What a scan of one of its roots needs: bounds, real roots, the walk counter.
   *
   * @ignore Internal to the runtime.
   */
  get scanContext(): ScanContext {
    // The real roots are looked up only when a scan needs them (most calls need none).
    const realRoots = () => this.realRoots;
    return {
      limits: this.limits,
      get realRoots() {
        return realRoots();
      },
      onWalk: this.#onScan,
    };
  }

  /**
   * The scan of one root (walked on first use; from the watched cache when backed by one).
   *
   * @ignore Internal to the runtime.
   */
  root(root: Root | PluginRoot): ScannedRoot {
    let scanned = this.#roots.get(root.path);
    if (!scanned && this.#cache) scanned = this.#cache.scan(root, this.scanContext);
    if (!scanned) {
      scanned = scanRoot(root, this.limits, this.realRoots);
      this.#onScan?.(root.path);
    }
    this.#roots.set(root.path, scanned);
    return scanned;
  }

  /**
   * The scan of `root` when this catalog already holds one (or its watched cache keeps
   * one), without walking: undefined otherwise.
   *
   * @ignore Internal to the runtime.
   */
  known(root: Root | PluginRoot): ScannedRoot | undefined {
    return this.#roots.get(root.path) ?? this.#cache?.kept(root.path);
  }

  /**
   * Scans the given roots (by default every root and plugin) not scanned yet, with a
   * helper thread reading skill heads while this one walks (a catalog backed by a watched
   * cache keeps its own path). `keepDirs`: each scan notes the folders its walk read.
   *
   * @ignore Internal to the runtime.
   */
  async prefetch(
    helper: HelperSource,
    among: (Root | PluginRoot)[] = [...this.setup.roots, ...this.setup.plugins],
    keepDirs = false,
  ): Promise<void> {
    if (this.#cache) return;
    const roots = among.filter((r) => !this.#roots.has(r.path));
    if (roots.length === 0) return;
    const scanned = await scanWithHelper(
      roots,
      this.limits,
      helper,
      undefined,
      this.realRoots,
      keepDirs,
    );
    for (const root of roots) this.#onScan?.(root.path);
    roots.forEach((root, i) => this.#roots.set(root.path, scanned.roots[i]));
  }

  /**
   * Every root and plugin scanned and indexed with the precedence rule of [S-7].
   *
   * @ignore Internal to the runtime.
   */
  index(): SkillIndex {
    if (this.#index) return this.#index;
    const records: SkillRecord[] = [];
    const flat = new Map<string, FoundFlat[]>();
    const diagnostics: Diagnostic[] = [];
    for (const root of [...this.setup.roots, ...this.setup.plugins]) {
      const scanned = this.root(root);
      records.push(...scanned.records);
      flat.set(root.path, scanned.flat);
      diagnostics.push(...scanned.diagnostics);
    }
    this.#index = indexRecords(records, flat, diagnostics, (r) => this.hubInstalled(r));
    return this.#index;
  }

  /**
   * True for a skill the hub installed in the local root: the user's own skills of that
   * root win over it ([S-1]). The lock is read once per catalog, like the index it orders
   * (an install or uninstall also changes the folders the catalog's freshness looks at).
   *
   * @ignore Internal to the runtime.
   */
  hubInstalled(skill: PlacedSkill): boolean {
    this.#hubInstalled ??= hubInstalledIn(this.setup.localRoot);
    return this.#hubInstalled(skill);
  }

  /**
   * `compute()`, remembered under `key` for this catalog's life while every root is
   * watched: a live catalog is replaced at the first change seen anywhere below a root
   * ({@linkcode WatchedCache.version}), so what is remembered is never older than the
   * skills. Without a watcher on every root (a command's catalog, a root validated by
   * modification times, watchers not open yet) it is computed on every call. With `keep`,
   * only a value it holds true of is remembered or reused (asked on every call).
   *
   * @ignore Internal to the runtime.
   */
  memo<T>(key: string, compute: () => T, keep?: (value: T) => boolean): T {
    if (this.#memos.has(key)) {
      const kept = this.#memos.get(key) as T;
      if (!keep || keep(kept)) return kept;
      this.#memos.delete(key);
    }
    const watched = this.#cache?.everyRootWatched() === true;
    const value = compute();
    if (watched && this.#cache?.everyRootWatched() && (!keep || keep(value))) {
      this.#memos.set(key, value);
    }
    return value;
  }

  /**
   * {@linkcode memo} for a value computed elsewhere: concurrent callers share the one
   * promise while it runs; it is forgotten when it fails, or when a root is no longer
   * watched by the time it is done.
   *
   * @ignore Internal to the runtime.
   */
  memoAsync<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const held = this.#memos.get(key) as Promise<T> | undefined;
    if (held) return held;
    if (this.#cache?.everyRootWatched() !== true) return compute();
    const value = compute();
    this.#memos.set(key, value);
    const forget = () => void (this.#memos.get(key) === value && this.#memos.delete(key));
    value.then(() => this.#cache?.everyRootWatched() || forget(), forget);
    return value;
  }
}
