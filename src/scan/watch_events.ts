/**
 * Which file events matter to a watched root ([PERF-5]): a change the walk and the views
 * cannot see is no reason to drop what a root's scan found.
 *
 * @module
 */
import { EXCLUDED_DIRS } from "./walk.ts";

/**
 * True when a change at `path` cannot change what the walk or a view finds: inside an
 * excluded folder, or the usage counters (with `root`: only those directly in it — a
 * skill's own `assets/.usage.json` is one of its files). With `root`, the root's hub lock
 * (`.hub/lock.json`, and `.hub` itself) counts: a view reads the skill's hub trust there.
 */
export function irrelevant(path: string, root?: string): boolean {
  if (root !== undefined && (path === `${root}/.hub` || path === `${root}/.hub/lock.json`)) {
    return false;
  }
  const parts = path.split("/");
  if (parts.some((p) => EXCLUDED_DIRS.has(p))) return true;
  if (root !== undefined && path.slice(0, path.lastIndexOf("/")) !== root) return false;
  return /^\.usage\.json(\.tmp|\.lock|\.lock\.break)?$/.test(parts.at(-1) ?? "");
}
