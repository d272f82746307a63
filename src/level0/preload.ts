/**
 * The skills of `prompt --preload a,b` ([L0-10]): each loaded as `view` loads it
 * (preprocessed, sanitised, refused on an injection), once, in the order named; a name
 * that does not load is an error of its own family saying which preload failed. A skill
 * with `disable-model-invocation: true` is never put before the model ([IO-3]): naming it
 * is a usage error.
 *
 * @module
 */
import { SkillrtError, UsageError } from "../errors.ts";
import type { PreloadedSkill } from "./prompt.ts";

/** Loads the named skills with `read` (which counts no use). */
export async function preloadSkills(
  names: readonly string[],
  read: (
    name: string,
  ) => Promise<{ view: { name: string; content: string; disableModelInvocation: boolean } }>,
): Promise<PreloadedSkill[]> {
  const preloaded: PreloadedSkill[] = [];
  for (const name of names) {
    const { view } = await read(name).catch((error) => {
      if (!(error instanceof SkillrtError)) throw error;
      const Class = error.constructor as typeof SkillrtError;
      throw new Class(`Cannot preload '${name}': ${error.message}`, error.details, error.exitCode);
    });
    if (view.disableModelInvocation) {
      throw new UsageError(
        `Cannot preload '${view.name}': it sets disable-model-invocation, so it is never put before the model; invoke it by name (skillrt invoke ${view.name}).`,
      );
    }
    if (!preloaded.some((p) => p.name === view.name)) {
      preloaded.push({ name: view.name, content: view.content });
    }
  }
  return preloaded;
}
