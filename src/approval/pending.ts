/**
 * Write approval ([A-1], [A-2]): with `skills.write_approval` on, every management action
 * is staged as `<home>/pending/skills/<8 hex>.json` instead of applied. The queue is
 * changed under an inter-process lock; a record that does not parse is reported and never
 * applied or rewritten.
 *
 * @module
 */
import { NotFoundError, SkillrtError, ValidationError } from "../errors.ts";
import { isMapping } from "../mapping.ts";
import { ensureDir, joinPath } from "../home/paths.ts";
import { atomicWriteJson } from "../manage/atomic.ts";
import { withLock } from "../manage/mutex.ts";
import type { ManageAction, PreparedChange } from "../manage/actions.ts";
import type { ScanFinding, Verdict } from "../scanner/scanner.ts";

/** Most entries the queue holds ([A-2]). */
export const MAX_PENDING = 500;

/** One staged write. */
export interface PendingRecord {
  /** 8 hex digits. */
  id: string;
  /** The action (`create`, `patch`, …). */
  action: string;
  /** One line saying what it does. */
  summary: string;
  /** When staged, ISO time. */
  created_at: string;
  /** The action with all its arguments. */
  payload: ManageAction;
  /** The guard scanner's verdict of the skill after this write, so the reviewer sees it. */
  scan_verdict?: Verdict;
  /** The scanner's findings behind that verdict. */
  scan_findings?: ScanFinding[];
  /** Why the last approval failed, when it did. */
  error?: string;
  /** When the last approval failed. */
  failed_at?: string;
  /** `agent`: an MCP client staged it; approving it marks the skill as the agent's ([RUN-3]). */
  written_by?: "agent";
}

/** The result of staging ([A-1]). */
export interface StageResult {
  /** Always true. */
  success: true;
  /** Always true. */
  staged: true;
  /** The record's id. */
  pendingId: string;
  /** The summary. */
  gist: string;
  /** What to do next. */
  message: string;
}

/** The queue folder of a home. */
export function pendingDir(home: string): string {
  return joinPath(home, "pending", "skills");
}

/** The file the queue's lock guards. */
function queueTarget(home: string): string {
  return joinPath(pendingDir(home), "queue");
}

function randomId(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

function recordFiles(home: string): string[] {
  try {
    return Array.from(Deno.readDirSync(pendingDir(home)))
      .filter((e) => e.isFile && /^[0-9a-f]{8}\.json$/.test(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** Stages a prepared (validated) change. Refuses once the queue holds {@linkcode MAX_PENDING} entries. */
export async function stage(
  home: string,
  change: PreparedChange,
  now = new Date(),
  scan?: { verdict: Verdict; findings: ScanFinding[] },
  byAgent = false,
): Promise<StageResult> {
  const dir = pendingDir(home);
  ensureDir(dir);
  return await withLock(queueTarget(home), () => {
    if (recordFiles(home).length >= MAX_PENDING) {
      throw new SkillrtError(
        `The pending queue is full (${MAX_PENDING} entries); approve or reject some with 'skillrt pending' before staging more.`,
      );
    }
    let id = randomId();
    while (recordFiles(home).includes(`${id}.json`)) id = randomId();
    const record: PendingRecord = {
      id,
      action: change.action.action,
      summary: change.summary,
      created_at: now.toISOString(),
      payload: change.action,
      ...(scan ? { scan_verdict: scan.verdict, scan_findings: scan.findings } : {}),
      ...(byAgent ? { written_by: "agent" as const } : {}),
    };
    atomicWriteJson(joinPath(dir, `${id}.json`), record);
    return {
      success: true,
      staged: true,
      pendingId: id,
      gist: change.summary,
      message:
        "Staged for approval (skills.write_approval is on). Not yet saved — review with skillrt pending.",
    };
  });
}

/** A record file that could not be read as a record. */
export interface PendingProblem {
  /** The record's id (its file name). */
  id: string;
  /** What is wrong. */
  error: string;
}

function parseRecord(id: string, text: string): PendingRecord | PendingProblem {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      id,
      error: `Pending record '${id}' does not parse (${
        (error as Error).message
      }); it is not applied.`,
    };
  }
  if (!isMapping(data) || !isMapping(data.payload) || typeof data.payload.action !== "string") {
    return { id, error: `Pending record '${id}' is not a valid record; it is not applied.` };
  }
  return data as unknown as PendingRecord;
}

/** Every record, oldest first, and the files that are not valid records. */
export function listPending(
  home: string,
): { records: PendingRecord[]; problems: PendingProblem[] } {
  const records: PendingRecord[] = [];
  const problems: PendingProblem[] = [];
  for (const name of recordFiles(home)) {
    const id = name.slice(0, 8);
    const parsed = parseRecord(id, Deno.readTextFileSync(joinPath(pendingDir(home), name)));
    if ("payload" in parsed) records.push(parsed);
    else problems.push(parsed);
  }
  records.sort((
    a,
    b,
  ) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  return { records, problems };
}

/** One record by id; throws the message of for an unknown id, and for an unparseable record. */
export function readPending(home: string, id: string): PendingRecord {
  if (!/^[0-9a-f]{8}$/.test(id)) {
    throw new NotFoundError(`No pending skills write with id '${id}'.`);
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(joinPath(pendingDir(home), `${id}.json`));
  } catch {
    throw new NotFoundError(`No pending skills write with id '${id}'.`);
  }
  const parsed = parseRecord(id, text);
  if (!("payload" in parsed)) throw new ValidationError(parsed.error);
  return parsed;
}

/** Removes a record (after approval, or on rejection). */
export async function removePending(home: string, id: string): Promise<void> {
  await withLock(
    queueTarget(home),
    () => Deno.removeSync(joinPath(pendingDir(home), `${id}.json`)),
  );
}

/** Keeps a record whose approval failed, with the error. */
export async function markFailed(
  home: string,
  record: PendingRecord,
  error: string,
  now = new Date(),
): Promise<void> {
  await withLock(queueTarget(home), () => {
    atomicWriteJson(joinPath(pendingDir(home), `${record.id}.json`), {
      ...record,
      error,
      failed_at: now.toISOString(),
    });
  });
}
