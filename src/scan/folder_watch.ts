/**
 * A root watched folder by folder ([PERF-5], [PERF-6]): non-recursive watches on the
 * folders that can hold or change a skill — the root, its categories, every skill folder
 * and the folders inside it — never on an excluded folder (`node_modules`, `.venv`,
 * `.git`…, which a home can hold by the ten thousand: a recursive watcher set up a watch
 * on each, seconds of work) nor through a link (a link's events are not vouched for,
 * `watcher_sees.ts`). The root's `.hub` is watched for its lock.
 *
 * Deno keeps one file watcher per thread and hands each `Deno.watchFs` stream every event
 * below the paths it was given, so the one stream read here, opened with the root first,
 * reports the events of every watch this root adds later, in order, sentinel marks
 * included (the cache's proof of freshness, `watch_cache.ts`). A folder made (or made
 * again) later is noticed through its parent's watch and gets a recursive watch of its own
 * (a folder made again under a path Deno still counts as watched is watched only that way),
 * opened before the event that showed it is passed on, and followed by a second event for
 * it: what was made in it before its watch opened counts as a change.
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";
import { EXCLUDED_DIRS } from "./walk.ts";
import type { FsWatch } from "./watch_source.ts";

/** The most folders one root is watched in (beyond, its watcher cannot be opened). */
export const MAX_WATCHED_FOLDERS = 200_000;
/** The deepest folder level watched below a root. */
const MAX_WATCH_DEPTH = 24;

/** The folders of `root` a watch covers: all but excluded ones and links (its `.hub` too). */
export function watchedFolders(root: string): string[] {
  const found: string[] = [];
  const hub = joinPath(root, ".hub");
  const stack: [string, number][] = [[root, 0], [hub, 1]];
  while (stack.length) {
    const [at, depth] = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(at)];
    } catch {
      continue; // gone, unreadable or no folder: nothing to watch
    }
    found.push(at);
    if (found.length > MAX_WATCHED_FOLDERS) {
      throw new Error(`more than ${MAX_WATCHED_FOLDERS} folders to watch in ${root}`);
    }
    if (depth >= MAX_WATCH_DEPTH || at === hub) continue;
    for (const e of entries) {
      if (e.isDirectory && !EXCLUDED_DIRS.has(e.name)) {
        stack.push([joinPath(at, e.name), depth + 1]);
      }
    }
  }
  return found;
}

/** True when `path` is a folder, not a link (false when it is gone). */
function isFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** A root's watches, read as one stream of events. */
class FolderWatch implements FsWatch {
  #root: string;
  #stream: Deno.FsWatcher;
  /** Folders the first watch covers, until removed. */
  #folders: Set<string>;
  /** Folders noticed later, each with its recursive watch (never read: the stream has its events). */
  #added = new Map<string, Deno.FsWatcher>();
  #queue: Deno.FsEvent[] = [];
  #ended = false;
  #wake?: () => void;

  constructor(paths: string[]) {
    this.#root = paths[0];
    const folders = watchedFolders(this.#root);
    if (folders.length === 0) throw new Deno.errors.NotFound(`no folder ${this.#root}`);
    this.#folders = new Set(folders);
    // The root first, then the sentinel: each event matches one of the first two paths.
    this.#stream = Deno.watchFs([this.#root, ...paths.slice(1), ...folders.slice(1)], {
      recursive: false,
    });
    void this.#pump();
    // A folder made while the watches were set up: its parent's watch may have missed it.
    for (const folder of watchedFolders(this.#root)) this.#notice(folder);
  }

  async #pump(): Promise<void> {
    try {
      for await (const event of this.#stream) this.#take(event);
    } catch {
      // The stream failed: handled as its end.
    }
    this.close();
  }

  #take(event: Deno.FsEvent): void {
    if (event.kind === "access" || this.#ended) return;
    this.#push(event);
    for (const path of event.paths) {
      if (event.kind === "remove") this.#forget(path);
      else this.#notice(path);
    }
  }

  /** True when `path` is a folder a recursive watch added later covers. */
  #underAdded(path: string): boolean {
    for (let at = path; at.length > this.#root.length; at = at.slice(0, at.lastIndexOf("/"))) {
      if (this.#added.has(at)) return true;
    }
    return false;
  }

  /** A folder made (or moved in) under a watched one gets a watch, then a second event. */
  #notice(path: string): void {
    if (this.#folders.has(path) || !path.startsWith(this.#root + "/")) return;
    const rel = path.slice(this.#root.length + 1);
    if (rel !== ".hub" && rel.split("/").some((p) => EXCLUDED_DIRS.has(p))) return;
    if (this.#underAdded(path)) return;
    if (!isFolder(path)) return;
    try {
      this.#added.set(path, Deno.watchFs([path], { recursive: true }));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return; // gone again: its removal is reported
      return this.close(); // it cannot be watched (the watch limit, say): nor can the root
    }
    this.#push({ kind: "create", paths: [path] });
  }

  /** Forgets a removed folder (and those in it): made again, it is new. */
  #forget(path: string): void {
    for (const [at, watch] of this.#added) {
      if (at !== path && !at.startsWith(path + "/")) continue;
      watch.close();
      this.#added.delete(at);
    }
    if (!this.#folders.delete(path)) return;
    for (const f of this.#folders) if (f.startsWith(path + "/")) this.#folders.delete(f);
  }

  #push(event: Deno.FsEvent): void {
    this.#queue.push(event);
    this.#wake?.();
  }

  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const watch of [this.#stream, ...this.#added.values()]) {
      try {
        watch.close();
      } catch {
        // Already closed.
      }
    }
    this.#added.clear();
    this.#wake?.();
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
 * Watches `paths[0]`, a root, folder by folder, and the other paths (a sentinel folder)
 * as they are; throws when the root cannot be watched (the system's watch limit, say).
 */
export function watchFolders(paths: string[]): FsWatch {
  return new FolderWatch(paths);
}
