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
