/**
 * `pending [list]`, `pending diff ID`, `pending approve ID|all`, `pending reject ID|all` ([A-2]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { unknownChoice } from "../command_grammar.ts";
import { actionNames, PENDING_ACTION_ROWS } from "../action_rows.ts";
import { findingLine } from "../../manage/guard.ts";
import { SkillManager } from "../../manage/manager.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { clip, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** The actions of `pending`. */
export const PENDING_ACTIONS: readonly string[] = actionNames(PENDING_ACTION_ROWS);

/** One `pending` call as each action sees it. */
interface PendingCall {
  manager: SkillManager;
  global: CommandRequest["global"];
  /** The pending id (`all` for approve and reject), when given. */
  id?: string;
  /** The action's name. */
  action: string;
}

/** The id an action cannot do without. */
function needId({ id, action }: PendingCall): string {
  if (id === undefined) {
    throw new UsageError(
      `'pending ${action}' needs an id${action === "diff" ? "" : " (or 'all')"}.`,
    );
  }
  return id;
}

function list({ manager, global }: PendingCall): Outcome {
  const doc = manager.pending();
  const stderr = doc.problems.map((p) => `skillrt: ${p.error}\n`).join("");
  const rows = doc.pending.map((p) => [
    p.id,
    p.action,
    p.createdAt,
    p.scanVerdict ?? "-",
    clip(p.summary + (p.error ? ` (failed: ${p.error})` : ""), 90),
  ]);
  return respond(
    global,
    doc,
    () =>
      doc.count === 0
        ? "No pending skills writes."
        : table(["ID", "ACTION", "CREATED", "SCAN", "SUMMARY"], rows, global.color),
    doc.problems.length ? 1 : 0,
    stderr,
  );
}

function diff(call: PendingCall): Outcome {
  const doc = call.manager.diff(needId(call));
  const scan = doc.scanVerdict
    ? [`Scan: ${doc.scanVerdict}`, ...(doc.scanFindings ?? []).map(findingLine)]
    : [];
  return respond(call.global, doc, () => doc.diff, 0, scan.map((l) => `${l}\n`).join(""));
}

async function approve(call: PendingCall): Promise<Outcome> {
  const doc = await call.manager.approve(needId(call));
  return respond(
    call.global,
    doc,
    () =>
      [
        ...doc.approved.map((a) => `Approved: ${a.message}`),
        ...doc.failed.map((f) => `Failed ${f.id}: ${f.error} (kept pending)`),
      ].join("\n") || "Nothing to approve.",
    doc.success ? 0 : 1,
  );
}

async function reject(call: PendingCall): Promise<Outcome> {
  const doc = await call.manager.reject(needId(call));
  return respond(
    call.global,
    doc,
    () => doc.rejected.length ? `Rejected: ${doc.rejected.join(", ")}` : "Nothing to reject.",
  );
}

/** Every action of `pending`, by name. */
const ACTIONS: Readonly<Record<string, (call: PendingCall) => Outcome | Promise<Outcome>>> = {
  list,
  diff,
  approve,
  reject,
};

/** Runs `pending`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [action = "list", id] = request.args;
  const manager = new SkillManager(runtime.setup);
  const act = PENDING_ACTIONS.includes(action) ? ACTIONS[action] : undefined;
  if (!act) {
    throw unknownChoice("pending action", action, PENDING_ACTIONS);
  }
  return await act({ manager, global: request.global, id, action });
}

/** `pending approve|reject ID`'s write targets: the queue, and what approving applies. */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const manager = new SkillManager(runtime.setup);
  const [action, id] = request.args;
  if (action === "approve" && id) return manager.approveTargets(id);
  if (action === "reject" && id) return manager.queueTargets();
  return [];
}
