/**
 * The one test for "a plain mapping" that every reader of untyped data (YAML frontmatter,
 * config, JSON state files) uses: an object that is not an array, a date or null.
 *
 * @module
 */

/** A plain mapping of string keys to unknown values. */
export type Mapping = Record<string, unknown>;

/** True for a plain object (a YAML mapping or JSON object), not an array, date or null. */
export function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date);
}
