/**
 * Quoting a word for a POSIX shell, for the command lines skillrt prints (`sandbox`,
 * `sandbox run`). A leaf: it imports nothing.
 *
 * @module
 */

/** Quotes a shell word when it needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\-./=,:@%+]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
