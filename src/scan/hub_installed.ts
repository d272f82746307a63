/**
 * Which skills of the local root the hub put there ([S-1], [HUB-3]): those inside a folder
 * the root's `.hub/lock.json` records. The user's own skills of that root win over them,
 * whatever the depth of either folder: the index shadows a hub skill that shares a name
 * with one of the user's (`skill_index.ts`), and resolving a bare name prefers the user's
 * (`resolve.ts`). An install never makes such a pair (`src/hub/name_collision.ts`); this
 * holds for a home where one was made before.
 *
 * @module
 */
import { dirname } from "../home/paths.ts";
import { readLock } from "../hub/lockfile.ts";

/** What tells a hub-installed skill: its root and its folder, absolute. */
export interface PlacedSkill {
  /** The root it was found in. */
  root: string;
  /** Its folder. */
  skillDir: string;
}

/**
 * Tells the hub-installed skills of `localRoot` by its lock, read once now: a skill in a
 * recorded folder or below one. A lock that is absent or does not parse tells none (the
 * skills then keep the plain rule of [S-7]: two of one name in a root are ambiguous).
 */
export function hubInstalledIn(localRoot: string): (skill: PlacedSkill) => boolean {
  const lock = readLock(localRoot);
  if (lock.state !== "ok") return () => false;
  const dirs = new Set(
    lock.entries.map((e) => e.dir).filter((d) => d.startsWith(`${localRoot}/`)),
  );
  if (dirs.size === 0) return () => false;
  return ({ root, skillDir }) => {
    if (root !== localRoot) return false;
    for (let dir = skillDir; dir.startsWith(`${localRoot}/`); dir = dirname(dir)) {
      if (dirs.has(dir)) return true;
    }
    return false;
  };
}
