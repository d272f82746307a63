/**
 * Invisible characters ([HUB-4], [V-6], [V-10], issue 22): the one table of code points
 * that take no room and can carry hidden text, used by the scanner's finding, the view's
 * warning, the normal form and the sanitising of untrusted content alike. Pure.
 *
 * The table, by Unicode general category and the ranges known to hide text:
 * - every format character (Cf: zero-width space and joiners, bidi controls, word joiner and
 *   invisible operators, U+180E, soft hyphen, interlinear annotation U+FFF9–FFFB, musical
 *   formatting U+1D173–1D17A, Unicode tags…), except the prepended concatenation marks
 *   (U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2, U+110BD, U+110CD), which are drawn;
 * - every control character (Cc) but tab, line feed, carriage return and form feed;
 * - variation selectors (U+FE00–FE0F, U+E0100–E01EF, Mongolian U+180B–180D, U+180F) and
 *   the whole of U+E0000–E0FFF (tags, selectors, and unassigned code points there);
 * - combining grapheme joiner U+034F, Khmer U+17B4–17B5, Hangul fillers U+115F, U+1160,
 *   U+3164, U+FFA0, U+2060–206F (assigned or not), and the braille blank U+2800.
 *
 * Private-use characters (Co) are not in it: they are drawn (as icons of a font, or as a
 * box), not hidden. Code points unassigned elsewhere (Cn) are not either: a newer emoji than
 * this runtime's Unicode is one.
 *
 * What is let go, because it is how text is written (each only in its place, never in a run):
 * - a zero-width joiner inside an emoji sequence (👨‍👩‍👧), and a ZWJ or ZWNJ between two
 *   letters of a script that joins with them (Arabic, Syriac, N'Ko, the Indic scripts);
 * - the tag letters of a subdivision flag (🏴 + 2 to 6 tag letters + cancel tag);
 * - one U+FE0E/U+FE0F after an emoji character (☺️, 1️⃣), one U+FE00–FE0D after a CJK
 *   ideograph or a mathematical symbol, one U+E0100–E01EF after an ideograph, one Mongolian
 *   selector after a Mongolian letter (standardised and ideographic variation sequences);
 * - the braille blank on a line that holds other braille patterns (braille art).
 *
 * A BOM at the start of a file is not content ([S-6]): callers strip it before asking.
 *
 * @module
 */

/** Every code point of the table (emoji and the other exceptions included), to find or drop. */
export const INVISIBLE_CHARS =
  /(?![\t\n\r\f\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}])[\p{Cf}\p{Cc}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0000}-\u{E0FFF}]/gu;
const ANY_INVISIBLE = new RegExp(INVISIBLE_CHARS.source, "u");

const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;
const EMOJI = /\p{Emoji}/u;
const JOINING =
  /[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]/u;
const IDEOGRAPH = /\p{Ideographic}/u;
const MATH = /\p{Sm}/u;
const MONGOLIAN = /\p{sc=Mongolian}/u;
const SELECTORS = /[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}]/u;
const OTHER_BRAILLE = /[\u2801-\u28FF]/;

/** The code point that ends just before `i` (a surrogate pair read whole), or "". */
function before(text: string, i: number): string {
  if (i <= 0) return "";
  const low = text.charCodeAt(i - 1);
  const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(i - 2) >= 0xd800;
  return text.slice(pair ? i - 2 : i - 1, i);
}

/** The code point that starts at `i`, or "". */
function at(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/** True when the variation selector `ch` at `i` follows a character it can vary (once). */
function selectsVariant(text: string, ch: string, i: number): boolean {
  const base = before(text, i);
  if (base === "" || SELECTORS.test(base)) return false; // A run of selectors hides bytes.
  const cp = ch.codePointAt(0)!;
  if (cp === 0xfe0e || cp === 0xfe0f) return EMOJI.test(base);
  if (cp >= 0xfe00 && cp <= 0xfe0d) return IDEOGRAPH.test(base) || MATH.test(base);
  if (cp >= 0xe0100) return IDEOGRAPH.test(base);
  return MONGOLIAN.test(base);
}

/** True when the joiner at `i` sits between two emoji, or two letters of a joining script. */
function joins(text: string, ch: string, i: number): boolean {
  const prev = before(text, i);
  const next = at(text, i + 1);
  if (ch === "\u200D" && PICTOGRAPH.test(prev) && PICTOGRAPH.test(next)) return true;
  return JOINING.test(prev) && JOINING.test(next);
}

/**
 * True when the invisible character `ch` at `i` of `line` is how the text around it is
 * written (`braille`: the line holds other braille patterns).
 */
function inPlace(line: string, ch: string, i: number, braille: boolean): boolean {
  if (ch === "\u200D" || ch === "\u200C") return joins(line, ch, i);
  if (SELECTORS.test(ch)) return selectsVariant(line, ch, i);
  if (ch === "\u2800") return braille;
  if (ch.length === 2 && line.charCodeAt(i) === 0xdb40) return flagTagRun(line, i);
  return false;
}

/**
 * True when the tag character at `i` belongs to a subdivision flag as Unicode writes them:
 * 🏴, then 2 to 6 tag letters or digits, then the cancel tag (🏴󠁧󠁢󠁳󠁣󠁴󠁿 is `gbsct`). A longer run, or
 * one carrying anything else, is text hidden in tags — never let go. Reads at most 8 tags
 * either way (a long run is not re-read for each of its tags).
 */
function flagTagRun(text: string, i: number): boolean {
  let start = i;
  while (start >= 2 && text.charCodeAt(start - 2) === 0xdb40) {
    start -= 2;
    if (i - start > 16) return false;
  }
  if (text.codePointAt(start - 2) !== 0x1f3f4) return false;
  let end = start;
  const letters: number[] = [];
  while (text.charCodeAt(end) === 0xdb40 && letters.length <= 7) {
    const cp = text.codePointAt(end)!;
    if (cp === 0xe007f) return letters.length >= 2 && letters.length <= 6;
    letters.push(cp);
    if (!((cp >= 0xe0061 && cp <= 0xe007a) || (cp >= 0xe0030 && cp <= 0xe0039))) return false;
    end += 2;
  }
  return false;
}

/** The first invisible character of a line that is not in its place, as `U+XXXX`, or null. */
export function invisibleIn(line: string): string | null {
  if (!ANY_INVISIBLE.test(line)) return null;
  const braille = OTHER_BRAILLE.test(line);
  for (const m of line.matchAll(INVISIBLE_CHARS)) {
    if (inPlace(line, m[0], m.index, braille)) continue;
    return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}

const CONTROL = /\p{Cc}/u;

/**
 * The text without its invisible characters (those in their place — emoji, scripts — kept).
 * With `keepControls`, control characters stay (for text whose printing shows them as `^[`).
 */
export function removeInvisible(text: string, keepControls = false): string {
  if (!ANY_INVISIBLE.test(text)) return text;
  return text.split("\n").map((line) => {
    if (!ANY_INVISIBLE.test(line)) return line;
    const braille = OTHER_BRAILLE.test(line);
    const keep = (m: string, i: number) =>
      inPlace(line, m, i, braille) || (keepControls && CONTROL.test(m));
    return line.replace(INVISIBLE_CHARS, (m: string, i: number) => keep(m, i) ? m : "");
  }).join("\n");
}

/** The text without a leading byte order mark ([S-6]: it is no part of the content). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
