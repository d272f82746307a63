/**
 * Who reads an answer ([IO-3]): `people` (the CLI, the slash path) see every skill; the
 * `model` (the `prompt` block and every model-facing MCP path: tools, resources,
 * completions of their arguments) never sees a skill with `disable-model-invocation` —
 * not listed, not found, not named among the close names of a not-found answer.
 *
 * @module
 */
import type { SkillRecord } from "./record.ts";

/** Who reads an answer: `people` or the `model`. */
export type Audience = "people" | "model";

/** True when `audience` may see the skill: always for people; for the model, not a `disable-model-invocation` skill. */
export function shownTo(record: SkillRecord, audience: Audience = "people"): boolean {
  return audience === "people" || record.invocation.disableModelInvocation !== true;
}
