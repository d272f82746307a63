/**
 * Assertions on a value itself, where `equal(text.includes(part), true)` would say only
 * "false !== true": a failure shows the text, the list or the start that was there.
 */
import { fail } from "node:assert/strict";

/** A text or a list, as `includes` and `startsWith` look at it. */
type Holder = string | readonly unknown[] | null | undefined;

function shown(value: unknown): string {
  return Deno.inspect(value, { depth: 4, strAbbreviateSize: 4000, iterableLimit: 200 });
}

/** Asserts that `actual` (a text or a list) holds `part`. */
export function assertIncludes(actual: Holder, part: unknown, message?: string): void {
  if ((actual as { includes(p: unknown): boolean } | undefined)?.includes(part)) return;
  fail(`${message ? `${message}: ` : ""}expected ${shown(part)} in ${shown(actual)}`);
}

/** Asserts that `actual` is a text or a list, and does not hold `part` (nothing there fails). */
export function assertExcludes(actual: Holder, part: unknown, message?: string): void {
  if (actual !== null && actual !== undefined && !actual.includes(part as never)) return;
  fail(`${message ? `${message}: ` : ""}expected no ${shown(part)} in ${shown(actual)}`);
}

/** Asserts that the text `actual` begins with `start`. */
export function assertStartsWith(
  actual: string | null | undefined,
  start: string,
  message?: string,
): void {
  if (actual?.startsWith(start)) return;
  fail(`${message ? `${message}: ` : ""}expected ${shown(actual)} to begin with ${shown(start)}`);
}
