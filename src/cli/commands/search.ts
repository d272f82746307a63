/**
 * `search QUERY` ([L0-7]).
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";
import { listText } from "./list.ts";

/** Runs `search`. */
export async function run(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const doc = await runtime.search(request.args.join(" "));
  return respond(request.global, doc, () => listText(doc, request.global, true));
}
