/**
 * The curator ([U-2]): skills of the local root unused for 14 days are stale, for 30
 * days are moved to `.archive/<name>`; pinned skills are exempt; an archived skill is
 * restored to its original path, category included. Time is passed in, so it can be
 * tested without waiting.
 *
 * @module
 */
import { NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { basename, dirname, isAbsoluteAnywhere, joinPath } from "../home/paths.ts";
import { makeDirsInside } from "../manage/apply.ts";
import { linkRefusal, realParent } from "../manage/atomic.ts";
import { hasControlChar } from "../manage/file_names.ts";
import { NAME_PATTERN, validateName } from "../manage/validation.ts";
import { hasTraversal } from "../resolve/name_guard.ts";
import { EXCLUDED_DIRS } from "../scan/walk.ts";
import type { SkillRecord } from "../scan/record.ts";
import { type Actor, entryOf, isActor, readUsage, updateUsage, type UsageEntry } from "./usage.ts";

/** Days unused before a skill is stale. */
export const STALE_DAYS = 14;
/** Days unused before a skill is archived. */
export const ARCHIVE_DAYS = 30;
const DAY = 86_400_000;

/** One skill in a curator report. */
export interface CuratedSkill {
  /** Name. */
  name: string;
  /** Folder relative to the local root. */
  path: string;
  /** Whole days since last use (or creation, or the file's last change). */
  daysUnused: number;
  /** Who created it, when known ([U-1]): `user`, `agent` or `hub`. */
  createdBy: Actor | null;
}

/** Options of {@linkcode curatorStatus} and {@linkcode curatorRun}. */
export interface CuratorOptions {
  /** Only skills an agent created (`curator run --agent-created`). */
  agentCreated?: boolean;
}

/** What `curator status` reports. */
export interface CuratorStatus {
  /** Always true. */
  success: true;
  /** The time the report is for. */
  now: string;
  /** Unused for 14 days or more (and less than 30). */
  stale: CuratedSkill[];
  /** Unused for 30 days or more: `curator run` archives these. */
  archivable: CuratedSkill[];
  /** Pinned names. */
  pinned: string[];
  /** Skills in `.archive/`. */
  archived: { name: string; originPath: string | null; archivedAt: string | null }[];
  /** Skills of the local root an agent created (over MCP), by name. */
  agentCreated: string[];
  /** True when only agent-created skills were considered. */
  agentCreatedOnly: boolean;
}

/** When a skill was last used: its last use, else creation, else its SKILL.md's modification time. */
export function lastActive(entry: UsageEntry | undefined, file: string): Date {
  const stamp = entry?.last_used_at ?? entry?.created_at;
  if (stamp) return new Date(stamp);
  try {
    return Deno.statSync(file).mtime ?? new Date(0);
  } catch {
    return new Date(0);
  }
}

/** The curator's view of the local root's skills at `now`. */
export function curatorStatus(
  localRoot: string,
  records: SkillRecord[],
  now: Date,
  options: CuratorOptions = {},
): CuratorStatus {
  const usage = readUsage(localRoot);
  const only = options.agentCreated === true;
  const status: CuratorStatus = {
    success: true,
    now: now.toISOString(),
    stale: [],
    archivable: [],
    pinned: [],
    archived: [],
    agentCreated: [],
    agentCreatedOnly: only,
  };
  for (const r of records) {
    if (r.root !== localRoot) continue;
    const entry = usage[r.name];
    const by = isActor(entry?.created_by) ? entry.created_by : null;
    if (by === "agent") status.agentCreated.push(r.name);
    if (only && by !== "agent") continue;
    if (entry?.pinned) {
      status.pinned.push(r.name);
      continue;
    }
    const days = Math.floor((now.getTime() - lastActive(entry, r.file).getTime()) / DAY);
    const item = { name: r.name, path: r.path, daysUnused: days, createdBy: by };
    if (days >= ARCHIVE_DAYS) status.archivable.push(item);
    else if (days >= STALE_DAYS) status.stale.push(item);
  }
  for (const [name, e] of Object.entries(usage)) {
    if (e.state === "archived") {
      status.archived.push({ name, originPath: e.origin_path, archivedAt: e.archived_at });
    }
  }
  return status;
}

/** What `curator run` did (or, with a dry run, would do). */
export interface CuratorRunResult {
  /** Always true. */
  success: true;
  /** True when nothing was moved. */
  dryRun: boolean;
  /** True when only agent-created skills were considered (`--agent-created`). */
  agentCreatedOnly: boolean;
  /** The time judged by. */
  now: string;
  /** Skills marked stale. */
  markedStale: string[];
  /** Skills moved to `.archive/`. */
  archived: string[];
  /** Skills that could not be archived, and why. */
  problems: string[];
}

/** Moves one skill folder into `.archive/`; returns why it could not, or undefined. */
function archiveOne(localRoot: string, path: string, name: string): string | undefined {
  if (!NAME_PATTERN.test(name) || name.length > 64) return "its name is not a plain folder name.";
  const target = joinPath(localRoot, ".archive", name);
  try {
    Deno.lstatSync(target);
    return `${target} already exists.`;
  } catch {
    // Free: archive it.
  }
  const from = joinPath(localRoot, path);
  try {
    makeDirsInside(localRoot, ".archive", false);
    if (Deno.lstatSync(from).isSymlink) throw linkRefusal(from);
    Deno.renameSync(joinPath(realParent(from, localRoot), basename(from)), target);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Archives what is archivable and marks what is stale; `dryRun` only reports. */
export async function curatorRun(
  localRoot: string,
  records: SkillRecord[],
  now: Date,
  dryRun: boolean,
  options: CuratorOptions = {},
): Promise<CuratorRunResult> {
  const status = curatorStatus(localRoot, records, now, options);
  const archived: string[] = [];
  const problems: string[] = [];
  if (!dryRun) {
    await updateUsage(localRoot, (map) => {
      for (const s of status.stale) entryOf(map, s.name).state = "stale";
      for (const s of status.archivable) {
        const problem = archiveOne(localRoot, s.path, s.name);
        if (problem) {
          problems.push(`'${s.name}' was not archived: ${problem}`);
          continue;
        }
        Object.assign(entryOf(map, s.name), {
          state: "archived",
          archived_at: now.toISOString(),
          origin_path: s.path,
        });
        archived.push(s.name);
      }
    });
  }
  return {
    success: true,
    dryRun: dryRun,
    agentCreatedOnly: status.agentCreatedOnly,
    now: status.now,
    markedStale: status.stale.map((s) => s.name),
    archived: dryRun ? status.archivable.map((s) => s.name) : archived,
    problems,
  };
}

/** Pins or unpins a skill of the local root. */
export async function setPinned(
  localRoot: string,
  records: SkillRecord[],
  name: string,
  pinned: boolean,
): Promise<{ success: true; name: string; pinned: boolean }> {
  const usage = readUsage(localRoot);
  if (!records.some((r) => r.root === localRoot && r.name === name) && !usage[name]) {
    throw new NotFoundError(`Skill '${name}' not found in the local skills folder.`);
  }
  await updateUsage(localRoot, (map) => {
    entryOf(map, name).pinned = pinned;
  });
  return { success: true as const, name, pinned };
}

/**
 * Where an archived skill goes back to: its recorded `origin_path` when that is a plain
 * relative path inside the local root, outside its reserved folders (`.hub`, `.archive`, …) ([U-1], [S-9]), else its name at the top.
 */
export function restoreOrigin(name: string, origin: string | null | undefined): string {
  if (typeof origin !== "string" || origin === "") return name;
  const parts = origin.split("/");
  const plain = !isAbsoluteAnywhere(origin) && !hasTraversal(origin) &&
    parts.every((p) =>
      p !== "" && !p.startsWith(".") && !EXCLUDED_DIRS.has(p) && !hasControlChar(p)
    );
  if (!plain) {
    throw new ValidationError(
      `Cannot restore '${name}': its recorded origin '${origin}' is not a path inside the skills folder.`,
    );
  }
  return origin;
}

/** Puts an archived skill back at its original path (category included). */
export async function restoreArchived(
  localRoot: string,
  name: string,
  now: Date,
): Promise<{ success: true; name: string; path: string }> {
  validateName(name);
  const source = joinPath(localRoot, ".archive", name);
  try {
    if (Deno.lstatSync(source).isSymlink) throw linkRefusal(source);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    throw new NotFoundError(
      `No archived skill named '${name}' in ${joinPath(localRoot, ".archive")}.`,
    );
  }
  const origin = restoreOrigin(name, readUsage(localRoot)[name]?.origin_path);
  const target = joinPath(localRoot, origin);
  try {
    Deno.lstatSync(target);
    throw new SkillrtError(`Cannot restore '${name}': ${target} already exists.`);
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
  }
  makeDirsInside(localRoot, dirname(origin), false); // never through a link; granted just this
  Deno.renameSync(source, joinPath(realParent(target, localRoot), basename(target)));
  await updateUsage(localRoot, (map) => {
    Object.assign(entryOf(map, name), {
      state: "active",
      archived_at: null,
      origin_path: null,
      last_used_at: now.toISOString(),
    });
  });
  return { success: true as const, name, path: origin };
}
