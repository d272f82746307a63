/**
 * `prompt [--format xml|markdown|json] [--budget-chars N] [--preload a,b]` ([L0-8], [L0-10]).
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import type { PromptFormat } from "../../level0/prompt.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs `prompt`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const format = (request.options.format ?? "xml") as string;
  if (!["xml", "markdown", "json"].includes(format)) {
    throw new UsageError(`Unknown prompt format '${format}'; use xml, markdown or json.`);
  }
  let budget: number | undefined;
  if (request.options.budgetChars !== undefined) {
    budget = Number(request.options.budgetChars);
    if (!Number.isInteger(budget) || budget < 0) {
      throw new UsageError(
        `Budget '${request.options.budgetChars}' must be a whole number of characters.`,
      );
    }
  }
  let preload: string[] | undefined;
  if (typeof request.options.preload === "string") {
    preload = request.options.preload.split(",").map((n) => n.trim()).filter((n) => n !== "");
    if (preload.length === 0) {
      throw new UsageError("--preload needs skill names, comma-separated (e.g. --preload a,b).");
    }
  }
  const doc = await runtime.prompt({
    format: format as PromptFormat,
    budgetChars: budget,
    preload,
  });
  const dropped = doc.descriptionsDropped.length
    ? `; descriptions dropped: ${doc.descriptionsDropped.join(", ")}`
    : "";
  const over = doc.overBudget ? "; still over budget with every description dropped" : "";
  const preloaded = doc.preloaded.length ? `; preloaded: ${doc.preloaded.join(", ")}` : "";
  const summary = `${plural(doc.count, "skill")}, ${plural(doc.chars, "character")}, ~${
    plural(doc.estimatedTokens, "token")
  }${preloaded}${dropped}${over}\n`;
  return respond(request.global, doc, () => doc.prompt, 0, summary);
}
