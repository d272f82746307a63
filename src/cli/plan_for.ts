/**
 * A command's permission plan by its name ([X-1]): the warden's plan
 * (`src/warden/plan.ts`) from what the command's row of the command table says it needs.
 * The library's `planFor` and `SandboxedRuntime.plan`, the CLI's planning and `sandbox`.
 *
 * @module
 */
import type { HomeLayout } from "../home/layout.ts";
import { type PermissionPlan, planOf } from "../warden/plan.ts";
import type { CommandRequest } from "../worker/request.ts";
import { rowOf } from "./command_table.ts";

/**
 * The plan for `command` (an empty one for a name with no plan of its own). `paths` are
 * extra paths the command was given to read (`validate PATH…`); `writes` are the paths a
 * writing command's first step found it will write; `preprocesses` says a command that
 * does not usually preprocess does this time (`prompt --preload`, [L0-10]).
 */
export function planFor(
  command: string,
  setup: HomeLayout,
  paths: string[] = [],
  writes: string[] = [],
  preprocesses = false,
): PermissionPlan {
  return planOf(command, rowOf(command) ?? {}, setup, paths, writes, preprocesses);
}

/** Whether a request preprocesses skills it does not usually load (its row's `preloads`: `prompt --preload`, [L0-10]). */
export function preloads(request: CommandRequest): boolean {
  return rowOf(request.command)?.preloads?.(request.options) === true;
}
