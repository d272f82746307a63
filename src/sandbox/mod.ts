/**
 * The sandbox ([X-1..6] in SPEC.md): permission plans, the Deno Worker permissions and
 * `deno run` flags they stand for, the fence every write grant must pass, and the runtime
 * run in a Worker with a computed plan.
 *
 * @example
 * ```ts
 * import { resolveHomeLayout } from "@skillrt/skillrt";
 * import { planFlags, planFor } from "@skillrt/skillrt/sandbox";
 *
 * const plan = planFor("view", resolveHomeLayout({ home: "examples/home" }));
 * console.log(planFlags(plan).join(" "));
 * ```
 *
 * @module
 */
export { type PermissionPlan, planFlags, workerPermissions } from "../warden/plan.ts";
export { planFor } from "../cli/plan_for.ts";
export { openSandboxedRuntime, type SandboxedRuntime } from "./sandboxed_runtime.ts";
export {
  checkWrites,
  type FenceAdmits,
  unsafeWrite,
  type WriteFence,
  writeFence,
} from "../warden/write_guard.ts";
