/**
 * Group commit of usage counts ([U-1]): views that arrive while the counter file is being
 * written join the next write, so a long-lived server under many concurrent clients
 * writes `.usage.json` once per batch instead of once per view. A short-lived command
 * waits until its own count is on disk ({@linkcode groupUpdateUsage}); a long-lived
 * runtime does not wait at all ({@linkcode deferUsageUpdate}): its counts are written
 * within a short delay, and {@linkcode flushUsage} writes what is left before it closes.
 * Every write is made under the inter-process lock ([M-4]); nothing is lost.
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
  /** The drain running now, if any. */
  running?: Promise<void>;
  /** A deferred write is due. */
  timer?: ReturnType<typeof setTimeout>;
  /** Why the last deferred write failed, if it did. */
  problem?: string;
}

/** How long a long-lived runtime's counts may wait before they are written. */
export const USAGE_DELAY_MS = 200;

const queues = new Map<string, Queue>();

function queueOf(root: string): Queue {
  let queue = queues.get(root);
  if (!queue) queues.set(root, queue = { waiting: [] });
  return queue;
}

async function drain(root: string, queue: Queue): Promise<void> {
  while (queue.waiting.length > 0) {
    const batch = queue.waiting.splice(0);
    const result = await tryUpdateUsage(root, (map) => {
      for (const w of batch) w.change(map);
    }).catch((error: unknown) => ({ problem: (error as Error).message }));
    for (const w of batch) w.done(result);
  }
}

/** Starts writing what waits (once; a drain picks up what arrives while it writes). */
function start(root: string, queue: Queue): Promise<void> {
  clearTimeout(queue.timer);
  queue.timer = undefined;
  return queue.running ??= drain(root, queue).finally(() => (queue.running = undefined));
}

/** Applies `change` to the counters of `root` in the next batch write; resolves once it is written. */
export function groupUpdateUsage(
  root: string,
  change: (map: UsageMap) => void,
): Promise<UpdateResult> {
  const q = queueOf(root);
  return new Promise((done) => {
    q.waiting.push({ change, done });
    // Let requests already waiting on the event loop join this write.
    if (!q.running && q.timer === undefined) q.timer = setTimeout(() => void start(root, q), 0);
  });
}

/**
 * Queues `change` for a write within {@linkcode USAGE_DELAY_MS} (the caller does not wait)
 * and returns why the last such write failed, if it did (a counter file that does not parse).
 */
export function deferUsageUpdate(
  root: string,
  change: (map: UsageMap) => void,
): string | undefined {
  const q = queueOf(root);
  q.waiting.push({
    change,
    done: (result) => (q.problem = typeof result === "string" ? undefined : result.problem),
  });
  if (!q.running && q.timer === undefined) {
    q.timer = setTimeout(() => void start(root, q), USAGE_DELAY_MS);
  }
  return q.problem;
}

/** Writes every count still waiting for `root` now; resolves when they are on disk. */
export async function flushUsage(root: string): Promise<void> {
  const q = queues.get(root);
  if (!q) return;
  while (q.running || q.waiting.length > 0) await start(root, q);
}
