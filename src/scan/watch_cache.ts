/**
 * A cache of scanned roots for long-lived processes (library, MCP server), invalidated
 * by one file watcher over all roots ([S-4], [PERF-3]).
 *
 * Freshness is proven, not hoped for: the watcher also watches a private sentinel folder
 * (outside the home). Before the cache is read, a new file with a unique name is made
 * there and its event awaited; file-system events arrive in order, so every change made
 * before the read has been seen by then. A root's scan is kept only if nothing changed while it ran. Changes
 * the walk ignores (reads, usage counters, excluded folders) do not invalidate.
 *
 * @module
 */
import type { ScannedRoot } from "./scanned.ts";
import { EXCLUDED_DIRS } from "./walk.ts";

interface Entry {
  generation: number;
  scanned?: ScannedRoot;
}

/** True when a change at `path` cannot change what the walk finds. */
export function irrelevant(path: string): boolean {
  const parts = path.split("/");
  if (parts.some((p) => EXCLUDED_DIRS.has(p))) return true;
  return /^\.usage\.json(\.tmp|\.lock|\.lock\.break)?$/.test(parts.at(-1) ?? "");
}

/** Scanned roots kept while nothing below them changes. */
export class WatchedCache {
  #entries = new Map<string, Entry>();
  #watcher: Deno.FsWatcher;
  #roots: string[];
  #rebuild = false;
  #sentinel: string;
  #ownSentinel: boolean;
  #tick = 0;
  #waiting = new Map<string, () => void>();
  #version = 0;
  #listeners = new Set<() => void>();
  #notify?: ReturnType<typeof setTimeout>;

  private constructor(roots: string[], watcher: Deno.FsWatcher, sentinel: string, own: boolean) {
    this.#watcher = watcher;
    this.#roots = roots;
    this.#sentinel = sentinel;
    this.#ownSentinel = own;
    for (const root of roots) this.#entries.set(root, { generation: 0 });
    this.#listen(watcher, roots);
  }

  /**
   * Starts watching `roots`. `sentinel` is a folder this process may write in (a temp
   * folder is made when absent). Returns undefined when no watcher can be had: then
   * nothing is cached.
   */
  static open(roots: string[], sentinel?: string): WatchedCache | undefined {
    let file = sentinel;
    let own = false;
    try {
      if (!file) {
        file = Deno.makeTempDirSync({ prefix: "skillrt-sentinel-" });
        own = true;
      }
      return new WatchedCache(
        roots,
        Deno.watchFs([...roots, file], { recursive: true }),
        file,
        own,
      );
    } catch {
      if (own && file) Deno.removeSync(file, { recursive: true });
      return undefined;
    }
  }

  #listen(watcher: Deno.FsWatcher, roots: string[]): void {
    (async () => {
      try {
        for await (const event of watcher) {
          if (watcher !== this.#watcher) break;
          if (event.kind === "access") continue; // reading, our own scans included, changes nothing
          if (event.paths.length === 0 || event.flag === "rescan") {
            // The watcher lost track (queue overflow): trust nothing kept so far.
            this.#invalidate();
            continue;
          }
          for (const path of event.paths) {
            if (path.startsWith(this.#sentinel + "/")) {
              this.#waiting.get(path)?.();
              this.#waiting.delete(path);
              continue;
            }
            if (irrelevant(path)) continue;
            // A renamed folder keeps its watch descriptor, which a later move-self event
            // can drop: rebuild the watcher before the cache is read again.
            if (event.kind === "rename") this.#rebuild = true;
            for (const root of roots) {
              if (path === root || path.startsWith(root + "/")) this.#invalidate(root);
            }
          }
        }
      } finally {
        // This watcher ended on its own (not replaced by a rebuild): keep nothing, wake waiters.
        if (watcher === this.#watcher) {
          this.#invalidate();
          for (const wake of this.#waiting.values()) wake();
          this.#waiting.clear();
        }
      }
    })();
  }

  /** Grows whenever anything kept is dropped: an unchanged version means nothing changed. */
  get version(): number {
    return this.#version;
  }

  /** Calls `listener` (at most every 100 ms) after a change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Drops what a root kept (every root when `root` is absent) and tells the listeners. */
  #invalidate(root?: string): void {
    for (const [path, entry] of this.#entries) {
      if (root !== undefined && path !== root) continue;
      entry.generation++;
      entry.scanned = undefined;
    }
    this.#version++;
    if (this.#listeners.size && this.#notify === undefined) {
      this.#notify = setTimeout(() => {
        this.#notify = undefined;
        for (const listener of this.#listeners) listener();
      }, 100);
    }
  }

  /** The cached scan of a root, if it is still valid. */
  get(root: string): ScannedRoot | undefined {
    return this.#entries.get(root)?.scanned;
  }

  /** The generation of a root before it is scanned (undefined: not cached). */
  begin(root: string): number | undefined {
    return this.#entries.get(root)?.generation;
  }

  /** Keeps a scan, unless something changed since {@linkcode begin}. */
  commit(root: string, generation: number | undefined, scanned: ScannedRoot): void {
    const entry = this.#entries.get(root);
    if (entry && generation !== undefined && entry.generation === generation) {
      entry.scanned = scanned;
    }
  }

  /** Waits until every change made so far has been seen (the sentinel's event has come back). */
  async settle(): Promise<void> {
    if (this.#rebuild) {
      this.#rebuild = false;
      try {
        this.#watcher.close();
      } catch {
        // Already closed.
      }
      this.#invalidate();
      this.#watcher = Deno.watchFs([...this.#roots, this.#sentinel], { recursive: true });
      this.#listen(this.#watcher, this.#roots);
    }
    const mark = `${this.#sentinel}/t${++this.#tick}`;
    const seen = new Promise<void>((resolve) => this.#waiting.set(mark, resolve));
    Deno.writeTextFileSync(mark, "");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((
      resolve,
    ) => (timer = setTimeout(() => resolve("late"), 1000)));
    if (await Promise.race([seen, late]) === "late") {
      this.#waiting.delete(mark);
      this.#invalidate(); // Unsure: forget everything.
    }
    try {
      Deno.removeSync(mark);
    } catch {
      // Already gone.
    }
    clearTimeout(timer);
  }

  /** Stops watching and forgets everything. */
  close(): void {
    try {
      this.#watcher.close();
    } catch {
      // Already closed.
    }
    if (this.#ownSentinel) {
      try {
        Deno.removeSync(this.#sentinel, { recursive: true });
      } catch {
        // Already gone.
      }
    }
    this.#entries.clear();
    clearTimeout(this.#notify);
    this.#listeners.clear();
  }
}
