/**
 * Words spelled so a pattern misses them, read as what they say, for the scanner's normal form
 * ([HUB-4], issue 22 round five): letters set apart (`I-g-n-o-r-e`, `i g n o r e`,
 * `i.g.n.o.r.e`) joined into their word, and a base64 run that decodes to text followed by
 * that text. The line count is kept (a decoded line break is a space). Pure; the
 * decode is bounded: runs of {@linkcode MIN_BASE64} to {@linkcode MAX_BASE64} characters, and
 * only a decoding that is text stands.
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

/** The shortest base64 run decoded: 24 characters are 18 bytes (a short phrase). */
export const MIN_BASE64 = 24;
/** The longest base64 run decoded (64 KiB; a longer one stays a `long-base64` finding). */
export const MAX_BASE64 = 64 * 1024;

/** The start of a base64 run (its first 24 to 1024 characters); not inside a longer word. */
const BASE64_RUN = /(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{4}){6,256}/g;
/** A character of a base64 run. */
const BASE64_CHAR = /[A-Za-z0-9+/]/;
/** A character that a text does not hold (controls other than tab and line breaks). */
// deno-lint-ignore no-control-regex
const NOT_TEXT = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]/;

/** The text `run` encodes in base64, or null when it is not base64 of UTF-8 text with a space. */
function decodedText(run: string): string | null {
  if (run.length > MAX_BASE64) return null;
  // A last character alone encodes no byte; padding is what the run leaves off.
  const whole = run.length % 4 === 1 ? run.slice(0, -1) : run;
  let bytes: Uint8Array;
  try {
    const binary = atob(whole.padEnd(Math.ceil(whole.length / 4) * 4, "="));
    bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  return NOT_TEXT.test(text) || !/\s/.test(text) ? null : text.replace(/[\n\r\u2028\u2029]/g, " ");
}

/** The base64 runs of a text, each read to its end (or one past {@linkcode MAX_BASE64}). */
function runsOf(text: string): { index: number; run: string }[] {
  const out: { index: number; run: string }[] = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    let end = m.index + m[0].length;
    while (end < text.length && end - m.index <= MAX_BASE64 && BASE64_CHAR.test(text[end])) end++;
    for (let pad = 0; pad < 2 && text[end] === "="; pad++) end++;
    out.push({ index: m.index, run: text.slice(m.index, end) });
  }
  return out;
}

/** Each base64 run that decodes to text followed by ` [that text] ` on its line. */
export function decodeBase64Runs(text: string): string {
  if (text.length < MIN_BASE64) return text;
  let out = "";
  let last = 0;
  for (const { index, run } of runsOf(text)) {
    const decoded = decodedText(run.replace(/={1,2}$/, ""));
    if (decoded === null) continue;
    out += `${text.slice(last, index + run.length)} [${decoded}] `;
    last = index + run.length;
  }
  return last === 0 ? text : out + text.slice(last);
}
