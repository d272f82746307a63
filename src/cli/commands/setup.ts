/**
 * `setup NAME` ([V-9]): asks at the warden's terminal for what the skill still needs and
 * stores it (`<home>/.env`, `skills.config`); without a terminal it refuses (exit 2),
 * listing what is missing.
 *
 * @module
 */
import { dotenvFile } from "../../home/config_write.ts";
import { runSkillSetup, setupNeeds } from "../../home/skill_setup.ts";
import { lockedWritePaths } from "../../manage/mutex.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { UsageError } from "../../errors.ts";
import type { ExecuteContext } from "../context.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

function needsOf(runtime: SkillRuntime, request: CommandRequest) {
  const name = request.args[0];
  if (!name) throw new UsageError("'setup' needs a skill name.");
  return setupNeeds(name, runtime.catalog(), runtime.setup, runtime.envNames());
}

/** The paths `setup` writes: `.env` when a variable is missing, config.yaml when a config value is. */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const needs = needsOf(runtime, request);
  return [
    ...(needs.env.length ? lockedWritePaths(dotenvFile(runtime.setup.home)) : []),
    ...(needs.config.length ? lockedWritePaths(runtime.setup.configFile) : []),
  ];
}

/** Runs `setup`. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const result = await runSkillSetup(needsOf(runtime, request), runtime.setup, ctx.ask);
  return respond(request.global, result, () =>
    [
      result.message,
      ...(result.stillMissing.length ? [`Still missing: ${result.stillMissing.join(", ")}`] : []),
    ].join("\n"));
}
