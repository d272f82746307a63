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
 * - a zero-width joiner inside an emoji sequence (👨‍👩‍👧);
 * - the tag letters of the three RGI subdivision flags (🏴 + `gbeng`, `gbsct` or `gbwls` +
 *   cancel tag) — every other tag run is hidden text;
 * - one U+FE0E/U+FE0F after an emoji character (☺️), after an ASCII digit, `#` or `*` only the
 *   U+FE0F of a keycap (1️⃣);
 * - the braille blank on a line that holds other braille patterns (braille art);
 * - *marks*, under a density bound (at most {@linkcode FEW_MARKS} a line, or one per
 *   {@linkcode LETTERS_PER_MARK} letters, never two with at most one character between — past
 *   it none of the line's marks is in place): a ZWJ or ZWNJ where its script's shaping needs
 *   it (beside a virama of an Indic script; a ZWNJ after an Arabic, Persian, Syriac or N'Ko
 *   letter that would join the next — see `joinerPlace`), one U+FE00–FE02
 *   after an ideograph, one U+FE00 after a mathematical symbol, one Mongolian selector after
 *   a Mongolian letter (the standardised variation sequences).
 *
 * Ideographic variation selectors (U+E0100–E01EF) are never in place: one after each
 * ideograph carries a byte each; removing one changes a glyph's shape, not the text.
 *
 * A BOM at the start of a file is not content ([S-6]): callers strip it before asking.
 *
 * @module
 */

/** Every code point of the table (emoji and the other exceptions included), to find or drop. */
export const INVISIBLE_CHARS =
  /(?![\t\n\r\f\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}])[\p{Cf}\p{Cc}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2060-\u206F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0000}-\u{E0FFF}]/gu;
const ANY_INVISIBLE = new RegExp(INVISIBLE_CHARS.source, "u");
/**
 * True when `text` is printable ASCII and the layout controls the table leaves out (tab,
 * newline, form feed, carriage return): nothing invisible, and fast to test. (A loop, not a
 * pattern: every pattern of the scanner's files is bounded.)
 */
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7e || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d)) {
      return false;
    }
  }
  return true;
}

const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;
const EMOJI = /\p{Emoji}/u;
/** The scripts whose letters join (cursive): a ZWNJ breaks a join that would be drawn. */
const CURSIVE = ["Arabic", "Syriac", "Nko"].map((sc) => new RegExp(`\\p{sc=${sc}}`, "u"));
/** The Indic scripts: a joiner next to a virama chooses a conjunct's form. */
const INDIC = [
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
].map((sc) => new RegExp(`\\p{sc=${sc}}`, "u"));
/** The viramas (and Sinhala al-lakuna) of the Indic scripts. */
const VIRAMA = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D3B\u0D3C\u0D4D\u0DCA]/;
/**
 * Letters of the cursive scripts that join to the right only (or not at all): nothing
 * follows them joined, so a ZWNJ after one changes nothing drawn (Arabic alef, dal, reh,
 * waw and their kin; Syriac alaph, dalath, waw…). N'Ko letters all join both ways.
 */
const RIGHT_JOINING =
  /[\u0621-\u0625\u0627\u0629\u062F-\u0632\u0648\u0671-\u0677\u0688-\u0699\u06C0\u06C3-\u06CB\u06CD\u06CF\u06D2\u06D3\u06D5\u06EE\u06EF\u0759-\u075B\u076B\u076C\u0771\u0773\u0774\u0778\u0779\u0710\u0715-\u0719\u071E\u0728\u072A\u072C\u072F\u074D]/;
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const IDEOGRAPH = /\p{Ideographic}/u;
const MATH = /\p{Sm}/u;
const MONGOLIAN = /\p{sc=Mongolian}/u;
const SELECTORS = /[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}]/u;
const OTHER_BRAILLE = /[\u2801-\u28FF]/;
const LETTERS = /\p{L}/gu;

/** The only tag sequences Unicode recommends (RGI): the flags of England, Scotland and Wales. */
const FLAG_TAGS: ReadonlySet<string> = new Set(["gbeng", "gbsct", "gbwls"]);

/**
 * The density bound of script marks (joiners between letters, standardised variation
 * selectors, Mongolian selectors): a line may hold {@linkcode FEW_MARKS}, or one per
 * {@linkcode LETTERS_PER_MARK} letters, and never two with at most one character between.
 */
export const FEW_MARKS = 3;
/** See {@linkcode FEW_MARKS}. */
export const LETTERS_PER_MARK = 8;

/** Where an invisible character stands: out of place, in place, or in place as a counted mark. */
type Place = "out" | "in" | "mark";

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

/**
 * The place of the variation selector `ch` at `i`: once after a character it can vary.
 * U+FE0E/U+FE0F after an emoji (after an ASCII digit, `#` or `*` only U+FE0F of a keycap,
 * before U+20E3); U+FE00–FE02 after an ideograph (the CJK compatibility variants), U+FE00
 * after a mathematical symbol, a Mongolian selector after a Mongolian letter (marks); an
 * ideographic variation selector (U+E0100–E01EF) never: its 240 values carry a byte an
 * ideograph, and removing one changes a glyph's shape, not the text.
 */
function selectorPlace(text: string, ch: string, i: number): Place {
  const base = before(text, i);
  if (base === "" || SELECTORS.test(base)) return "out"; // A run of selectors hides bytes.
  const cp = ch.codePointAt(0)!;
  if (cp === 0xfe0e || cp === 0xfe0f) {
    if (base.charCodeAt(0) >= 0x80) return EMOJI.test(base) ? "in" : "out";
    return cp === 0xfe0f && EMOJI.test(base) && text.charCodeAt(i + 1) === 0x20e3 ? "in" : "out";
  }
  if (cp >= 0xe0100) return "out";
  if (cp >= 0xfe00 && cp <= 0xfe02 && IDEOGRAPH.test(base)) return "mark";
  if (cp === 0xfe00 && MATH.test(base)) return "mark";
  return cp >= 0x180b && cp <= 0x180f && MONGOLIAN.test(base) ? "mark" : "out";
}

/**
 * The place of the joiner at `i`: in place between two emoji; a mark only where its script's
 * shaping needs it — in an Indic script right after a virama (a conjunct's form, a chillu at a
 * word's end) or right before one (eyelash reph), in a cursive script a ZWNJ after a letter
 * that would join the next letter of the script (Persian می‌خواهم). Anywhere else — Latin
 * text, two scripts, a ZWJ between cursive letters, a ZWNJ after a letter that does not join
 * on, an Indic joiner away from a virama — it draws nothing and carries bits.
 */
function joinerPlace(text: string, ch: string, i: number): Place {
  const prev = before(text, i);
  const next = at(text, i + 1);
  if (ch === "\u200D" && PICTOGRAPH.test(prev) && PICTOGRAPH.test(next)) return "in";
  const indic = INDIC.find((sc) => sc.test(prev));
  if (indic) {
    const nextIn = indic.test(next) && (LETTER.test(next) || MARK.test(next));
    const needed = VIRAMA.test(prev) ? nextIn || !LETTER.test(next) : nextIn && VIRAMA.test(next);
    return needed ? "mark" : "out";
  }
  const base = letterBefore(text, i);
  const cursive = CURSIVE.find((sc) => sc.test(base));
  const joinsOn = cursive !== undefined && !RIGHT_JOINING.test(base);
  return ch === "\u200C" && joinsOn && cursive.test(next) && LETTER.test(next) ? "mark" : "out";
}

/** The letter before `i`, past at most three combining marks (Arabic vowel signs), or "". */
function letterBefore(text: string, i: number): string {
  let at = i;
  for (let marks = 0; marks <= 3; marks++) {
    const ch = before(text, at);
    if (!MARK.test(ch)) return LETTER.test(ch) ? ch : "";
    at -= ch.length;
  }
  return "";
}

/** The place of the invisible character `ch` at `i` of `line` (`braille`: it holds other braille). */
function placeOf(line: string, ch: string, i: number, braille: boolean): Place {
  if (ch === "\u200D" || ch === "\u200C") return joinerPlace(line, ch, i);
  if (SELECTORS.test(ch)) return selectorPlace(line, ch, i);
  if (ch === "\u2800") return braille ? "in" : "out";
  if (ch.length === 2 && line.charCodeAt(i) === 0xdb40) return flagTagRun(line, i) ? "in" : "out";
  return "out";
}

/**
 * True when the tag character at `i` belongs to one of the three RGI subdivision flags:
 * 🏴, the tag letters of `gbeng`, `gbsct` or `gbwls`, the cancel tag. Any other run (🏴 and six
 * tag letters spelling a word is how a payload is cut into "flags") is hidden text. Reads at
 * most 6 tags back and 6 forward (a long run is not re-read for each of its tags).
 */
function flagTagRun(text: string, i: number): boolean {
  let start = i;
  while (start >= 2 && text.charCodeAt(start - 2) === 0xdb40) {
    start -= 2;
    if (i - start > 10) return false;
  }
  if (text.codePointAt(start - 2) !== 0x1f3f4) return false;
  let letters = "";
  for (let end = start; text.charCodeAt(end) === 0xdb40 && letters.length <= 5; end += 2) {
    const cp = text.codePointAt(end)!;
    if (cp === 0xe007f) return FLAG_TAGS.has(letters);
    if (cp < 0xe0061 || cp > 0xe007a) return false;
    letters += String.fromCharCode(cp - 0xe0000);
  }
  return false;
}

/** True when a line's marks (at `offsets`) stay within the density bound of {@linkcode FEW_MARKS}. */
function sparse(line: string, offsets: readonly number[]): boolean {
  for (let k = 1; k < offsets.length; k++) if (offsets[k] - offsets[k - 1] <= 2) return false;
  if (offsets.length <= FEW_MARKS) return true;
  let letters = 0;
  for (const _ of line.matchAll(LETTERS)) letters++;
  return offsets.length * LETTERS_PER_MARK <= letters;
}

/**
 * The one decision of which invisible characters of a line are how it is written (kept, no
 * finding) — for the scanner and the sanitiser alike. A line whose marks break the density
 * bound, or that holds a joiner out of place, has none in place: joiners that many (or
 * where nothing needs them) cannot be writing, they carry bits.
 */
function placement(line: string): (ch: string, i: number) => boolean {
  const braille = OTHER_BRAILLE.test(line);
  const places = new Map<number, Place>();
  const marks: number[] = [];
  let strayJoiner = false;
  for (const m of line.matchAll(INVISIBLE_CHARS)) {
    const place = placeOf(line, m[0], m.index, braille);
    places.set(m.index, place);
    if (place === "mark") marks.push(m.index);
    else if (place === "out" && (m[0] === "\u200D" || m[0] === "\u200C")) strayJoiner = true;
  }
  // A joiner out of place carries bits: the line's other joiners are not writing either.
  const marksHold = marks.length === 0 || (!strayJoiner && sparse(line, marks));
  return (_ch, i) => {
    const place = places.get(i);
    return place === "in" || (place === "mark" && marksHold);
  };
}

/** The first invisible character of a line that is not in its place, as `U+XXXX`, or null. */
export function invisibleIn(line: string): string | null {
  if (!ANY_INVISIBLE.test(line)) return null;
  const inPlace = placement(line);
  for (const m of line.matchAll(INVISIBLE_CHARS)) {
    if (inPlace(m[0], m.index)) continue;
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
  if (plainAscii(text) || !ANY_INVISIBLE.test(text)) return text;
  return text.split("\n").map((line) => {
    if (!ANY_INVISIBLE.test(line)) return line;
    const inPlace = placement(line);
    const keep = (m: string, i: number) => inPlace(m, i) || (keepControls && CONTROL.test(m));
    return line.replace(INVISIBLE_CHARS, (m: string, i: number) => keep(m, i) ? m : "");
  }).join("\n");
}

/** The text without a leading byte order mark ([S-6]: it is no part of the content). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
