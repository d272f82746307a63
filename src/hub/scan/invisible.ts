/**
 * Invisible characters as a finding ([HUB-4]): zero-width characters, bidi controls,
 * word joiners and Unicode tag characters, each one a place where text can hide. A
 * zero-width joiner inside an emoji sequence (👨‍👩‍👧) and the tag letters of a flag
 * (🏴 + tags + cancel tag) are how emoji are written, and are let go. Pure.
 *
 * @module
 */

const INVISIBLE =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
const ANY_INVISIBLE = new RegExp(INVISIBLE.source);
const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]/u;

/** True when the ZWJ at `i` joins two emoji. */
function emojiJoiner(line: string, i: number): boolean {
  const before = [...line.slice(Math.max(0, i - 4), i)].pop() ?? "";
  const after = [...line.slice(i + 1, i + 5)][0] ?? "";
  return PICTOGRAPH.test(before) && PICTOGRAPH.test(after);
}

/** True when the tag character at `i` belongs to a flag sequence opened by 🏴 (U+1F3F4). */
function flagTag(line: string, i: number): boolean {
  let j = i;
  while (j >= 2 && line.charCodeAt(j - 2) === 0xdb40) j -= 2;
  return line.codePointAt(j - 2) === 0x1f3f4;
}

/** The first invisible character of a line that is not part of an emoji, as `U+XXXX`, or null. */
export function invisibleIn(line: string): string | null {
  if (!ANY_INVISIBLE.test(line)) return null;
  for (const m of line.matchAll(INVISIBLE)) {
    const i = m.index!;
    if (m[0] === "\u200D" && emojiJoiner(line, i)) continue;
    if (m[0].length === 2 && flagTag(line, i)) continue;
    return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return null;
}
