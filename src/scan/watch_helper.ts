/**
 * The watch helper Worker's entry ([PERF-5]): opens recursive file watchers when asked
 * through the message port it is handed, and posts each watcher's events back in order.
 * Setting up a watch on every folder of a big home takes seconds of this thread, never
 * the one answering requests. It also reads, when asked, what a skill's first view shows
 * of its folder ([V-2]: the file listing and the linked files' summaries, every file
 * opened as `openInside` proves it), so that such a view does not hold up other calls;
 * and it checks a root's stamps ([PERF-6]: while the watchers open, a call's proof of
 * freshness is a pass over the stamps of what the first scan saw, made here, on a helper
 * that opens no watchers, so that the thread answering calls never makes it).
 * The warden starts it with the command's permissions (the library starts it with the
 * process's).
 *
 * @module
 */
import type { FromWatchHelper, ToWatchHelper } from "./watch_source.ts";
import { skillFilesFacts } from "../view/skill_files.ts";
import { checkStamps, type StampSet, stampsSince } from "./stamp_of.ts";

interface HelperScope {
  onmessage: ((event: MessageEvent<{ port: MessagePort }>) => void) | null;
}

const scope = globalThis as unknown as HelperScope;
const watchers = new Map<number, Deno.FsWatcher>();
/** The stamps of each root, as last sent. */
const stampSets = new Map<string, StampSet>();

async function forward(port: MessagePort, id: number, watcher: Deno.FsWatcher): Promise<void> {
  const post = (message: FromWatchHelper) => port.postMessage(message);
  try {
    for await (const event of watcher) {
      if (event.kind === "access") continue;
      post({
        kind: "event",
        id,
        event: { kind: event.kind, paths: event.paths, flag: event.flag },
      });
    }
  } catch {
    // The stream failed: told as its end.
  } finally {
    watchers.delete(id);
    post({ kind: "end", id });
  }
}

/** Answers request `id` with what `work` returns (or why it could not). */
function answer(port: MessagePort, id: number, work: () => unknown): void {
  let message: FromWatchHelper;
  try {
    message = { kind: "answer", id, value: work() };
  } catch (error) {
    message = { kind: "answer", id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(message);
}

/** Checks the stamps of `root` (as sent now or last). */
function checkRoot(root: string, set: StampSet | undefined) {
  if (set) stampSets.set(root, set);
  const held = stampSets.get(root);
  if (!held) throw new Error(`no stamps held for ${root}`);
  return checkStamps(held);
}

scope.onmessage = (event) => {
  const port = event.data.port;
  port.onmessage = (message: MessageEvent<ToWatchHelper>) => {
    const data = message.data;
    if (data.kind === "files") {
      return answer(port, data.id, () => skillFilesFacts(data.dir, data.reach));
    }
    if (data.kind === "stamps") return answer(port, data.id, () => checkRoot(data.root, data.set));
    if (data.kind === "since") {
      return answer(port, data.id, () => {
        const set = stampsSince(data.root, data.dirs, data.files, data.started);
        stampSets.set(data.root, set);
        return set;
      });
    }
    if (data.kind === "close") {
      try {
        watchers.get(data.id)?.close();
      } catch {
        // Already closed.
      }
      return;
    }
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(data.paths, { recursive: true });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      port.postMessage({ kind: "failed", id: data.id, reason } satisfies FromWatchHelper);
      return;
    }
    watchers.set(data.id, watcher);
    port.postMessage({ kind: "ready", id: data.id } satisfies FromWatchHelper);
    void forward(port, data.id, watcher);
  };
};
