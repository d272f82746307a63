/**
 * Where file watchers come from ([PERF-5]). A watched cache opens one recursive watcher
 * per root through a {@linkcode WatchOpener}; the opener may fail for a root (the
 * system's watch limit is exhausted, the folder cannot be watched), and that root then
 * falls back to validated re-scans. The default opens `Deno.watchFs` in this thread.
 *
 * @module
 */
import type { StampCheck, StampChecker, StampSet } from "./stamp_of.ts";

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

/**
 * Roots among `roots` that `opener` cannot watch, each with the reason (opened and closed
 * at once). Every open is asked for before the first answer, so that a helper thread
 * works through them while this one does something else.
 */
export async function probeWatch(
  roots: string[],
  opener: WatchOpener,
): Promise<{ root: string; reason: string }[]> {
  const outcomes = await Promise.all(roots.map(async (root) => {
    try {
      (await opener([root])).close();
      return undefined;
    } catch (error) {
      return { root, reason: watchFailure(error) };
    }
  }));
  return outcomes.filter((o) => o !== undefined);
}

/**
 * Messages to a watch helper: open a watcher over paths, or close one; read a skill
 * folder's files for a view (`reach` as in `src/scan/containment.ts`); check a root's
 * stamps (`set` sent when the helper does not hold that root's stamps yet), or take them
 * (which the helper then holds).
 */
export type ToWatchHelper =
  | { kind: "open"; id: number; paths: string[] }
  | { kind: "close"; id: number }
  | { kind: "files"; id: number; dir: string; reach: readonly string[] | null }
  | { kind: "stamps"; id: number; root: string; set?: StampSet }
  | { kind: "since"; id: number; root: string; dirs: string[]; files: string[]; started: number };

/** Messages from a watch helper about one watcher, or the answer to a read or a check. */
export type FromWatchHelper =
  | { kind: "ready"; id: number }
  | { kind: "failed"; id: number; reason: string }
  | { kind: "event"; id: number; event: Deno.FsEvent }
  | { kind: "end"; id: number }
  | { kind: "answer"; id: number; value?: unknown; error?: string };

/** How long a read may wait for the helper's answer before it is made here instead. */
export const HELPER_READ_MS = 2000;

/**
 * How long a check of stamps may wait for the helper's answer before it is made here
 * instead (a pass over 20,000 stamps takes a few hundred milliseconds under load).
 */
export const HELPER_CHECK_MS = 10_000;

/** The events of one watcher opened by a helper, queued until read. */
class PortWatch implements FsWatch {
  #queue: Deno.FsEvent[] = [];
  #ended = false;
  #wake?: () => void;
  constructor(readonly id: number, readonly onClose: () => void) {}

  push(event: Deno.FsEvent): void {
    this.#queue.push(event);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  close(): void {
    if (this.#ended) return;
    this.end();
    this.onClose();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Deno.FsEvent> {
    while (true) {
      const event = this.#queue.shift();
      if (event) yield event;
      else if (this.#ended) return;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/**
 * Watchers opened by a helper thread (`watch_helper.ts`) reached through `port`: setting
 * up thousands of watches then blocks that thread, not this one. `stop` ends the helper.
 */
export class HelperWatches implements StampChecker {
  #port: MessagePort;
  #stop?: () => void;
  #next = 0;
  #opening = new Map<number, { watch: PortWatch; settle: (error?: Error) => void }>();
  #open = new Map<number, PortWatch>();
  #reads = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** The stamps the helper holds, by root (what was sent last). */
  #sets = new Map<string, StampSet>();

  /** Talks to a helper through `port`; `stop` is called by {@linkcode close}. */
  constructor(port: MessagePort, stop?: () => void) {
    this.#port = port;
    this.#stop = stop;
    port.onmessage = (message: MessageEvent<FromWatchHelper>) => this.#receive(message.data);
  }

  #receive(data: FromWatchHelper): void {
    if (data.kind === "answer") {
      const read = this.#reads.get(data.id);
      this.#reads.delete(data.id);
      if (data.error === undefined) read?.resolve(data.value);
      else read?.reject(new Error(data.error));
      return;
    }
    const opening = this.#opening.get(data.id);
    if (opening) {
      this.#opening.delete(data.id);
      if (data.kind === "failed") return opening.settle(new Error(data.reason));
      this.#open.set(data.id, opening.watch);
      opening.settle();
    }
    const watch = this.#open.get(data.id);
    if (data.kind === "event") watch?.push(data.event);
    else if (data.kind === "end") {
      this.#open.delete(data.id);
      watch?.end();
    }
  }

  /** Opens a watcher in the helper. */
  open: WatchOpener = (paths) => {
    const id = ++this.#next;
    const watch = new PortWatch(id, () => {
      this.#open.delete(id);
      this.#port.postMessage({ kind: "close", id } satisfies ToWatchHelper);
    });
    return new Promise((resolve, reject) => {
      this.#opening.set(id, { watch, settle: (error) => error ? reject(error) : resolve(watch) });
      this.#port.postMessage({ kind: "open", id, paths } satisfies ToWatchHelper);
    });
  };

  /**
   * Reads a skill folder's files in the helper (what the view layer makes of `dir`);
   * rejects when the helper fails to, or does not answer within {@linkcode HELPER_READ_MS}
   * — and at once, without asking, while a watcher is being opened: setting up the
   * watches of a big root holds the helper's thread for seconds ([PERF-6]), and a read
   * queued behind them would hold the view that waits for it.
   */
  files(dir: string, reach: readonly string[] | null): Promise<unknown> {
    if (this.#opening.size > 0) return Promise.reject(new Error("the helper is opening watchers"));
    return this.#ask((id) => ({ kind: "files", id, dir, reach }), HELPER_READ_MS);
  }

  /**
   * Checks `set`'s stamps in the helper (`checkStamps`), sending the stamps only
   * when the helper does not hold them yet; rejects when the helper does not answer within
   * {@linkcode HELPER_CHECK_MS}. (A helper that opens watchers holds its thread for
   * seconds: stamps are checked by another, which opens none.)
   */
  check(set: StampSet): Promise<StampCheck> {
    const held = this.#sets.get(set.root);
    const send = !held || held.dirs !== set.dirs || held.stamps !== set.stamps;
    if (send) this.#sets.set(set.root, set);
    const root = set.root;
    return this.#ask(
      (id) => send ? { kind: "stamps", id, root, set } : { kind: "stamps", id, root },
      HELPER_CHECK_MS,
    ).then((value) => value as StampCheck, (error) => {
      this.#sets.delete(root); // unsure what it holds now: sent again next time
      throw error;
    });
  }

  /** Takes the stamps of what a scan begun at `started` saw in the helper (`stampsSince`), which then holds them. */
  since(root: string, dirs: string[], files: string[], started: number): Promise<StampSet> {
    this.#sets.delete(root);
    return this.#ask((id) => ({ kind: "since", id, root, dirs, files, started }), HELPER_CHECK_MS)
      .then((value) => {
        const set = value as StampSet;
        this.#sets.set(root, set);
        return set;
      });
  }

  /** Posts the message `make` builds with a new id; settles with its answer, or rejects after `limit` ms. */
  #ask(make: (id: number) => ToWatchHelper, limit: number): Promise<unknown> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#reads.delete(id);
        reject(new Error("the helper did not answer"));
      }, limit);
      const settle = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      this.#reads.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.#port.postMessage(make(id));
    });
  }

  /** Ends every watcher and the helper; watchers still opening, and reads, fail. */
  close(): void {
    for (const { settle } of this.#opening.values()) settle(new Error("closed"));
    for (const { reject } of this.#reads.values()) reject(new Error("closed"));
    this.#reads.clear();
    this.#sets.clear();
    for (const watch of this.#open.values()) watch.end();
    this.#opening.clear();
    this.#open.clear();
    this.#port.close();
    this.#stop?.();
  }
}

/**
 * Watchers in a helper Worker this process starts itself (the library's default); undefined
 * when no Worker can be started here (then watchers open in this thread).
 */
export function ownWatchHelper(): HelperWatches | undefined {
  try {
    const worker = new Worker(new URL("./watch_helper.ts", import.meta.url), { type: "module" });
    const channel = new MessageChannel();
    worker.postMessage({ port: channel.port2 }, [channel.port2]);
    return new HelperWatches(channel.port1, () => worker.terminate());
  } catch {
    return undefined;
  }
}

/**
 * The roots (that exist) a file watcher cannot cover, with the reason, found by opening
 * one on each and closing it at once: with the given opener, else in a watch helper
 * Worker when one can be had (this thread is free meanwhile), else in this thread.
 */
export async function probeRoots(
  roots: string[],
  how: { watchOpener?: WatchOpener; watchHelper?: () => MessagePort },
): Promise<{ root: string; reason: string }[]> {
  const ask = how.watchHelper;
  const helper = how.watchOpener ? undefined : ask ? new HelperWatches(ask()) : undefined;
  try {
    return await probeWatch(roots, how.watchOpener ?? helper?.open ?? watchInThread);
  } finally {
    helper?.close();
  }
}
