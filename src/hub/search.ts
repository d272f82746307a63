/**
 * `hub search QUERY` ([HUB-1], [HUB-8]): the configured well-known indexes and the
 * skills inside the configured collections, in one list.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import type { HomeLayout } from "../home/layout.ts";
import { configuredCollections, searchCollections } from "./collections.ts";
import { configuredIndexes, searchIndexes, type SearchResult } from "./well_known.ts";

/** Searches the indexes (`index` instead of the configured ones) and the collections. */
export async function searchHub(
  setup: HomeLayout,
  query: string,
  index?: string,
): Promise<SearchResult> {
  const indexes = configuredIndexes(setup, index);
  const collections = index === undefined ? configuredCollections(setup) : [];
  if (collections.length === 0) return await searchIndexes(indexes, query);
  let doc: SearchResult = { success: true, query, results: [], unreachable: [], problems: [] };
  if (indexes.length) {
    try {
      doc = await searchIndexes(indexes, query);
    } catch (error) {
      if (!(error instanceof SkillrtError)) throw error;
      doc.unreachable.push(...indexes.map((i) => ({ index: i, error: error.message })));
    }
  }
  const found = await searchCollections(
    setup,
    query,
    setup.localRoot,
  );
  doc.results.push(...found.hits);
  doc.unreachable.push(...found.unreachable);
  if (doc.results.length === 0 && doc.unreachable.length === indexes.length + collections.length) {
    throw new SkillrtError(doc.unreachable.map((u) => u.error).join(" "), {
      unreachable: doc.unreachable,
    });
  }
  return doc;
}
