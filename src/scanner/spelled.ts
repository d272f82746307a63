/**
 * Words spelled so a pattern misses them, read as what they say, for the scanner's normal form
 * ([HUB-4], issue 22 round five): letters set apart (`I-g-n-o-r-e`, `i g n o r e`,
 * `i.g.n.o.r.e`) joined into their word, and a table row of one word a cell
 * (`| Ignore | all | previous | instructions |`) read as the words it holds (base64 payloads
 * are read in `base64.ts`). The line count is kept. Pure.
 *
 * @module
 */

/** The marks that set letters apart. */
const MARKS = ["-", " ", ".", "_", "*", "\u00b7"];

/** Three or more single letters, each apart by the same one mark (one pattern per mark). */
const SPACED = MARKS.map((mark) => {
  const m = mark === "." || mark === "*" ? `\\${mark}` : mark;
  return new RegExp(String.raw`(?<![\p{L}\d])\p{L}(?:${m}\p{L}){2,64}(?![\p{L}\d])`, "gu");
});

/**
 * Joins letters set apart by one mark into the word they spell (before whitespace is collapsed:
 * two spaces still part the words of `i g n o r e  a l l`).
 */
export function joinSpacedLetters(text: string): string {
  let out = text;
  MARKS.forEach((mark, i) => {
    if (out.includes(mark)) out = out.replace(SPACED[i], (run) => run.split(mark).join(""));
  });
  return out;
}

/** A Markdown table row of three or more cells, each one word (or empty). */
const WORD_ROW = /^[ \t]{0,8}\|(?:[ \t]{0,8}[^\s|]{0,40}[ \t]{0,8}\|){3,64}[ \t]{0,8}$/gm;

/** Reads each table row of one word a cell as its words, a space apart (a phrase split over cells). */
export function joinWordCells(text: string): string {
  if (!text.includes("|")) return text;
  return text.replace(WORD_ROW, (row) => row.replaceAll("|", " "));
}
