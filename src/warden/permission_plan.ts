/**
 * The shape of a permission plan ([X-1]): what one command's Worker may read, write, run,
 * reach and see. Types only, below `plan.ts` (which computes plans) and everything that
 * hands a plan around.
 *
 * @module
 */

/** What one command's Worker is granted. */
export interface PermissionPlan {
  /** The command the plan is for. */
  command: string;
  /** Paths it may read (folders include everything below them). */
  read: string[];
  /** Paths it may write. */
  write: string[];
  /** Programs it may run. */
  run: string[];
  /** Hosts it may reach. */
  net: string[];
  /** Environment variables it may read. */
  env: string[];
}
