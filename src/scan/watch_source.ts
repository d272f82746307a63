/**
 * Where file watchers come from ([PERF-5]). A watched cache opens one recursive watcher
 * per root through a {@linkcode WatchOpener}; the opener may fail for a root (the
 * system's watch limit is exhausted, the folder cannot be watched), and that root then
 * falls back to validated re-scans. The default opens `Deno.watchFs` in this thread.
 *
 * @module
 */

/** A running file watcher: its events, in the order they happened, until closed. */
export interface FsWatch extends AsyncIterable<Deno.FsEvent> {
  /** Stops watching; the event stream ends. */
  close(): void;
}

/** Opens a recursive watcher over `paths`; rejects (with the reason) when it cannot. */
export type WatchOpener = (paths: string[]) => Promise<FsWatch>;

/** Opens `Deno.watchFs` in this thread (which it blocks while it sets up its watches). */
export const watchInThread: WatchOpener = (paths) => {
  try {
    return Promise.resolve(Deno.watchFs(paths, { recursive: true }));
  } catch (error) {
    return Promise.reject(error);
  }
};

/** One line saying why a watcher could not be opened. */
export function watchFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] || "unknown error").trim();
}

/** Roots among `roots` that `opener` cannot watch, each with the reason (opened and closed at once). */
export async function probeWatch(
  roots: string[],
  opener: WatchOpener,
): Promise<{ root: string; reason: string }[]> {
  const failures: { root: string; reason: string }[] = [];
  for (const root of roots) {
    try {
      (await opener([root])).close();
    } catch (error) {
      failures.push({ root, reason: watchFailure(error) });
    }
  }
  return failures;
}
