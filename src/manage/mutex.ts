/**
 * The file mutex: an inter-process lock for shared state files ([M-4]) — `.usage.json`,
 * `.hub/lock.json` and the pending queue. A lock is a file created exclusively beside the
 * target; a lock left by a killed process is taken over once it is older than the stale
 * timeout, with a second exclusive file so that two waiters never break the same lock twice.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";

/** How long to wait for a lock, and when a lock counts as abandoned. */
export interface LockOptions {
  /** Give up after this many milliseconds (default 10,000). */
  timeoutMs?: number;
  /** A lock older than this many milliseconds is abandoned (default 5,000). */
  staleMs?: number;
}

/** The default lock timings. */
export const DEFAULT_LOCK: Required<LockOptions> = { timeoutMs: 10_000, staleMs: 5_000 };

/** The lock file of a target. */
export function lockPathFor(target: string): string {
  return `${target}.lock`;
}

/** Every path a locked write of `target` touches (for sandbox plans). */
export function lockedWritePaths(target: string): string[] {
  const lock = lockPathFor(target);
  return [target, `${target}.tmp`, lock, `${lock}.break`];
}

function tryCreate(path: string, token: string): boolean {
  try {
    const file = Deno.openSync(path, { write: true, createNew: true });
    try {
      file.writeSync(
        new TextEncoder().encode(
          JSON.stringify({ pid: Deno.pid, token, at: new Date().toISOString() }),
        ),
      );
    } finally {
      file.close();
    }
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

function ageMs(path: string): number | undefined {
  try {
    const mtime = Deno.statSync(path).mtime;
    return mtime ? Date.now() - mtime.getTime() : undefined;
  } catch {
    return undefined;
  }
}

function readToken(path: string): string | undefined {
  try {
    return JSON.parse(Deno.readTextFileSync(path)).token;
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Already gone.
  }
}

/** Takes over an abandoned lock: only the waiter that wins the break file removes it. */
function breakStale(lock: string, staleMs: number): void {
  const breaker = `${lock}.break`;
  const breakAge = ageMs(breaker);
  if (breakAge !== undefined && breakAge > staleMs) removeQuietly(breaker);
  const token = crypto.randomUUID();
  if (!tryCreate(breaker, token)) return;
  try {
    const age = ageMs(lock);
    if (age !== undefined && age > staleMs) removeQuietly(lock);
  } finally {
    removeQuietly(breaker);
  }
}

/**
 * Runs `fn` holding the lock of `target`. Waits (polling) while another process holds
 * it; throws a clear error after the timeout, never waits forever.
 */
export async function withLock<T>(
  target: string,
  fn: () => T | Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const { timeoutMs, staleMs } = { ...DEFAULT_LOCK, ...options };
  const lock = lockPathFor(target);
  const token = crypto.randomUUID();
  const deadline = Date.now() + timeoutMs;
  let pause = 2;
  while (!tryCreate(lock, token)) {
    const age = ageMs(lock);
    if (age !== undefined && age > staleMs) {
      breakStale(lock, staleMs);
      continue;
    }
    if (Date.now() > deadline) {
      throw new SkillrtError(
        `Timed out after ${Math.round(timeoutMs / 1000)}s waiting for the lock '${lock}'.`,
      );
    }
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 50);
  }
  try {
    return await fn();
  } finally {
    if (readToken(lock) === token) removeQuietly(lock);
  }
}
