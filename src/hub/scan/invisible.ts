/**
 * Invisible characters ([HUB-4], [V-6], [V-10]): zero-width characters, bidi controls,
 * word joiners and Unicode tag characters, each one a place where text can hide. A
 * zero-width joiner inside an emoji sequence (👨‍👩‍👧) and the tag letters of a flag
 * (🏴 + tags + cancel tag) are how emoji are written, and are let go. The scanner's
 * finding, the view's warning and the sanitising of untrusted content all use this. Pure.
 *
 * @module
 */

const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]|\uDB40[\uDC00-\uDC7F]/g;
const ANY_INVISIBLE = new RegExp(INVISIBLE.source);
const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;

/** True when the invisible character `ch` at `i` of `text` is part of an emoji. */
function partOfEmoji(text: string, ch: string, i: number): boolean {
  if (ch === "\u200D") {
    const before = [...text.slice(Math.max(0, i - 4), i)].pop() ?? "";
    const after = [...text.slice(i + 1, i + 5)][0] ?? "";
    return PICTOGRAPH.test(before) && PICTOGRAPH.test(after);
  }
  if (ch.length !== 2) return false;
  return flagTagRun(text, i);
}

/**
 * True when the tag character at `i` belongs to a subdivision flag as Unicode writes them:
 * 🏴, then 2 to 6 tag letters or digits, then the cancel tag (🏴󠁧󠁢󠁳󠁣󠁴󠁿 is `gbsct`). A longer run, or
 * one carrying anything else, is text hidden in tags — never let go.
 */
function flagTagRun(text: string, i: number): boolean {
  let start = i;
  while (start >= 2 && text.charCodeAt(start - 2) === 0xdb40) start -= 2;
  if (text.codePointAt(start - 2) !== 0x1f3f4) return false;
  let end = start;
  const letters: number[] = [];
  while (text.charCodeAt(end) === 0xdb40) {
    const cp = text.codePointAt(end)!;
    if (cp === 0xe007f) return letters.length >= 2 && letters.length <= 6;
    letters.push(cp);
    if (!((cp >= 0xe0061 && cp <= 0xe007a) || (cp >= 0xe0030 && cp <= 0xe0039))) return false;
    end += 2;
  }
  return false;
}

/** The first invisible character of a line that is not part of an emoji, as `U+XXXX`, or null. */
export function invisibleIn(line: string): string | null {
  if (!ANY_INVISIBLE.test(line)) return null;
  for (const m of line.matchAll(INVISIBLE)) {
    if (partOfEmoji(line, m[0], m.index!)) continue;
    return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}

/** The text without its invisible characters (emoji keep theirs). */
export function removeInvisible(text: string): string {
  if (!ANY_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (m: string, i: number) => partOfEmoji(text, m, i) ? m : "");
}
