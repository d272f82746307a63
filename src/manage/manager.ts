/**
 * The management facade ([M-1], [A-1..2]): runs an action (or stages it when
 * `skills.write_approval` is on), and works the pending queue. Every call reads the
 * skills afresh; every action is validated when staged and again when applied.
 *
 * @module
 */
import { unifiedDiff } from "../deps/diff.ts";
import { SkillrtError } from "../errors.ts";
import { joinPath } from "../home/paths.ts";
import { sha256Hex } from "../hash/sha256.ts";
import type { HomeLayout } from "../home/layout.ts";
import { lockedWritePaths } from "./mutex.ts";
import { agentWrittenPaths, markAgentWritten } from "./agent_written.ts";
import { isSkillAction } from "./change.ts";
import { Catalog } from "../scan/catalog.ts";
import { type ManageAction, prepareAction, type PreparedChange } from "./actions.ts";
import { applyChange, type WriteResult, writeTargets } from "./apply.ts";
import { applyBundle, bundleWriteTargets } from "./bundle_apply.ts";
import { guardChange, scanWarnings } from "./guard.ts";
import type { ScanFinding, Verdict } from "../scanner/scanner.ts";
import {
  listPending,
  markFailed,
  pendingDir,
  type PendingProblem,
  type PendingRecord,
  readPending,
  removePending,
  stage,
  type StageResult,
} from "../approval/pending.ts";

/** What a write reports of the guard scanner's look at the skill it leaves ([HUB-4]). */
export interface ScanNote {
  /** The verdict of the skill after the write (create, edit, patch, write-file). */
  scanVerdict?: Verdict;
  /** Every finding, one line each, when the verdict is not safe. */
  warnings?: string[];
}

/** Options of {@linkcode SkillManager.run}. */
export interface RunOptions {
  /** Write even when the guard scanner finds the result dangerous (the CLI's `--force`). */
  force?: boolean;
  /**
   * An MCP client asks ([RUN-3]): the skill folder is marked as the agent's before anything
   * is written (`agent_written.ts`), or — staged — when the user approves it.
   */
  byAgent?: boolean;
}

/** Whether a change written by an agent marks its skill folder (every skill action but a delete). */
function marks(change: PreparedChange, byAgent: boolean | undefined): boolean {
  return byAgent === true && isSkillAction(change.action.action) &&
    change.action.action !== "delete";
}

/** The queue as `pending` shows it. */
export interface PendingList {
  /** Always true. */
  success: true;
  /** Records, oldest first. */
  pending: {
    id: string;
    action: string;
    summary: string;
    createdAt: string;
    scanVerdict?: Verdict;
    error?: string;
  }[];
  /** Number of records. */
  count: number;
  /** Files that are not valid records (reported, never applied). */
  problems: PendingProblem[];
}

/** What `pending diff` shows. */
export interface PendingDiff {
  /** Always true. */
  success: true;
  /** The record's id. */
  id: string;
  /** Its action. */
  action: string;
  /** Its summary. */
  summary: string;
  /** The new content (create) or a unified diff. */
  diff: string;
  /** The guard scanner's verdict when it was staged, and its findings. */
  scanVerdict?: Verdict;
  /** The findings behind the verdict. */
  scanFindings?: ScanFinding[];
}

/** What `pending approve` did. */
export interface ApproveResult {
  /** True when every record applied. */
  success: boolean;
  /** What applied. */
  approved: WriteResult[];
  /** What failed and stays pending. */
  failed: { id: string; error: string }[];
}

/** The paths a change writes: a skill's ([X-1]) or a bundle file's ([B-3]). */
function targetsOf(change: PreparedChange, usageRoot: string): string[] {
  return change.bundleFile !== undefined
    ? bundleWriteTargets(change.bundleFile)
    : writeTargets(change, usageRoot);
}

/** Applies a change: a skill's, or a bundle file's. */
function applyAny(change: PreparedChange, usageRoot: string, now: Date): Promise<WriteResult> {
  return change.bundleFile !== undefined
    ? applyBundle(change, change.bundleFile)
    : applyChange(change, usageRoot, now);
}

/**
 * A file's new content as `pending diff` shows it: text as it is — bytes given in base64
 * too, when they are UTF-8 text, so a script cannot hide behind its encoding —, other bytes
 * as their size and sha256 (removed: nothing).
 */
export function shownAfter(after: string | Uint8Array | null): string {
  if (after === null) return "";
  if (typeof after === "string") return after;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(after);
    if (!text.includes("\0")) return text;
  } catch {
    // Not UTF-8: shown as bytes.
  }
  return `(binary content: ${after.length} bytes, sha256 ${sha256Hex(after)})\n`;
}

/** Changes skills in one home. */
export class SkillManager {
  /** The home, config and roots. */
  readonly setup: HomeLayout;

  /** Creates a manager over a setup. */
  constructor(setup: HomeLayout) {
    this.setup = setup;
  }

  /** Validates an action and computes its change, writing nothing. */
  prepare(action: ManageAction): PreparedChange {
    return prepareAction(action, new Catalog(this.setup));
  }

  /** True when writes are staged for approval. */
  get approval(): boolean {
    return this.setup.config.write_approval;
  }

  /** The paths an action writes (its sandbox write grant). Validates the action on the way. */
  targets(action: ManageAction): string[] {
    const change = this.prepare(action);
    return this.approval ? this.queueTargets() : targetsOf(change, this.setup.localRoot);
  }

  /** The paths the pending queue writes. */
  queueTargets(): string[] {
    return [
      pendingDir(this.setup.home),
      ...lockedWritePaths(joinPath(pendingDir(this.setup.home), "queue")),
    ];
  }

  /**
   * Runs an action: applied now, or staged when write approval is on. What it writes is
   * scanned first: `dangerous` is refused unless `options.force`; the verdict is reported
   * (and kept on a staged record).
   */
  async run(
    action: ManageAction,
    now: Date = new Date(),
    options: RunOptions = {},
  ): Promise<(WriteResult | StageResult) & ScanNote> {
    const change = this.prepare(action);
    const scan = guardChange(change, options.force === true);
    const warnings = [...(change.warnings ?? []), ...scanWarnings(scan)];
    const note: ScanNote = {
      ...(scan ? { scanVerdict: scan.verdict } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
    const byAgent = marks(change, options.byAgent);
    if (this.approval) {
      return { ...await stage(this.setup.home, change, now, scan, byAgent), ...note };
    }
    // Marked first: a run that starts while the files are written already finds the mark.
    if (byAgent) await markAgentWritten(this.setup.localRoot, change.skillDir);
    return { ...await applyAny(change, this.setup.localRoot, now), ...note };
  }

  /** The queue, oldest first, with records that do not parse reported. */
  pending(): PendingList {
    const { records, problems } = listPending(this.setup.home);
    return {
      success: true as const,
      pending: records.map((r) => ({
        id: r.id,
        action: r.action,
        summary: r.summary,
        createdAt: r.created_at,
        ...(r.scan_verdict ? { scanVerdict: r.scan_verdict } : {}),
        ...(r.error ? { error: r.error } : {}),
      })),
      count: records.length,
      problems,
    };
  }

  /** The new content of a staged create, or the unified diff of any other staged write. */
  diff(id: string): PendingDiff {
    const record = readPending(this.setup.home, id);
    let text: string;
    if (record.payload.action === "create") text = record.payload.content;
    else {
      const change = this.prepare(record.payload);
      text = change.files.map((f) => unifiedDiff(f.rel, f.before ?? "", shownAfter(f.after)))
        .join("");
    }
    return {
      success: true as const,
      id,
      action: record.action,
      summary: record.summary,
      diff: text,
      ...(record.scan_verdict
        ? { scanVerdict: record.scan_verdict, scanFindings: record.scan_findings ?? [] }
        : {}),
    };
  }

  /** The records `ID|all` names (all: oldest first). */
  select(id: string): PendingRecord[] {
    return id === "all" ? listPending(this.setup.home).records : [readPending(this.setup.home, id)];
  }

  /** The paths approving `ID|all` writes: each record's targets, and the queue. */
  approveTargets(id: string): string[] {
    const paths = this.queueTargets();
    for (const record of this.select(id)) {
      if (record.written_by === "agent") paths.push(...agentWrittenPaths(this.setup.localRoot));
      try {
        paths.push(...targetsOf(this.prepare(record.payload), this.setup.localRoot));
      } catch {
        // It will fail again at approval and stay pending with its error.
      }
    }
    return paths;
  }

  /** Applies staged writes; a failed one stays pending with its error. */
  async approve(id: string, now: Date = new Date()): Promise<ApproveResult> {
    const approved: WriteResult[] = [];
    const failed: { id: string; error: string }[] = [];
    for (const record of this.select(id)) {
      try {
        const change = this.prepare(record.payload);
        if (marks(change, record.written_by === "agent")) {
          await markAgentWritten(this.setup.localRoot, change.skillDir);
        }
        approved.push(await applyAny(change, this.setup.localRoot, now));
        await removePending(this.setup.home, record.id);
      } catch (error) {
        const message = error instanceof SkillrtError ? error.message : (error as Error).message;
        await markFailed(this.setup.home, record, message, now);
        failed.push({ id: record.id, error: message });
      }
    }
    return { success: failed.length === 0, approved, failed };
  }

  /** Drops staged writes. */
  async reject(id: string): Promise<{ success: true; rejected: string[] }> {
    const rejected: string[] = [];
    for (const record of this.select(id)) {
      await removePending(this.setup.home, record.id);
      rejected.push(record.id);
    }
    return { success: true as const, rejected };
  }
}
