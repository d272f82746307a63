/**
 * Scanning one root ([S-2], [S-5], [S-9]): the walk finds its skill folders, and the head
 * of each SKILL.md is read — only through a handle proved inside the roots — into a record.
 * A root's scan (`ScannedRoot`) is the unit the catalog, the scan helper and the watched
 * cache keep; `skill_index.ts` turns the scans of every root into the index.
 *
 * @module
 */
import { diagnostic } from "../diagnostics.ts";
import { readHeadOf } from "../frontmatter/read_head.ts";
import type { PluginRoot, Root } from "../home/layout.ts";
import { joinPath } from "../home/paths.ts";
import { HEAD_ROUNDS } from "../files/open_inside.ts";
import { isEscape, leavingDiagnostic, openSkillFile, reachOf } from "./containment.ts";
import { buildRecord, type SkillRecord, type SkillSource } from "./record.ts";
import type { ScannedRoot } from "./scanned.ts";
import { type WalkLimits, type WalkResult, walkRoot } from "./walk.ts";

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
 * Walks one root as a scan does (outside the local root, links leaving `realRoots` are
 * not followed, [S-9]); `onDir` hears of each folder read.
 */
export function walkOfRoot(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  onDir?: (dir: string) => void,
): WalkResult {
  return walkRoot(
    root.path,
    root.path,
    limits,
    undefined,
    reachOf(rootSource(root).source, realRoots),
    onDir,
  );
}

/**
 * Walks one root and reads every skill in it; outside the local root, links leaving
 * `realRoots` (every root of the setup; by default this root) are not followed ([S-9]).
 * `keepDirs`: the scan notes the folders its walk read.
 */
export function scanRoot(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[] = [root.path],
  keepDirs = false,
): ScannedRoot {
  const { source, namespace } = rootSource(root);
  const dirs: string[] | undefined = keepDirs ? [] : undefined;
  const walk = walkOfRoot(root, limits, realRoots, dirs && ((dir) => dirs.push(dir)));
  const records = walk.skills.map((s) =>
    readRecord(s.dir, s.rel, root.path, source, namespace, realRoots)
  );
  return { records, flat: walk.flat, diagnostics: walk.diagnostics, ...(dirs && { dirs }) };
}
