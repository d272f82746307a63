/**
 * Group commit of usage counts ([U-1]): views that arrive while the counter file is being
 * written join the next write, so a long-lived server under many concurrent clients
 * writes `.usage.json` once per batch instead of once per view. Every caller still waits
 * until its own count is on disk, under the inter-process lock ([M-4]); nothing is lost
 * and nothing is deferred past the caller's answer.
 *
 * @module
 */
import { tryUpdateUsage, type UpdateResult, type UsageMap } from "./usage.ts";

interface Waiting {
  change: (map: UsageMap) => void;
  done: (result: UpdateResult) => void;
}

interface Queue {
  waiting: Waiting[];
  running: boolean;
}

const queues = new Map<string, Queue>();

async function drain(root: string, queue: Queue): Promise<void> {
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0);
      const result = await tryUpdateUsage(root, (map) => {
        for (const w of batch) w.change(map);
      }).catch((error: unknown) => ({ problem: (error as Error).message }));
      for (const w of batch) w.done(result);
    }
  } finally {
    queue.running = false;
  }
}

/** Applies `change` to the counters of `root` in the next batch write; resolves once it is written. */
export function groupUpdateUsage(
  root: string,
  change: (map: UsageMap) => void,
): Promise<UpdateResult> {
  let queue = queues.get(root);
  if (!queue) queues.set(root, queue = { waiting: [], running: false });
  const q = queue;
  return new Promise((done) => {
    q.waiting.push({ change, done });
    if (!q.running) {
      // Let requests already waiting on the event loop join this write.
      q.running = true;
      setTimeout(() => void drain(root, q), 0);
    }
  });
}
