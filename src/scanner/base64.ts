/**
 * Base64 payloads read as what they say, for the scanner's normal form ([HUB-4], issue 22):
 * each base64 run that decodes to text is followed by ` [that text] ` on its line. A run is
 * written whole (`SWdub3Jl…`), in 4-character groups apart by single spaces (`SWdu b3Jl …`),
 * or wrapped over lines of one width (any width, as `base64 -w 30` writes it: the block is
 * decoded whole and its text follows its last line). The text of a decoding is read again,
 * up to {@linkcode MAX_LAYERS} layers (base64 of base64), and binary bytes around a text
 * (a payload after a header) do not hide it: each stretch of text in the bytes is kept.
 *
 * Bounded and linear: a run is at most {@linkcode MAX_BASE64} characters, each layer is 3/4
 * of the one before, no pattern backtracks over more than one group; the scan bounds
 * (`bounds.ts`) hold the whole text. The line count is kept (a decoded line break is a
 * space). Pure.
 *
 * @module
 */

/** The shortest base64 run decoded: 24 characters are 18 bytes (a short phrase). */
export const MIN_BASE64 = 24;
/** The longest base64 run decoded (64 KiB; a longer one stays a `long-base64` finding). */
export const MAX_BASE64 = 64 * 1024;
/** How many layers of base64 are read (base64 of base64 of base64). */
export const MAX_LAYERS = 3;
/** The shortest stretch of text kept from decoded bytes. */
const MIN_TEXT = 8;
/** The shortest line of a wrapped block. */
const MIN_WRAP = 16;

/** The start of a run (its first 24 to 1024 characters): 4-character groups, each maybe followed by one space. */
const RUN = /(?<![A-Za-z0-9+/])(?:[A-Za-z0-9+/]{4} ?){6,256}/g;
/** A line that may start a wrapped block: its first {@linkcode MIN_WRAP} characters base64 (or four groups). */
const WRAP_START = /^[ \t]{0,64}(?:[A-Za-z0-9+/]{16}|(?:[A-Za-z0-9+/]{4} ){4})/m;
/** A character of a base64 run. */
const B64_CHAR = /[A-Za-z0-9+/]/;
/** What a text does not hold (controls other than tab and line breaks, replaced bytes). */
// deno-lint-ignore no-control-regex
const NOT_TEXT = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]{1,64}/;
const LINE_BREAKS = /[\n\r\u2028\u2029]/g;

/** The bytes base64 `run` (no spaces, no padding) encodes, or null. */
function bytesOf(run: string): Uint8Array | null {
  // A last character alone encodes no byte; padding is what the run leaves off.
  const whole = run.length % 4 === 1 ? run.slice(0, -1) : run;
  try {
    const binary = atob(whole.padEnd(Math.ceil(whole.length / 4) * 4, "="));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The text base64 `run` encodes at `depth`, or null: each stretch of text in its bytes that
 * holds a space, or that (read again, under {@linkcode MAX_LAYERS}) decodes to text itself.
 */
function decodedText(run: string, depth: number): string | null {
  if (run.length > MAX_BASE64) return null;
  const bytes = bytesOf(run);
  if (bytes === null) return null;
  const parts: string[] = [];
  for (const stretch of new TextDecoder().decode(bytes).split(NOT_TEXT)) {
    const text = stretch.replace(LINE_BREAKS, " ");
    if (text.trim().length < MIN_TEXT) continue;
    const inner = depth < MAX_LAYERS ? decodeAt(text, depth + 1) : text;
    if (inner !== text || /\S\s/.test(text)) parts.push(inner);
  }
  return parts.length === 0 ? null : parts.join(" ");
}

/**
 * The base64 runs of a text (single spaces inside, never a line break), each read to its
 * end (or one past {@linkcode MAX_BASE64}); the search goes on after the end (a run is read once).
 */
function runsOf(line: string): { index: number; run: string }[] {
  const out: { index: number; run: string }[] = [];
  const more = (at: number) => at < line.length && B64_CHAR.test(line[at]);
  const runs = new RegExp(RUN.source, "g");
  for (let m = runs.exec(line); m !== null; m = runs.exec(line)) {
    let end = m.index + m[0].length;
    while (end - m.index <= MAX_BASE64 && (more(end) || (line[end] === " " && more(end + 1)))) {
      end++;
    }
    const run = line.slice(m.index, end).trimEnd();
    const pad = line[end] === "=" ? line[end + 1] === "=" ? 2 : 1 : 0;
    out.push({ index: m.index, run: line.slice(m.index, m.index + run.length + pad) });
    runs.lastIndex = end + pad;
  }
  return out;
}

/** A line's run without spaces or padding when the whole line (trimmed) is one of `min` characters or more, else null. */
function lineRun(line: string, min = MIN_WRAP): string | null {
  const body = line.trim().replace(/={1,2}$/, "");
  if (body.length < min || body.length > MAX_BASE64) return null;
  return oneRun(body) ? body.replaceAll(" ", "") : null;
}

/** True when `body` is one run written whole, or in 4-character groups apart by single spaces. */
function oneRun(body: string): boolean {
  let group = 0;
  let spaced = false;
  for (const c of body) {
    if (c === " ") {
      if (group !== 4) return false;
      [spaced, group] = [true, 0];
    } else if (!B64_CHAR.test(c) || (spaced && ++group > 4)) return false;
    else if (!spaced) group++;
  }
  return group > 0;
}

/**
 * The wrapped blocks of `lines`: two or more lines in a row, each one run, all as wide as
 * the first but the last (which may be shorter). Each as the index of its last line and the
 * run the block spells.
 */
function wrappedBlocks(lines: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  for (let i = 0; i < lines.length; i++) {
    const first = lineRun(lines[i]);
    if (first === null) continue;
    const width = lines[i].trim().length;
    const runs = [first];
    let length = first.length;
    let j = i;
    while (j + 1 < lines.length && lines[j].trim().length === width && length <= MAX_BASE64) {
      const next = lineRun(lines[j + 1], 1);
      if (next === null || lines[j + 1].trim().length > width) break;
      runs.push(next);
      length += next.length;
      j++;
    }
    if (j > i) out.set(j, runs.join(""));
    i = j;
  }
  return out;
}

/** The runs of a text each followed by ` [their text] ` (at `depth`). */
function decodeRuns(text: string, depth: number): string {
  let out = "";
  let last = 0;
  for (const { index, run } of runsOf(text)) {
    const decoded = decodedText(run.replace(/={1,2}$/, "").replaceAll(" ", ""), depth);
    if (decoded === null) continue;
    out += `${text.slice(last, index + run.length)} [${decoded}] `;
    last = index + run.length;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** {@linkcode decodeBase64Runs} at `depth` (1 for the file's own text). */
function decodeAt(text: string, depth: number): string {
  if (text.length < MIN_BASE64) return text;
  const read = decodeRuns(text, depth);
  // Only a text with a line that may start a wrapped block is read line by line.
  if (!WRAP_START.test(text)) return read;
  const blocks = wrappedBlocks(text.split("\n"));
  if (blocks.size === 0) return read;
  return read.split("\n").map((line, i) => {
    const block = blocks.get(i);
    const decoded = block === undefined ? null : decodedText(block, depth);
    return decoded === null ? line : `${line} [${decoded}] `;
  }).join("\n");
}

/** Each base64 run (whole, grouped or wrapped; up to {@linkcode MAX_LAYERS} deep) that decodes to text, followed by that text. */
export function decodeBase64Runs(text: string): string {
  return decodeAt(text, 1);
}
