/**
 * The bundled manifest, `skills/.bundled_manifest` ([SY-1]): which skills `sync --from`
 * brought into the local root, as sorted `name:md5hex` lines (Hermes' format), and beside
 * it the folders they were written to. Read by `sync` and by `run`, for which a synced
 * skill is not the user's own ([RUN-3]).
 *
 * @module
 */
import { isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import { lockedWritePaths } from "../manage/mutex.ts";

/** The manifest's name inside the local root. */
export const MANIFEST = ".bundled_manifest";

/** Parses manifest text (`name:md5` lines). */
export function parseManifest(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const i = line.lastIndexOf(":");
    if (i > 0) out.set(line.slice(0, i), line.slice(i + 1).trim());
  }
  return out;
}

/**
 * The synced folders, `skills/.bundled_folders`: the folder (relative to the local root)
 * `sync` wrote each tracked skill to, one a line, sorted. `run` decides "synced" by the
 * skill's folder, never by a name a second parser computes (a name the catalog cuts or
 * reads otherwise would miss the manifest).
 */
export const FOLDERS = ".bundled_folders";

/** Every path `sync` writes for the manifest and the synced folders (for its plan). */
export function bundledWritePaths(localRoot: string): string[] {
  const folders = joinPath(localRoot, FOLDERS);
  return [...lockedWritePaths(joinPath(localRoot, MANIFEST)), folders, `${folders}.tmp`];
}

/** The synced folders recorded in a local root (none when the file is absent). */
export function readFolders(localRoot: string): Set<string> {
  try {
    const text = Deno.readTextFileSync(joinPath(localRoot, FOLDERS));
    return new Set(text.split("\n").filter((l) => l !== ""));
  } catch {
    return new Set();
  }
}

/** The synced folders' file text. */
export function renderFolders(folders: Set<string>): string {
  return [...folders].sort().map((f) => `${f}\n`).join("");
}

/** `dir` relative to the local root (as given or real), or undefined when outside it. */
function relativeTo(localRoot: string, dir: string): string | undefined {
  for (const root of new Set([localRoot, realPathOrUndefined(localRoot) ?? localRoot])) {
    if (dir !== root && isInside(root, dir)) return dir.slice(root.length + 1);
  }
  return undefined;
}

/**
 * Whether `sync` brought the skill in folder `skillDir` into the local root: its folder
 * is a synced one, or (a manifest written before the folders were recorded) its `name` is
 * tracked. It came from elsewhere, so its scripts wait for the user's approval like a hub
 * skill's ([RUN-3]), whether or not the user changed it since.
 */
export function isSynced(localRoot: string, skillDir: string, name: string): boolean {
  const rel = relativeTo(localRoot, skillDir);
  if (rel !== undefined && readFolders(localRoot).has(rel)) return true;
  try {
    return parseManifest(Deno.readTextFileSync(joinPath(localRoot, MANIFEST))).has(name);
  } catch {
    return false;
  }
}

/** Manifest text: sorted `name:md5` lines. */
export function renderManifest(entries: Map<string, string>): string {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, h]) =>
    `${n}:${h}\n`
  ).join("");
}
