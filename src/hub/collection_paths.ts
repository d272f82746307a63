/**
 * The collections of `skills.hub.collections` that are folders on this machine ([HUB-8]):
 * the warden grants hub commands read access to them. Kept apart from `collections.ts`
 * so the warden does not load the fetching code for every command.
 *
 * @module
 */
import { expandPath } from "../home/host.ts";
import { resolvePath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";

/** The entries of `skills.hub.collections`, as written. */
export function collectionEntries(setup: HomeLayout): string[] {
  const raw = setup.config.hub.collections;
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw.map(String) : [];
  return list.map((e) => e.trim()).filter((e) => e !== "");
}

/** True for a collection entry written as a path on this machine. */
export function isPathEntry(entry: string): boolean {
  return entry.startsWith("/") || entry.startsWith("~") || entry.startsWith(".");
}

/** The configured collections that are folders on this machine: what a hub command must read. */
export function localCollectionPaths(setup: HomeLayout): string[] {
  return collectionEntries(setup).filter(isPathEntry).map((e) =>
    resolvePath(setup.home, expandPath(e, () => undefined, setup.host.userHome))
  );
}
