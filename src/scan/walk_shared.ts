/**
 * One root's walk shared between threads (SPEC §19, [S-2], [S-9]): the root's own folder
 * is read first (`planRoot`), and each folder at its top becomes a unit that any thread
 * walks on its own and reads the skills of (`walkUnit`). `mergeRoot` puts the units back
 * together in walk order, which gives exactly the one-thread walk unless a link could make
 * one unit's folders another's (then, or past the dir bound, it says to walk alone).
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import { reachOf } from "./containment.ts";
import type { SkillRecord, SkillSource } from "./record.ts";
import { readRecord, rootSource } from "./scan_root.ts";
import type { ScannedRoot } from "./scanned.ts";
import {
  type FoundFlat,
  type FoundSkill,
  newWalk,
  type Pending,
  topOf,
  visitFolder,
  type Walk,
  walkFrom,
  type WalkLimits,
} from "./walk.ts";

/** A folder at the top of a root, to be walked by whichever thread claims it. */
export interface UnitTask {
  /** The root, as walked. */
  root: string;
  /** The root's kind. */
  source: SkillSource;
  /** The plugin namespace, for plugin roots. */
  namespace?: string;
  /** The real paths of every root of the setup, for [S-9]. */
  realRoots: readonly string[];
  /** The real folders the root's walk had seen when it read its top (the same array for a root). */
  visited: readonly string[];
  /** The walk's bounds. */
  limits: WalkLimits;
  /** Whether to note each folder read. */
  keepDirs: boolean;
  /** The folder to walk. */
  top: Pending;
}

/** What walking one unit found: the walk's result, the records, and what `mergeRoot` checks. */
export interface UnitDone {
  /** The skill folders found, in walk order. */
  skills: FoundSkill[];
  /** Their records, in the same order. */
  records: SkillRecord[];
  /** Legacy flat skills. */
  flat: FoundFlat[];
  /** The walk's diagnostics. */
  diagnostics: ScannedRoot["diagnostics"];
  /** Real folders entered through links. */
  linked: string[];
  /** Folders read. */
  dirsRead: number;
  /** The folders read, when noted. */
  dirs?: string[];
}

/** A root whose top has been read: its head walk, the records of a skill at the top, its units. */
export interface RootPlan {
  /** The root, as the setup gives it. */
  root: Root | PluginRoot;
  /** The walk of the root's own folder. */
  head: Walk;
  /** The record of the root itself when it is a skill folder. */
  records: SkillRecord[];
  /** The folders read (the root), when noted. */
  dirs?: string[];
  /** One task per folder at the top, in walk order. */
  tasks: UnitTask[];
}

/** Reads the top of `root` and makes one task per folder there. */
export function planRoot(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  keepDirs: boolean,
): RootPlan {
  const { source, namespace } = rootSource(root);
  const head = newWalk(root.path, [root.path], limits, undefined, reachOf(source, realRoots));
  const tops: Pending[] = [];
  if (++head.dirsRead <= limits.maxDirs) {
    tops.push(...visitFolder(head, topOf(root.path, root.path)));
  }
  const records = head.result.skills.map((s) =>
    readRecord(s.dir, s.rel, root.path, source, namespace, realRoots)
  );
  const visited = [...head.visited];
  const tasks = tops.map((top): UnitTask => ({
    root: root.path,
    source,
    ...(namespace !== undefined && { namespace }),
    realRoots,
    visited,
    limits,
    keepDirs,
    top,
  }));
  return { root, head, records, ...(keepDirs && { dirs: [root.path] }), tasks };
}

/** Walks one unit and reads the records of the skills it finds. */
export function walkUnit(task: UnitTask): UnitDone {
  const walk = newWalk(
    task.root,
    task.visited,
    task.limits,
    undefined,
    reachOf(task.source, task.realRoots),
  );
  walk.linked = [];
  const dirs: string[] | undefined = task.keepDirs ? [] : undefined;
  walkFrom(walk, [task.top], dirs && ((dir) => dirs.push(dir)));
  const { skills, flat, diagnostics } = walk.result;
  const records = skills.map((s) =>
    readRecord(s.dir, s.rel, task.root, task.source, task.namespace, task.realRoots)
  );
  const { linked = [], dirsRead } = walk;
  return { skills, records, flat, diagnostics, linked, dirsRead, ...(dirs && { dirs }) };
}

/** True when one of the paths is the other or inside it. */
function related(a: string, b: string): boolean {
  return a === b || a.startsWith(b + "/") || b.startsWith(a + "/");
}

/**
 * True when the units' folders may meet, so that walking them apart could differ from the
 * walk alone (which skips a folder an earlier unit entered). The folders at the top, by
 * name or link, are seen by every unit before it starts, so a unit's own folders are
 * below its top and never enter another top. What may meet is a folder a unit entered
 * through a link: it is checked against every other unit's top and links, and against
 * the folders above the root.
 */
function unitsMayMeet(plan: RootPlan, done: UnitDone[]): boolean {
  const linked = done.flatMap((d, unit) => d.linked.map((real) => ({ real, unit })));
  if (linked.length === 0) return false;
  const tops = plan.tasks.map((task) => task.top.real);
  const realRoot = plan.root.path;
  return linked.some(({ real, unit }) =>
    realRoot.startsWith(real + "/") ||
    tops.some((top, other) => other !== unit && related(top, real)) ||
    linked.some((other) => other.unit !== unit && related(other.real, real))
  );
}

/**
 * The root's scan from its plan and its units' results (in task order), exactly as the
 * walk alone gives it; undefined when it might not be (links that may meet, or the dir
 * bound reached), and the root must be scanned alone.
 */
export function mergeRoot(plan: RootPlan, done: UnitDone[]): ScannedRoot | undefined {
  const dirsRead = done.reduce((n, d) => n + d.dirsRead, plan.head.dirsRead);
  if (dirsRead > plan.head.limits.maxDirs || unitsMayMeet(plan, done)) return undefined;
  const records = [...plan.records, ...done.flatMap((d) => d.records)];
  const flat = [...plan.head.result.flat, ...done.flatMap((d) => d.flat)];
  // The walk alone notes the depth bound once, where it is first met.
  let depthNoted = false;
  const diagnostics = [...plan.head.result.diagnostics, ...done.flatMap((d) => d.diagnostics)]
    .filter((d) => {
      if (d.code !== "walk.depth_limit") return true;
      const first = !depthNoted;
      depthNoted = true;
      return first;
    });
  const dirs = plan.dirs && [...plan.dirs, ...done.flatMap((d) => d.dirs ?? [])];
  return { records, flat, diagnostics, ...(dirs && { dirs }) };
}
