/**
 * `curator status|run [--dry-run] [--agent-created]|pin NAME|unpin NAME|restore NAME [--now T]` ([U-2]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { unknownChoice } from "../command_grammar.ts";
import { actionNames, CURATOR_ACTION_ROWS } from "../action_rows.ts";
import type { SkillRuntime } from "../../runtime.ts";
import {
  curatorRun,
  curatorStatus,
  restoreArchived,
  restoreOrigin,
  setPinned,
} from "../../usage/curator.ts";
import { joinPath } from "../../home/paths.ts";
import { creationTarget } from "../../manage/apply.ts";
import { validateName } from "../../manage/validation.ts";
import { readUsage, usageWritePaths } from "../../usage/usage.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** The actions of `curator`. */
export const CURATOR_ACTIONS: readonly string[] = actionNames(CURATOR_ACTION_ROWS);

/** The time a curator request judges by: `--now`, else the clock. */
export function nowOf(request: CommandRequest): Date {
  const raw = request.options.now;
  if (typeof raw !== "string") return new Date();
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) {
    throw new UsageError(
      `Invalid --now '${raw}'; use an ISO 8601 time such as 2026-01-31T12:00:00Z.`,
    );
  }
  return date;
}

/** Runs `curator`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [action = "status", name] = request.args;
  if (!CURATOR_ACTIONS.includes(action)) {
    throw unknownChoice("curator action", action, CURATOR_ACTIONS);
  }
  const now = nowOf(request);
  const root = runtime.setup.localRoot;
  const records = () => runtime.catalog().index().records;
  const { global } = request;
  const options = { agentCreated: request.options.agentCreated === true };
  const by = (s: { name: string; daysUnused: number; createdBy: string | null }) =>
    `${s.name} (${s.daysUnused}d${s.createdBy ? `, by ${s.createdBy}` : ""})`;
  if (action === "status") {
    const doc = curatorStatus(root, records(), now, options);
    return respond(global, doc, () =>
      [
        `Stale (unused ${14}+ days): ${doc.stale.map(by).join(", ") || "none"}`,
        `Archivable (unused 30+ days): ${doc.archivable.map(by).join(", ") || "none"}`,
        `Pinned: ${doc.pinned.join(", ") || "none"}`,
        `Archived: ${
          doc.archived.map((a) => `${a.name} (from ${a.originPath})`).join(", ") || "none"
        }`,
        `Agent-created: ${doc.agentCreated.join(", ") || "none"}`,
      ].join("\n"));
  }
  if (action === "run") {
    const doc = await curatorRun(root, records(), now, request.options.dryRun === true, options);
    const only = doc.agentCreatedOnly ? " (agent-created skills only)" : "";
    return respond(global, doc, () =>
      [
        `${doc.dryRun ? "Would archive" : "Archived"}${only}: ${doc.archived.join(", ") || "none"}`,
        `Stale: ${doc.markedStale.join(", ") || "none"}`,
        ...doc.problems,
      ].join("\n"));
  }
  if (name === undefined) throw new UsageError(`'curator ${action}' needs a skill name.`);
  if (action === "restore") {
    const doc = await restoreArchived(root, name, now);
    return respond(global, doc, () => `Restored '${doc.name}' to ${doc.path}.`);
  }
  const doc = await setPinned(root, records(), name, action === "pin");
  return respond(global, doc, () => `${doc.pinned ? "Pinned" : "Unpinned"} '${doc.name}'.`);
}

/** `curator run|pin|unpin|restore`'s write targets: the archive, the skills it moves, the home's counters. */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const local = runtime.setup.localRoot;
  const [action, arg] = request.args;
  const usage = usageWritePaths(local);
  if (action === "run" && request.options.dryRun !== true) {
    const status = curatorStatus(local, runtime.catalog().index().records, nowOf(request), {
      agentCreated: request.options.agentCreated === true,
    });
    const moved = status.archivable.map((s) => joinPath(local, s.path));
    return moved.length ? [joinPath(local, ".archive"), ...moved, ...usage] : usage;
  }
  if ((action === "pin" || action === "unpin") && arg) return usage;
  if (action === "restore" && arg) return restoreTargets(local, arg, usage);
  return [];
}

/** `curator restore NAME`: its archived folder, the folder it returns to, the counters. */
function restoreTargets(local: string, name: string, usage: string[]): string[] {
  validateName(name);
  let recorded: string | null | undefined;
  try {
    recorded = readUsage(local)[name]?.origin_path;
  } catch {
    // A corrupt usage file is reported by the command itself.
  }
  const origin = restoreOrigin(name, recorded);
  return [
    joinPath(local, ".archive", name),
    creationTarget(local, joinPath(local, origin)),
    ...usage,
  ];
}
