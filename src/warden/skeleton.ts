/**
 * The home's skeleton ([H-1], [X-6]): the empty folders a writing command needs as the
 * base of its grant (`skills/`, and `pending/skills/` for the approval queue: its row's
 * `skeleton` says which), made by the warden
 * before the command is planned — making an empty folder reads no skill content — so
 * that no plan ever needs write access to the home or above it. The default home
 * (`$HERMES_HOME` or `~/.hermes`) is created on the first write, as Hermes does; an
 * explicit `--home` that does not exist is refused with a hint.
 *
 * @module
 */
import { NotFoundError } from "../errors.ts";
import { isDirectory, joinPath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";

/**
 * Makes `folders` (below the home: what the command's row says it needs, its
 * `skeleton`); returns true when a folder was made.
 * @throws {SkillrtError} when the home was named with `--home` and does not exist.
 */
export function ensureSkeleton(
  folders: readonly string[],
  setup: HomeLayout,
  explicitHome: boolean,
): boolean {
  if (folders.length === 0) return false;
  if (explicitHome && !isDirectory(setup.home)) {
    throw new NotFoundError(
      `The home '${setup.home}' does not exist; nothing was written.`,
      {
        hint:
          `Create it first (mkdir -p '${setup.home}'), or leave out --home to use the default home.`,
      },
    );
  }
  let made = false;
  for (const folder of folders) {
    const path = joinPath(setup.home, folder);
    if (isDirectory(path)) continue;
    Deno.mkdirSync(path, { recursive: true });
    made = true;
  }
  return made;
}
