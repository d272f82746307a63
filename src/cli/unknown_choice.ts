/**
 * The usage error of a word that is none of its choices (a sub-action, a shell, a profile):
 * one place for every group of sub-actions.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { suggestedNames } from "../resolve/name_guard.ts";

/**
 * The usage error of a word that is none of `choices` (a sub-action, a shell, a profile),
 * with the closest choice suggested when one is close: `Unknown hub action 'instal'; did you
 * mean install? Use install, search, ….` One place for every group of sub-actions.
 */
export function unknownChoice(what: string, given: string, choices: readonly string[]): UsageError {
  // A short word is near another only by a third of its letters ('tcsh' is not 'bash').
  const [close] = suggestedNames(given, choices, 1, Math.max(1, Math.floor(given.length / 3)));
  const use = `se ${choices.join(", ")}.`;
  return new UsageError(
    `Unknown ${what} '${given}'; ${
      close === undefined ? `u${use}` : `did you mean ${close}? U${use}`
    }`,
  );
}
