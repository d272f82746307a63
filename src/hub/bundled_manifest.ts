/**
 * The bundled manifest, `skills/.bundled_manifest` ([SY-1]): which skills `sync --from`
 * brought into the local root, as sorted `name:md5hex` lines (Hermes' format). Read by
 * `sync` and by `run`, for which a synced skill is not the user's own ([RUN-3]).
 *
 * @module
 */
import { joinPath } from "../home/paths.ts";

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
 * Whether `sync` brought the skill `name` into the local root (the manifest tracks it): it
 * came from elsewhere, so its scripts wait for the user's approval like a hub skill's
 * ([RUN-3]), whether or not the user changed it since.
 */
export function isSynced(localRoot: string, name: string): boolean {
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
