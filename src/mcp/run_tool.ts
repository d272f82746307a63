/**
 * The MCP tool `skill_run` ([RUN-3]), offered only by `mcp --allow-run`: one script of a
 * skill run in its sandbox, in the server's working directory (or `mcp --workdir DIR`), with
 * stdin closed. It runs
 * only what the user may run without being asked — the user's own local skill's script (not
 * created or changed through MCP), or a skill's files the user approved with its grant at
 * the CLI; an MCP client can never approve.
 *
 * @module
 */
import type { SkillRuntime } from "../runtime.ts";
import type { RunResult } from "../run/run_skill.ts";

/** Runs a `skill_run` call whose arguments were checked against its schema (`RUN_TOOL`, `tools.ts`). */
export function callRunTool(
  rt: SkillRuntime,
  args: Record<string, unknown>,
  workdir?: string,
): Promise<RunResult> {
  return rt.run(String(args.name), String(args.path), {
    workdir,
    args: Array.isArray(args.args) ? (args.args as string[]) : [],
    timeoutSeconds: typeof args.timeout === "number" ? args.timeout : undefined,
    approvedOnly: true,
    stdin: "null",
    audience: "model",
  });
}
