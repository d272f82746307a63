/**
 * The words `search` ranks by ([L0-7]): a text is cut into words (letters and digits;
 * `slack-gif-creator` is three), a query's stop words ("a", "for", "the", …) do not match
 * on their own, and a query word matches a word that equals it or — three letters or more
 * — begins with it (`gif` matches `gifs`), never a piece inside a word (`a` is not in
 * `bash`).
 *
 * @module
 */

/** Words too common to tell skills apart; a query of only these keeps them. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a an and any are as at be by can do for from how i in into is it its me my of on or our so " +
    "some that the their this to up use using want we what when which with you your")
    .split(" "),
);

/** The lowercase words of `text`. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/** The words of a query that count: its stop words dropped, unless nothing else is left. */
export function queryWords(query: string): string[] {
  const words = [...new Set(wordsOf(query))];
  const kept = words.filter((w) => !STOP_WORDS.has(w));
  return kept.length ? kept : words;
}

/** How `term` matches `words`: `exact`, `prefix` (a term of three letters or more), or none. */
export function wordMatch(term: string, words: readonly string[]): "exact" | "prefix" | undefined {
  if (words.includes(term)) return "exact";
  if (term.length >= 3 && words.some((w) => w.startsWith(term))) return "prefix";
  return undefined;
}
