/**
 * Managing skills ([M-1..6], [A-1..2], [U-1..2] in SPEC.md): the manager that validates,
 * stages or applies changes atomically, the approval queue, the inter-process lock, the
 * usage counters and the curator.
 *
 * @example
 * ```ts
 * import { resolveHomeLayout } from "@skillrt/skillrt";
 * import { SkillManager } from "@skillrt/skillrt/manage";
 *
 * const manager = new SkillManager(resolveHomeLayout({ home: "examples/home" }));
 * console.log(manager.pending().count);
 * ```
 *
 * @module
 */
export { SkillManager } from "./manager.ts";
export type {
  BundleAction,
  FileChange,
  ManageAction,
  PreparedChange,
  SkillAction,
} from "./change.ts";
export type { WriteResult } from "./apply.ts";
export type { PendingProblem, PendingRecord, StageResult } from "../approval/pending.ts";
export { type LockOptions, withLock } from "./mutex.ts";
export {
  type Actor,
  readUsage,
  type UpdateResult,
  type UsageEntry,
  type UsageMap,
} from "../usage/usage.ts";
export {
  type CuratedSkill,
  type CuratorOptions,
  curatorRun,
  type CuratorStatus,
  curatorStatus,
  restoreArchived,
  setPinned,
} from "../usage/curator.ts";
export type { ApproveResult, PendingDiff, PendingList, RunOptions, ScanNote } from "./manager.ts";
export type { CuratorRunResult } from "../usage/curator.ts";
