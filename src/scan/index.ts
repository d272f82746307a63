/**
 * The index of one command: every root walked once, each skill's head read once, and
 * the precedence rule of [S-7] applied (winner, shadowed, ambiguous). Nothing is kept
 * on disk, so the index is correct straight after any edit ([S-4]).
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { readHeadOf } from "../frontmatter/read_head.ts";
import type { PluginRoot, Root } from "../home/setup.ts";
import { isEscape, leavingDiagnostic, openSkillFile, reachOf } from "./containment.ts";
import { buildRecord, type SkillRecord, type SkillSource } from "./record.ts";
import type { ScannedRoot } from "./scanned.ts";
import { type FoundFlat, type WalkLimits, walkRoot } from "./walk.ts";
import { joinPath } from "../home/paths.ts";
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

/**
 * Looks that prove a SKILL.md whose head is read for a listing: two, one fewer than for
 * served content, as a listing reads thousands (a swap must still land between two
 * consecutive `lstat`s twice over to pass).
 */
const HEAD_ROUNDS = 2;

/**
 * Reads the record of the skill in folder `dir` (`rel` below `root`). Outside the local
 * root the SKILL.md is read only when the folder and the file really lie in one of
 * `realRoots` ([S-9]); otherwise the record says so and holds nothing of the file.
 */
export function readRecord(
  dir: string,
  rel: string,
  root: string,
  source: SkillSource,
  namespace?: string,
  realRoots: readonly string[] = [root],
): SkillRecord {
  const file = joinPath(dir, "SKILL.md");
  const fallbackName = rel === "" ? dir.split("/").pop() ?? dir : rel.split("/").pop()!;
  try {
    using opened = openSkillFile(dir, "SKILL.md", reachOf(source, realRoots), HEAD_ROUNDS);
    const head = readHeadOf(opened);
    return buildRecord(
      { file, dir, rel, root, source, namespace, fallbackName },
      head.fence,
      head.invalidUtf8,
    );
  } catch (error) {
    const record = buildRecord({ file, dir, rel, root, source, namespace, fallbackName }, {
      kind: "missing",
      body: "",
    });
    record.diagnostics = [
      isEscape(error) ? leavingDiagnostic(file) : diagnostic(
        "error",
        "file.unreadable",
        `SKILL.md could not be read (${(error as Error).name}).`,
        { path: file },
      ),
    ];
    return record;
  }
}

/** The kind of a root and, for a plugin, its namespace. */
export function rootSource(root: Root | PluginRoot): { source: SkillSource; namespace?: string } {
  return "namespace" in root ? { source: "plugin", namespace: root.namespace } : {
    source: root.source,
  };
}

/**
 * Walks one root and reads every skill in it; outside the local root, links leaving
 * `realRoots` (every root of the setup; by default this root) are not followed ([S-9]).
 */
export function scanRoot(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[] = [root.path],
): ScannedRoot {
  const { source, namespace } = rootSource(root);
  const walk = walkRoot(root.path, root.path, limits, undefined, reachOf(source, realRoots));
  const records = walk.skills.map((s) =>
    readRecord(s.dir, s.rel, root.path, source, namespace, realRoots)
  );
  return { records, flat: walk.flat, diagnostics: walk.diagnostics };
}

/** The entry of a name in an index (names compared after NFKC, [M-6]), if any. */
export function entryFor(index: SkillIndex, name: string): IndexEntry | undefined {
  return index.entries.get(nameKey(name));
}

/** Applies [S-7] to records in precedence order: pure, for tests and for the scanner. */
export function indexRecords(
  records: SkillRecord[],
  flat = new Map<string, FoundFlat[]>(),
  diagnostics: Diagnostic[] = [],
): SkillIndex {
  const entries = new Map<string, IndexEntry>();
  const shadowed: SkillRecord[] = [];
  for (const record of records) {
    const key = nameKey(record.name);
    const entry = entries.get(key);
    if (!entry) {
      entries.set(key, { name: record.name, record, ambiguous: false, matches: [record] });
    } else if (entry.record.root === record.root) {
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
  return { records, entries, shadowed, flat, diagnostics };
}
