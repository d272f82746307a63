/**
 * `invoke NAME [INSTRUCTION…] [--args TEXT] [--strict]` ([V-7]).
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs `invoke`: prints the message an agent injects for a slash-command invocation. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [name, ...words] = request.args;
  const args = typeof request.options.args === "string" ? request.options.args : undefined;
  const instruction = words.length ? words.join(" ") : undefined;
  const doc = await runtime.invoke(name, instruction, {
    strict: request.options.strict === true,
    allowUntrusted: request.options.allowUntrusted === true,
    args,
  });
  return respond(request.global, doc, () => doc.message);
}
