/**
 * `bundle [list]`, `bundle show NAME` ([B-2]), and `bundle create|edit|delete NAME`
 * ([B-3]), which write through the manager like the skill actions.
 *
 * @module
 */
import { type Bundle, loadBundles } from "../../bundles/bundles.ts";
import { classifyMemberError } from "../../bundles/invoke_bundle.ts";
import { NotFoundError, UsageError } from "../../errors.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { closestNames } from "../../resolve/name_guard.ts";
import { clip, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";
import { BUNDLE_WRITE_ACTIONS } from "../../manage/change.ts";
import { run as runManage } from "./manage.ts";

/** `bundle create|edit|delete NAME` write what the manager says, like the skill actions ([B-3]). */
export { targets } from "./manage.ts";
import { unknownChoice } from "../command_grammar.ts";
import { actionNames, BUNDLE_ACTION_ROWS } from "../action_rows.ts";

/** Runs `bundle`. */
export function run(runtime: SkillRuntime, request: CommandRequest): Outcome | Promise<Outcome> {
  const [action = "list", name] = request.args;
  if (BUNDLE_WRITE_ACTIONS.includes(action)) {
    if (name === undefined) throw new UsageError(`'bundle ${action}' needs a bundle name.`);
    return runManage(runtime, request);
  }
  const { bundles, diagnostics } = loadBundles(runtime.setup.home);
  const stderr = diagnostics.map((d) => `skillrt: ${d.path}: ${d.message}\n`).join("");
  if (action === "list") {
    const doc = { success: true, bundles, count: bundles.length, diagnostics };
    return respond(
      request.global,
      doc,
      () =>
        bundles.length === 0 ? "No bundles found." : table(
          ["BUNDLE", "SKILLS", "DESCRIPTION"],
          bundles.map((b) => [b.name, String(b.skills.length), clip(b.description, 80)]),
          request.global.color,
        ),
      0,
      stderr,
    );
  }
  if (action !== "show") {
    throw unknownChoice("bundle action", action, actionNames(BUNDLE_ACTION_ROWS));
  }
  if (name === undefined) throw new UsageError("'bundle show' needs a bundle name.");
  const bundle = bundles.find((b) => b.name === name);
  if (!bundle) {
    throw new NotFoundError(`Bundle '${name}' not found.`, {
      available_bundles: closestNames(name, bundles.map((b) => b.name)),
    });
  }
  return show(runtime, request, bundle, stderr);
}

/** `bundle show NAME`: the bundle and each member's state. */
function show(
  runtime: SkillRuntime,
  request: CommandRequest,
  bundle: Bundle,
  stderr: string,
): Outcome {
  const catalog = runtime.catalog();
  const members = bundle.skills.map((member) => {
    try {
      return {
        name: member,
        status: "available",
        path: runtime.resolveIn(member, catalog).record.path,
      };
    } catch (error) {
      const outcome = classifyMemberError(member, error);
      return {
        name: member,
        status: outcome.status,
        ...("error" in outcome ? { error: outcome.error } : {}),
      };
    }
  });
  const doc = { success: true, bundle, members };
  const { global } = request;
  return respond(
    global,
    doc,
    () =>
      [
        `${bundle.name}: ${bundle.description}`,
        ...(bundle.instruction ? [`Instruction: ${bundle.instruction}`] : []),
        "",
        table(["SKILL", "STATUS"], members.map((m) => [m.name, m.status]), global.color),
      ].join("\n"),
    0,
    stderr,
  );
}
