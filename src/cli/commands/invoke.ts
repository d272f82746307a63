/**
 * `invoke NAME [INSTRUCTION…] [--args TEXT] [--strict]` ([V-7]).
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** `invoke NAME --help`: the command's help, then the skill's arguments ([IO-3]). */
async function skillHelp(runtime: SkillRuntime, request: CommandRequest, help: string) {
  const { record } = await runtime.resolve(request.args[0]);
  const hint = record.invocation.argumentHint ?? null;
  const doc = { success: true, name: record.name, argumentHint: hint, help };
  const about = hint === null
    ? `'${record.name}' declares no argument-hint; pass arguments with --args TEXT.`
    : `Arguments of '${record.name}' (argument-hint): ${hint}\n  pass them with --args '…' (they fill $ARGUMENTS).`;
  return respond(request.global, doc, () => `${help.trimEnd()}\n\n${about}`);
}

/** Runs `invoke`: prints the message an agent injects for a slash-command invocation. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const help = request.options.helpText;
  if (typeof help === "string") return await skillHelp(runtime, request, help);
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
