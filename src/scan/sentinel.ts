/**
 * The sentinel of a watched cache ([PERF-5]): a private folder (outside the home) that
 * every watcher also watches, holding one mark file. Before the cache is read, the mark
 * is moved to a new name; once each watcher has reported that name, it has reported every
 * change made before (a watcher's events arrive in order). See `watch_cache.ts`.
 *
 * @module
 */

/** The sentinel folder and its one mark file. */
export class Sentinel {
  /** The folder. */
  readonly dir: string;
  #own: boolean;
  /** The mark file as the last round left it. */
  #mark?: string;

  private constructor(dir: string, own: boolean) {
    this.dir = dir;
    this.#own = own;
  }

  /**
   * The sentinel in `dir` (a folder this process may write in), or in a temporary folder
   * made now; undefined when none can be made.
   */
  static in(dir?: string): Sentinel | undefined {
    if (dir) return new Sentinel(dir, false);
    try {
      return new Sentinel(Deno.makeTempDirSync({ prefix: "skillrt-sentinel-" }), true);
    } catch {
      return undefined; // No folder to prove freshness in.
    }
  }

  /**
   * Puts the mark at `dir/t<tick>`: the last one renamed (one operation, one event), or a
   * new one made. False when neither can be done.
   */
  place(tick: number): boolean {
    const mark = `${this.dir}/t${tick}`;
    const last = this.#mark;
    this.#mark = undefined;
    try {
      if (last) Deno.renameSync(last, mark);
      else Deno.writeTextFileSync(mark, "");
    } catch {
      if (!last) return false;
      try {
        Deno.writeTextFileSync(mark, ""); // the last mark is gone: a new one
      } catch {
        return false;
      }
    }
    this.#mark = mark;
    return true;
  }

  /** The tick of a path inside the folder (0 for a name that is no mark). */
  tickOf(path: string): number {
    return Number(path.slice(this.dir.length + 2)) || 0;
  }

  /** Removes the mark, and the folder when it was made here. */
  remove(): void {
    for (const path of this.#own ? [this.dir] : [this.#mark]) {
      try {
        if (path) Deno.removeSync(path, { recursive: true });
      } catch {
        // Already gone.
      }
    }
    this.#mark = undefined;
  }
}
