/**
 * The actions of the commands that have them besides `hub` (whose rows are in
 * `commands/hub_plan.ts` and `commands/hub.ts`): `bundle`, `pending`, `curator`, one row
 * an action, as the warden plans it — whether it writes, and the folders below the home it
 * needs made first ([H-1], [X-6]). Their grammar's choices are these rows' names; what
 * each writes is its command module's `targets`.
 *
 * @module
 */
import type { HomeLayout } from "../home/layout.ts";
import type { CommandRow, PlannedLine } from "./command_row.ts";

/** One action of a command, as the warden plans it. */
export interface ActionRow {
  /** It writes, though its command reads ([B-3]: `bundle create|edit|delete`). */
  writes?: true;
  /** The folders below the home it needs made before it is planned; none when absent. */
  skeleton?: (request: PlannedLine, setup: HomeLayout) => string[];
}

const queued = (_: PlannedLine, setup: HomeLayout) =>
  setup.config.write_approval ? ["pending/skills"] : [];
const bundleWrite: ActionRow = { writes: true, skeleton: queued };

/** `bundle`'s actions ([B-2], [B-3]): writing ones go through the manager, staged with approval on. */
export const BUNDLE_ACTION_ROWS: Readonly<Record<string, ActionRow>> = {
  list: {},
  show: {},
  create: bundleWrite,
  edit: bundleWrite,
  delete: bundleWrite,
};

const queue = () => ["skills", "pending/skills"];

/** `pending`'s actions ([A-2]): approving or rejecting works the queue and the local root. */
export const PENDING_ACTION_ROWS: Readonly<Record<string, ActionRow>> = {
  list: {},
  diff: {},
  approve: { skeleton: queue },
  reject: { skeleton: queue },
};

const skills = () => ["skills"];
const unlessDry = (request: PlannedLine) => request.options.dryRun === true ? [] : ["skills"];

/** `curator`'s actions ([U-2]): moving skills and pinning them write the local root. */
export const CURATOR_ACTION_ROWS: Readonly<Record<string, ActionRow>> = {
  status: {},
  run: { skeleton: unlessDry },
  pin: { skeleton: skills },
  unpin: { skeleton: skills },
  restore: { skeleton: unlessDry },
};

/** The names of a command's actions, in the order help lists them. */
export const actionNames = (rows: Readonly<Record<string, ActionRow>>): string[] =>
  Object.keys(rows);

/** The skeleton of a command with actions: that of the action its line names (the first word). */
export function actionSkeleton(
  rows: Readonly<Record<string, ActionRow>>,
): NonNullable<CommandRow["skeleton"]> {
  return (request, setup) => {
    const action = request.args[0] ?? "";
    return Object.hasOwn(rows, action) ? rows[action].skeleton?.(request, setup) ?? [] : [];
  };
}

/** The actions that write, of a reading command with actions. */
export function writingActions(rows: Readonly<Record<string, ActionRow>>): string[] {
  return Object.entries(rows).flatMap(([name, row]) => row.writes ? [name] : []);
}
