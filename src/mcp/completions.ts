/**
 * `completion/complete` ([IO-4]): skill names for the `{name}` of the resource templates
 * and for a prompt argument that names a skill (`name`, `skill`, `…-skill`), matched by
 * prefix without regard to case, at most 100 values with `total` and `hasMore`. Anything
 * else — another argument, a prompt or template this server does not have — completes to
 * nothing (an empty answer, as the protocol allows). Pure.
 *
 * @module
 */

/** The answer of `completion/complete`. */
export interface Completion {
  /** The values, best first (here: in name order). */
  values: string[];
  /** How many values match in all. */
  total: number;
  /** True when more match than are given. */
  hasMore: boolean;
}

/** The protocol's cap on values in one answer. */
export const MAX_COMPLETIONS = 100;

/** What is being completed: a prompt's argument, or a resource template's variable. */
export type CompletionRef =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** True when an argument of a prompt is a skill's name. */
function namesSkill(argument: string): boolean {
  return /^(name|skill|skill[-_]name)$|[-_]skill$/i.test(argument);
}

/** True when a resource template's variable is a skill's name (`skill://{name}…`). */
function templateNamesSkill(uri: string, argument: string): boolean {
  return argument === "name" && uri.startsWith("skill://{name}");
}

/** The names starting with `prefix`, case aside, sorted, capped. */
export function completeNames(names: readonly string[], prefix: string): Completion {
  const p = prefix.toLowerCase();
  const matches = names.filter((n) => n.toLowerCase().startsWith(p)).sort();
  return {
    values: matches.slice(0, MAX_COMPLETIONS),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}

/**
 * The completion of one argument; `names` gives the skill names the ref offers (prompts:
 * the slash path's; templates: the model's), or undefined when the prompt is not there.
 */
export async function complete(
  ref: CompletionRef,
  argument: { name: string; value: string },
  names: (ref: CompletionRef) => Promise<string[] | undefined>,
): Promise<Completion> {
  const none: Completion = { values: [], total: 0, hasMore: false };
  const wanted = ref.type === "ref/prompt"
    ? namesSkill(argument.name)
    : templateNamesSkill(ref.uri, argument.name);
  if (!wanted) return none;
  const offered = await names(ref);
  return offered === undefined ? none : completeNames(offered, argument.value);
}
