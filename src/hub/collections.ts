/**
 * Configured collections ([HUB-8]): `skills.hub.collections` lists repositories that hold
 * many skills — GitHub `owner/repo[/path][@ref]`, git URLs (`https://….git`,
 * `git+file://…`, `file://…`) or a local git checkout's path. `hub search` searches the
 * skills inside them, and a bare name (`hub install pdf`) is looked up in them, in
 * config order, before any well-known index.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { expandPath } from "../home/host.ts";
import { collectionEntries, isPathEntry } from "./collection_paths.ts";
import { isDirectory, joinPath, resolvePath } from "../home/paths.ts";
import type { HomeLayout } from "../home/layout.ts";
import { collectionOf, type CollectionSkill } from "./collection.ts";
import { type Fetched, fetchSource } from "./fetch.ts";
import { addNeeds, type SourceNeeds, sourceNeeds, sourceOf } from "./source_of.ts";
import { refuseLinkedHub } from "./install.ts";
import { removeScratch, withScratch } from "./scratch.ts";

/** The collections of the config, as hub sources. */
export function configuredCollections(setup: HomeLayout): string[] {
  return collectionEntries(setup).map((entry) =>
    collectionSource(entry, setup.home, setup.host.userHome)
  );
}

/**
 * A collection entry as a hub source: `file://…` is a git repository on this machine, and
 * so is a path to a folder holding `.git`; anything else is a source as it stands.
 */
export function collectionSource(entry: string, home: string, userHome?: string): string {
  if (entry.startsWith("file://")) return `git+${entry}`;
  if (isPathEntry(entry)) {
    const path = resolvePath(home, expandPath(entry, () => undefined, userHome));
    return isDirectory(joinPath(path, ".git")) ? `git+file://${path}` : path;
  }
  return entry;
}

/** The hosts, programs and variables reading every configured collection needs. */
export function collectionNeeds(setup: HomeLayout): SourceNeeds {
  const needs: SourceNeeds = { net: [], run: [], env: [] };
  for (const source of configuredCollections(setup)) {
    try {
      addNeeds(needs, sourceNeeds(sourceOf(setup, source)));
    } catch {
      // A source that does not parse is reported when it is read.
    }
  }
  return needs;
}

/** The skills of one fetched source: its collection, or its one skill. */
export function skillsOf(fetched: Fetched): CollectionSkill[] {
  return fetched.collection?.skills ?? collectionOf([{ path: "", text: fetched.text }]);
}

/** One configured collection, read: its skills, or why it could not be read. */
export interface ReadCollection {
  /** The source, as configured. */
  source: string;
  /** The fetched source (its skills are in `collection`, or it is one skill). */
  fetched?: Fetched;
  /** Why it could not be read. */
  error?: string;
  /** The scratch folder of its clone (remove it when done). */
  work: string;
}

/** Reads each configured collection into the quarantine of `root` (one folder each), in config order. */
export async function readCollections(
  setup: HomeLayout,
  root: string,
  stopWhen?: (fetched: Fetched) => boolean,
): Promise<ReadCollection[]> {
  // Clones go to the root's quarantine: never through a linked `.hub` (an agent's folder
  // is written by other programs too, [H-5]), or git would write wherever it points.
  refuseLinkedHub(root);
  const scratch = joinPath(root, ".hub", "quarantine");
  const out: ReadCollection[] = [];
  let i = 0;
  for (const source of configuredCollections(setup)) {
    const work = joinPath(scratch, `collection-${i++}-${crypto.randomUUID().slice(0, 8)}`);
    try {
      const fetched = await fetchSource(setup, source, work);
      out.push({ source, fetched, work });
      if (stopWhen?.(fetched)) break;
    } catch (error) {
      if (!(error instanceof SkillrtError)) throw error;
      out.push({ source, error: error.message, work });
    }
  }
  return out;
}

/** Removes the scratch folders of read collections. */
export function removeCollections(read: ReadCollection[]): void {
  removeScratch(...read.map((r) => r.work));
}

/** True for a word that may name a skill of a collection (`pdf`, `hook-development`). */
export function isBareName(source: string): boolean {
  return /^[a-z0-9][a-z0-9._-]*$/.test(source) && !source.includes("..");
}

/** True when `skill` answers to `name` (its install name or declared name). */
export function answersTo(skill: CollectionSkill, name: string): boolean {
  return skill.name === name || skill.declaredName === name;
}

/** One skill of a configured collection that matches a search. */
export interface CollectionHit {
  /** The name it installs under. */
  name: string;
  /** Its description. */
  description: string;
  /** The collection that holds it (what `index` is for an index's hits). */
  index: string;
  /** Its folder inside the collection. */
  path: string;
  /** Always 0: a collection's files are counted when it is installed. */
  files: number;
  /** Always false. */
  package: boolean;
}

/** The skills of the configured collections whose name or description holds every word of `query`. */
export async function searchCollections(
  setup: HomeLayout,
  query: string,
  root: string,
): Promise<{ hits: CollectionHit[]; unreachable: { index: string; error: string }[] }> {
  return await withScratch(root, () => searchIn(root, query, setup));
}

async function searchIn(
  root: string,
  query: string,
  setup: HomeLayout,
): Promise<{ hits: CollectionHit[]; unreachable: { index: string; error: string }[] }> {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "");
  const read = await readCollections(setup, root);
  try {
    const hits: CollectionHit[] = [];
    for (const r of read) {
      for (const s of r.fetched ? skillsOf(r.fetched) : []) {
        const hay = `${s.name ?? s.declaredName} ${s.declaredName} ${s.description}`.toLowerCase();
        if (s.name === null || !words.every((w) => hay.includes(w))) continue;
        hits.push({
          name: s.name,
          description: s.description,
          index: r.source,
          path: s.path,
          files: 0,
          package: false,
        });
      }
    }
    const unreachable = read.filter((r) => r.error).map((r) => ({
      index: r.source,
      error: r.error!,
    }));
    return { hits, unreachable };
  } finally {
    removeCollections(read);
  }
}
