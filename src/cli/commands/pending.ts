/**
 * `pending [list]`, `pending diff ID`, `pending approve ID|all`, `pending reject ID|all` ([A-2]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { findingLine } from "../../manage/guard.ts";
import { SkillManager } from "../../manage/manager.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { clip, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** The actions of `pending`. */
export const PENDING_ACTIONS: readonly string[] = ["list", "diff", "approve", "reject"];

/** Runs `pending`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [action = "list", id] = request.args;
  const manager = new SkillManager(runtime.setup);
  const { global } = request;
  if (!PENDING_ACTIONS.includes(action)) {
    throw new UsageError(`Unknown pending action '${action}'; use ${PENDING_ACTIONS.join(", ")}.`);
  }
  if (action === "list") {
    const doc = manager.pending();
    const stderr = doc.problems.map((p) => `skillrt: ${p.error}\n`).join("");
    return respond(
      global,
      doc,
      () =>
        doc.count === 0 ? "No pending skills writes." : table(
          ["ID", "ACTION", "CREATED", "SCAN", "SUMMARY"],
          doc.pending.map((
            p,
          ) => [
            p.id,
            p.action,
            p.created_at,
            p.scan_verdict ?? "-",
            clip(p.summary + (p.error ? ` (failed: ${p.error})` : ""), 90),
          ]),
          global.color,
        ),
      doc.problems.length ? 1 : 0,
      stderr,
    );
  }
  if (id === undefined) {
    throw new UsageError(
      `'pending ${action}' needs an id${action === "diff" ? "" : " (or 'all')"}.`,
    );
  }
  if (action === "diff") {
    const doc = manager.diff(id);
    const scan = doc.scan_verdict
      ? [`Scan: ${doc.scan_verdict}`, ...(doc.scan_findings ?? []).map(findingLine)]
      : [];
    return respond(global, doc, () => doc.diff, 0, scan.map((l) => `${l}\n`).join(""));
  }
  if (action === "approve") {
    const doc = await manager.approve(id);
    return respond(
      global,
      doc,
      () =>
        [
          ...doc.approved.map((a) => `Approved: ${a.message}`),
          ...doc.failed.map((f) => `Failed ${f.id}: ${f.error} (kept pending)`),
        ]
          .join("\n") || "Nothing to approve.",
      doc.success ? 0 : 1,
    );
  }
  const doc = await manager.reject(id);
  return respond(
    global,
    doc,
    () => doc.rejected.length ? `Rejected: ${doc.rejected.join(", ")}` : "Nothing to reject.",
  );
}
