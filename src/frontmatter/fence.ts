/**
 * Finding the frontmatter block of a SKILL.md ([S-6]): a pure function over text, so
 * the scanner can feed it the head of a file and ask for more only when needed.
 *
 * @module
 */

/** Frontmatter is at most this many characters ([S-6]). */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

/** Where the frontmatter of a text is, or why there is none. */
export type Fence =
  | {
    kind: "ok";
    /** The YAML between the fences, with CRLF turned into LF. */
    yaml: string;
    /** Everything after the closing fence line, as written. */
    body: string;
    /** 1-based line number of the first body line. */
    bodyLine: number;
  }
  /** The text does not start with `---`; all of it is body. */
  | { kind: "missing"; body: string }
  /** The text is complete and no closing `---` line was found. */
  | { kind: "unclosed" }
  /** Only a head of the file was given and the closing fence is not in it yet. */
  | { kind: "incomplete" }
  /** The frontmatter is longer than {@linkcode MAX_FRONTMATTER_CHARS}. */
  | { kind: "too_large" };

const OPEN = /^---[ \t]*\r?(\n|$)/;
const CLOSE = /^---[ \t]*\r?$/gm;

/**
 * Splits `text` into frontmatter and body. A leading BOM is ignored, CRLF is accepted,
 * the first line must be `---` and the block ends at the first later line that is `---`
 * (trailing spaces allowed). `complete` says whether `text` is the whole file.
 */
export function splitFrontmatter(text: string, complete = true): Fence {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const open = OPEN.exec(text);
  if (!open) {
    if (!complete && text.length < 4 && "---".startsWith(text)) return { kind: "incomplete" };
    return { kind: "missing", body: text };
  }
  const start = open[0].length;
  if (open[1] === "") return complete ? { kind: "unclosed" } : { kind: "incomplete" };
  CLOSE.lastIndex = start;
  const close = CLOSE.exec(text);
  // A closing line at the very end of a head may still be followed by more characters.
  const closedAtEnd = close && !complete && close.index + close[0].length === text.length;
  if (!close || closedAtEnd) {
    if (text.length - start > MAX_FRONTMATTER_CHARS) return { kind: "too_large" };
    return complete ? { kind: "unclosed" } : { kind: "incomplete" };
  }
  const raw = text.slice(start, close.index);
  if (raw.length > MAX_FRONTMATTER_CHARS) return { kind: "too_large" };
  let after = close.index + close[0].length;
  if (text[after] === "\n") after++;
  const yaml = raw.replace(/\r\n/g, "\n");
  const bodyLine = countLines(text, after) + 1;
  return {
    kind: "ok",
    yaml: yaml.endsWith("\n") ? yaml.slice(0, -1) : yaml,
    body: text.slice(after),
    bodyLine,
  };
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The first non-empty body line that is not a heading: the fallback description of
 * [S-5]. Returns undefined when the body has none (or, for a head, none yet).
 */
export function firstProseLine(body: string): string | undefined {
  for (const line of body.split("\n")) {
    const t = line.trim();
    if (t && !t.startsWith("#")) return t;
  }
  return undefined;
}
