/**
 * Killing an inline-shell command with everything it started ([P-4]). Each command is
 * spawned with `detached: true`, which on Unix makes the child a session and process
 * group leader (setsid): whatever it starts stays in that group unless it leaves on
 * purpose. Killing the group (`kill(-pgid)`) needs Deno's unrestricted run permission,
 * which the sandbox Worker does not hold — it may only run the allow-listed programs —
 * so the Worker asks the warden, which kills the group with this same function.
 *
 * @module
 */

/**
 * Whether `pgid` may be killed as an inline-shell group: a real group id other than
 * init's and this process's own. (The id comes from the Worker, which only ever names a
 * child it spawned; a child's id can never be the id of an existing group, such as the
 * warden's own.)
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
