/**
 * The name guard of: what a skill name (or a file path inside a skill) may be,
 * checked before anything touches the disk. Pure.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { isAbsoluteAnywhere } from "../home/paths.ts";

/** The hint that goes with every name-guard error. */
export const NAME_HINT = "Use a skill name or relative path within the skills directory.";

/**
 * The longest name looked up: no longer path can name a file (Linux's PATH_MAX), and a
 * longer name would cost its length times every skill's name in suggestions ([R-4]).
 */
export const MAX_NAME_CHARS = 4096;

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** True when the path has a `..` component (either separator). */
export function hasTraversal(p: string): boolean {
  return p.split(/[\\/]/).includes("..");
}

/** Quotes a value for an error message, showing control characters escaped. */
export function quoted(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** A bare skill name: neither a `category/name` path nor a `plugin:name` ([R-2]). */
export function isBareName(name: string): boolean {
  return name !== "" && !name.includes("/") && !name.includes(":");
}

/**
 * Throws the error for a name that is empty, longer than {@linkcode MAX_NAME_CHARS},
 * has control characters, is absolute or climbs out.
 */
export function guardName(name: unknown): string {
  if (typeof name !== "string" || name.trim() === "") {
    throw new ValidationError("Skill name must be a non-empty string.", { hint: NAME_HINT });
  }
  if (name.length > MAX_NAME_CHARS) {
    throw new ValidationError(
      `Skill name is ${name.length} characters long; the limit is ${MAX_NAME_CHARS}.`,
      { hint: NAME_HINT },
    );
  }
  if (CONTROL.test(name)) {
    throw new ValidationError(`Skill name '${quoted(name)}' contains NUL or control characters.`, {
      hint: NAME_HINT,
    });
  }
  if (isAbsoluteAnywhere(name)) {
    throw new ValidationError("Skill name must be a relative path within the skills directory.", {
      hint: NAME_HINT,
    });
  }
  if (hasTraversal(name)) {
    throw new ValidationError("Skill name cannot contain '..' path traversal components.", {
      hint: NAME_HINT,
    });
  }
  return name;
}

/** Edit distance between two strings (for "closest first" suggestions). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The names a typo most likely meant ([C-8]): within a small edit distance of `name` (at
 * most 2, or a quarter of its length, unless `most` says otherwise), or one a prefix of the
 * other; closest first, at most `limit`. Empty when nothing is close.
 */
export function suggestedNames(
  name: string,
  names: Iterable<string>,
  limit = 5,
  most: number = Math.max(2, Math.floor(compared(name).length / 4)),
): string[] {
  const q = compared(name);
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const prefix = q.length >= 3 && (l.startsWith(q) || q.startsWith(l));
      return { n, d: editDistance(q, l), prefix };
    })
    .filter((x) => x.d <= most || x.prefix)
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.n);
}

/**
 * A name as compared with others: lower case, its first 256 characters (no skill name is
 * near a longer one, and each comparison costs the product of both lengths).
 */
function compared(name: string): string {
  return name.slice(0, 256).toLowerCase();
}

/** Up to `limit` names, closest to `name` first (names containing it count as closer). */
export function closestNames(name: string, names: Iterable<string>, limit = 20): string[] {
  const q = compared(name);
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const bonus = l.includes(q) || q.includes(l) ? -100 : 0;
      return { n, d: editDistance(q, l) + bonus };
    })
    .sort((a, b) => a.d - b.d || (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
    .slice(0, limit)
    .map((x) => x.n);
}
