/**
 * The index ([S-7]): the records of every root, in precedence order, as names — each name's
 * winner, the skills it shadows, and names two skills of one root share (ambiguous).
 * Nothing is kept on disk, so an index is correct straight after any edit ([S-4]).
 *
 * The nouns of `src/scan/`: a *scan* (`ScannedRoot`, `scan_root.ts`) is one root walked
 * and its heads read; the *index* (`SkillIndex`, here) is every scan with precedence
 * applied; the *catalog* (`Catalog`, `catalog.ts`) is what one call reads — it scans the
 * roots it needs once and builds the index once; the *watched cache* (`WatchedCache`,
 * `watch_cache.ts`) keeps scans across the calls of a long-lived process while nothing
 * below a root changes, and backs its catalogs; the *live catalog* (`LiveCatalog`,
 * `live_catalog.ts`) is that process's one current catalog.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import type { SkillRecord } from "./record.ts";
import type { FoundFlat } from "./walk.ts";
import { nameKey } from "./name_key.ts";

/** A name as `list` and `view` see it ([S-7]). */
export interface IndexEntry {
  /** The skill name. */
  name: string;
  /** The skill that answers to the name (the first of `matches` when ambiguous). */
  record: SkillRecord;
  /** Two or more skills of that name in the same root: load one by path. */
  ambiguous: boolean;
  /** The colliding skills, when ambiguous. */
  matches: SkillRecord[];
}

/** All skills of a setup and what was noticed while finding them. */
export interface SkillIndex {
  /** Every record found, in precedence order (roots in order, walk order inside each). */
  records: SkillRecord[];
  /**
   * One entry per visible name: winners and ambiguous names, keyed by the name's
   * {@linkcode nameKey} (look one up with {@linkcode entryFor}).
   */
  entries: Map<string, IndexEntry>;
  /** Records that lost to a same-named skill in a higher-precedence root. */
  shadowed: SkillRecord[];
  /** Legacy flat skills per root path ([S-8]). */
  flat: Map<string, FoundFlat[]>;
  /** Walk and shadowing diagnostics (skill diagnostics stay on their records). */
  diagnostics: Diagnostic[];
}

/** The entry of a name in an index (names compared after NFKC, [M-6]), if any. */
export function entryFor(index: SkillIndex, name: string): IndexEntry | undefined {
  return index.entries.get(nameKey(name));
}

/**
 * Applies [S-7] to records in precedence order: pure, for tests and for the scanner.
 * `hubInstalled` tells the skills the hub put in the local root: the user's own skills of
 * that root come first ([S-1]: the local version wins silently over every same-named
 * skill), so a hub skill shares its name with the user's only as a shadowed one.
 */
export function indexRecords(
  records: SkillRecord[],
  flat = new Map<string, FoundFlat[]>(),
  diagnostics: Diagnostic[] = [],
  hubInstalled: (record: SkillRecord) => boolean = () => false,
): SkillIndex {
  const entries = new Map<string, IndexEntry>();
  const shadowed: SkillRecord[] = [];
  const hub = new Set(records.filter(hubInstalled));
  const ordered = ownFirst(records, hub);
  const group = (r: SkillRecord) => hub.has(r) ? `${r.root}\0hub` : r.root;
  for (const record of ordered) {
    const key = nameKey(record.name);
    const entry = entries.get(key);
    if (!entry) {
      entries.set(key, { name: record.name, record, ambiguous: false, matches: [record] });
    } else if (group(entry.record) === group(record)) {
      entry.ambiguous = true;
      entry.matches.push(record);
    } else {
      shadowed.push(record);
      diagnostics.push(
        diagnostic(
          "info",
          "skill.shadowed",
          `Skill '${record.name}' at ${record.skillDir} is shadowed by the one at ${entry.record.skillDir}.`,
          { path: record.file },
        ),
      );
    }
  }
  for (const entry of entries.values()) {
    if (!entry.ambiguous) entry.matches = [];
    else {
      diagnostics.push(
        diagnostic(
          "warning",
          "skill.ambiguous",
          `Skill name '${entry.name}' is used by ${entry.matches.length} skills in ${entry.record.root}: ${
            entry.matches.map((m) => m.path).join(", ")
          }.`,
        ),
      );
    }
  }
  return { records: ordered, entries, shadowed, flat, diagnostics };
}

/**
 * Records in precedence order with, inside each root, the hub-installed ones after the
 * rest (a stable reorder: walk order is kept within each group).
 */
function ownFirst(records: SkillRecord[], hub: Set<SkillRecord>): SkillRecord[] {
  if (hub.size === 0) return records;
  const out: SkillRecord[] = [];
  let i = 0;
  while (i < records.length) {
    const root = records[i].root;
    let end = i;
    while (end < records.length && records[end].root === root) end++;
    const run = records.slice(i, end);
    out.push(...run.filter((r) => !hub.has(r)), ...run.filter((r) => hub.has(r)));
    i = end;
  }
  return out;
}
