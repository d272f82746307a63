/**
 * How skill names are compared ([M-6]): after Unicode NFKC normalisation, so a folder
 * named with a precomposed `é` and a `name:` written with `e` + combining accent are one
 * name — as the Agent Skills reference validator compares them. Every comparison of
 * names (folder against `name:`, resolution by name, duplicates, disabled lists) goes
 * through {@linkcode nameKey}.
 *
 * @module
 */

/** The form a name is compared in: its Unicode NFKC normalisation. */
export function nameKey(name: string): string {
  return name.normalize("NFKC");
}

/** True when two names are the same name once normalised ([M-6]). */
export function sameName(a: string, b: string): boolean {
  return a === b || nameKey(a) === nameKey(b);
}

/**
 * The form in which an install compares a new skill's names with those already there
 * ([S-1], [HUB-2]): NFKC, then case folded, then NFKC again (folding can undo it). Wider
 * than {@linkcode nameKey}: `HELLO`, `Hello` and fullwidth `ｈｅｌｌｏ` are all `hello`, so a
 * new skill can never sit beside one of those under a name that only looks different.
 */
export function collisionKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().normalize("NFKC");
}
