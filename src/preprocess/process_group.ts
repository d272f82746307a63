/**
 * Killing an inline-shell command with everything it started ([P-4]). Each command is
 * spawned with `detached: true`, which on Unix makes the child a session and process
 * group leader (setsid): whatever it starts stays in that group unless it leaves on
 * purpose. Killing the group (`kill(-pgid)`) needs Deno's unrestricted run permission,
 * which the sandbox Worker does not hold — it may only run the allow-listed programs —
 * so the Worker tells the warden of each group it starts and asks it to kill the group;
 * the warden kills only groups it was told of, and all of them when it is interrupted
 * (a group of its own no longer gets the terminal's Ctrl-C).
 *
 * @module
 */

/** Who kills inline-shell process groups. */
export interface ProcessGroups {
  /** A command started, leading group `pgid`. */
  started(pgid: number): void;
  /** Kill group `pgid`: at the timeout, at the output cap, and once the command is done. */
  kill(pgid: number): void;
}

/**
 * Whether `pgid` may be killed as an inline-shell group: a real group id other than
 * init's and this process's own.
 */
export function isKillableGroup(pgid: unknown): pgid is number {
  return typeof pgid === "number" && Number.isInteger(pgid) && pgid > 1 && pgid !== Deno.pid;
}

/**
 * Sends SIGKILL to every process of group `pgid`. True when the signal was sent (or the
 * group is already gone); false when it may not be sent here (not a killable group, or
 * no unrestricted run permission).
 */
export function killProcessGroup(pgid: number): boolean {
  if (Deno.build.os === "windows" || !isKillableGroup(pgid)) return false;
  try {
    Deno.kill(-pgid, "SIGKILL");
    return true;
  } catch (error) {
    // ESRCH (NotFound): every process of the group has ended already.
    return error instanceof Deno.errors.NotFound;
  }
}

/** Groups killed in this process (the library in-process; needs an unrestricted run grant). */
export const LOCAL_GROUPS: ProcessGroups = {
  started: () => {},
  kill: (pgid) => void killProcessGroup(pgid),
};

/** The signals that end the warden, with the exit code each stands for. */
const EXIT_SIGNALS: ReadonlyMap<Deno.Signal, number> = new Map<Deno.Signal, number>([
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]);

/**
 * The warden's record of the groups a Worker's commands lead: a group is killed when the
 * Worker asks and it was announced; every live one is killed by `killAll` (the Worker
 * ended) and when the warden is interrupted, which then exits as the signal would have.
 *
 * `armed`: listen for the signals from the start (a command that may start groups), not
 * only once a group is announced — the announcement can still be on its way when the
 * signal comes. An interrupted warden kills the groups it knows at once, waits a moment
 * for announcements already sent (killing each on arrival), then exits with the signal's
 * code; `interrupted()` tells the caller not to report the command's own end meanwhile.
 * With `onSignal`, the caller ends the command itself: the signal kills the groups and
 * calls it with the signal's exit code; `interrupt()` does the same for a Ctrl-C typed at
 * a question.
 */
export function wardenGroups(
  armed = false,
  onSignal?: (code: number) => void,
): ProcessGroups & { killAll(): void; interrupted(): boolean; interrupt(): void } {
  const live = new Set<number>();
  const handlers = new Map<Deno.Signal, () => void>();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    killAll(); // what is known now, at once; what is announced meanwhile, on arrival
  };
  const listen = (on: boolean) => {
    if (Deno.build.os === "windows" || on === (handlers.size > 0)) return;
    for (const [signal, code] of EXIT_SIGNALS) {
      if (on) {
        const handler = () => {
          if (interrupted) return;
          interrupt();
          if (onSignal) return onSignal(code);
          setTimeout(() => {
            killAll();
            Deno.exit(code);
          }, ANNOUNCED_WITHIN_MS);
        };
        handlers.set(signal, handler);
        Deno.addSignalListener(signal, handler);
      } else Deno.removeSignalListener(signal, handlers.get(signal)!);
    }
    if (!on) handlers.clear();
  };
  const kill = (pgid: number) => {
    if (!live.delete(pgid)) return;
    killProcessGroup(pgid);
    if (live.size === 0 && !armed) listen(false);
  };
  const killAll = () => [...live].forEach(kill);
  if (armed) listen(true);
  return {
    started: (pgid) => {
      if (!isKillableGroup(pgid)) return;
      live.add(pgid);
      listen(true);
      if (interrupted) kill(pgid);
    },
    kill,
    killAll: () => {
      killAll();
      if (armed && (!interrupted || onSignal)) listen(false);
    },
    interrupted: () => interrupted,
    interrupt,
  };
}

/** How long an interrupted warden waits for group announcements already sent. */
export const ANNOUNCED_WITHIN_MS = 50;
