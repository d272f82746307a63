/**
 * `enable NAME` and `disable NAME [--platform P]` ([V-10]): config.yaml is edited with its
 * comments and other keys kept; a name no skill answers to is still written, with a
 * warning (it may be installed later).
 *
 * @module
 */
import { configAfter, writeConfigEdits } from "../../home/config_write.ts";
import { lockedWritePaths } from "../../manage/mutex.ts";
import { type Toggle, toggleEdits } from "../../home/toggle.ts";
import { resolveSkill } from "../../resolve/resolve.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** The toggle a request asks for. */
export function toggleOf(request: CommandRequest): Toggle {
  // Only a platform typed on this command line: $HERMES_PLATFORM never narrows a toggle.
  const platform = request.global.platformOption;
  return {
    name: request.args[0],
    disable: request.command === "disable",
    ...(platform !== undefined ? { platform } : {}),
  };
}

/** The paths `enable`/`disable` write: config.yaml and its lock, or nothing when it already says so. */
export function targets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const edits = toggleEdits(toggleOf(request), runtime.setup.config);
  const { before, after } = configAfter(runtime.setup, edits);
  return before === after ? [] : lockedWritePaths(runtime.setup.configFile);
}

/** Runs `enable` or `disable`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const toggle = toggleOf(request);
  const edits = toggleEdits(toggle, runtime.setup.config);
  const changed = edits.length > 0 && await writeConfigEdits(runtime.setup, edits);
  const warnings: string[] = [];
  try {
    resolveSkill(toggle.name, runtime.catalog());
  } catch {
    const listed = toggle.disable ? "; the list names it anyway" : "";
    warnings.push(`No skill named '${toggle.name}' is known here${listed}.`);
  }
  const verb = toggle.disable ? "Disabled" : "Enabled";
  const where = toggle.platform ? ` on platform '${toggle.platform}'` : "";
  const file = runtime.setup.configFile;
  const message = changed
    ? `${verb} '${toggle.name}'${where} (${file}).`
    : `'${toggle.name}' was already ${
      toggle.disable ? "disabled" : "enabled"
    }${where}; ${file} is unchanged.`;
  const doc = {
    success: true as const,
    action: request.command,
    name: toggle.name,
    ...(toggle.platform ? { platform: toggle.platform } : {}),
    changed,
    configFile: file,
    message,
    ...(warnings.length ? { warnings } : {}),
  };
  return respond(
    request.global,
    doc,
    () => [message, ...warnings.map((w) => `Warning: ${w}`)].join("\n"),
  );
}
