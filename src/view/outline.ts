/**
 * The outline of a Markdown text and the sections it is made of ([V-8]). Pure.
 *
 * A heading is an ATX heading (`#` to `######`, indented at most three spaces) or a
 * setext heading (a plain paragraph underlined with `=` or `-`). Lines inside fenced code
 * (three or more backticks or tildes, indented at most three spaces, closed by a fence of
 * the same character at least as long) and indented code are never headings. A section
 * runs from its heading to the next heading of the same or a higher level. Slugs are
 * GitHub's: lower case, punctuation dropped, spaces turned into `-`, repeats suffixed
 * `-1`, `-2`, …
 *
 * @module
 */

/** One heading and the section it opens. */
export interface Heading {
  /** 1 to 6. */
  level: number;
  /** The heading's text (inline links reduced to their text). */
  title: string;
  /** Its GitHub-style anchor, unique in the text. */
  slug: string;
  /** 1-based line of the heading (its first line for a setext heading). */
  line: number;
  /** Offset of the section's first character. */
  start: number;
  /** Offset just after the section's last character. */
  end: number;
  /** The section's size in characters (`end - start`), sub-sections included. */
  chars: number;
}

/** One line of the text with where it starts. */
interface Line {
  text: string;
  start: number;
}

/** A paragraph being read: its lines, and whether an underline may turn it into a heading. */
interface Paragraph {
  first: number;
  lines: string[];
  setext: boolean;
}

/** A block the scan found: a heading, or a paragraph (lines `first` to `last`). */
type Block =
  | { kind: "heading"; level: number; text: string; first: number }
  | { kind: "paragraph"; first: number; last: number };

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    lines.push({ text: text.slice(start, end).replace(/\r$/, ""), start });
    start = end + 1;
  }
  return lines;
}

/** Columns of leading white space (a tab reaches the next multiple of four). */
function indentOf(line: string): number {
  let col = 0;
  for (const c of line) {
    if (c === " ") col++;
    else if (c === "\t") col += 4 - (col % 4);
    else break;
  }
  return col;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Lines that open something other than a plain paragraph (lists, quotes, tables, HTML). */
const NOT_PLAIN = /^ {0,3}(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|>|\||<)/;

/** The text of an ATX heading: without its closing `#` sequence. */
function atxText(raw: string | undefined): string {
  // By hand: `(?:^|[ \t]+)#+$` retries every position of a long run of spaces or hashes.
  const text = raw ?? "";
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  const closing = end < text.length &&
    (end === 0 || text[end - 1] === " " || text[end - 1] === "\t");
  return (closing ? text.slice(0, end) : text).trim();
}

/** Whether `line` closes a fence opened by `open` (same character, at least as long). */
function closesFence(line: string, open: string): boolean {
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return m !== null && m[1][0] === open[0] && m[1].length >= open.length;
}

/** Scans the blocks that matter for the outline: headings and paragraphs. */
function scanBlocks(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  let fence: string | undefined;
  let comment = false;
  let para: Paragraph | undefined;
  const endParagraph = (last: number) => {
    if (para) blocks.push({ kind: "paragraph", first: para.first, last });
    para = undefined;
  };
  lines.forEach(({ text }, i) => {
    if (fence !== undefined) {
      if (closesFence(text, fence)) fence = undefined;
      return;
    }
    if (comment || (!para && /^ {0,3}<!--/.test(text))) {
      comment = !text.includes("-->", comment ? 0 : text.indexOf("<!--") + 4);
      return; // an HTML comment block: nothing in it is a heading
    }
    const open = FENCE_OPEN.exec(text);
    if (open && !(open[1][0] === "`" && open[2].includes("`"))) {
      endParagraph(i - 1);
      fence = open[1];
      return;
    }
    if (text.trim() === "") return endParagraph(i - 1);
    if (indentOf(text) >= 4 && !para) return; // indented code
    const atx = ATX.exec(text);
    if (atx) {
      endParagraph(i - 1);
      blocks.push({ kind: "heading", level: atx[1].length, text: atxText(atx[2]), first: i });
      return;
    }
    const underline = SETEXT.exec(text);
    if (para && para.setext && underline) {
      const level = underline[1][0] === "=" ? 1 : 2;
      blocks.push({ kind: "heading", level, text: para.lines.join(" ").trim(), first: para.first });
      para = undefined;
      return;
    }
    if (BREAK.test(text)) return endParagraph(i - 1);
    if (para) {
      para.lines.push(text.trim());
      if (NOT_PLAIN.test(text)) para.setext = false;
    } else para = { first: i, lines: [text.trim()], setext: !NOT_PLAIN.test(text) };
  });
  endParagraph(lines.length - 1);
  return blocks;
}

/** A heading's text as GitHub renders it: links and images by their text, no inline HTML. */
function plainTitle(text: string): string {
  return text
    .replace(/!?\[([^\]]{0,512})\]\([^)]{0,2048}\)/g, "$1")
    .replace(/<[^<>]*>/g, "")
    .trim();
}

/** The GitHub-style slug of a heading's text (before making it unique). */
export function slugify(title: string): string {
  return plainTitle(title)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Makes slugs unique the way GitHub does: the second `a` is `a-1`, the third `a-2`. */
function uniqueSlugs(): (base: string) => string {
  const counts = new Map<string, number>();
  return (raw: string) => {
    const base = raw === "" ? "section" : raw;
    let slug = base;
    if (counts.has(base)) {
      let n = counts.get(base)!;
      do slug = `${base}-${++n}`; while (counts.has(slug));
      counts.set(base, n);
    }
    counts.set(slug, 0);
    return slug;
  };
}

/** Every heading of a Markdown text with its slug and section. */
export function outline(markdown: string): Heading[] {
  const lines = splitLines(markdown);
  const unique = uniqueSlugs();
  const heads = scanBlocks(lines).flatMap((b) => b.kind === "heading" ? [b] : []);
  return heads.map((h, i) => {
    const start = lines[h.first].start;
    const next = heads.slice(i + 1).find((o) => o.level <= h.level);
    const end = next ? lines[next.first].start : markdown.length;
    const title = plainTitle(h.text);
    return {
      level: h.level,
      title,
      slug: unique(slugify(h.text)),
      line: h.first + 1,
      start,
      end,
      chars: end - start,
    };
  });
}

/** Longest first paragraph a brief carries. */
export const MAX_PARAGRAPH_CHARS = 1000;

/**
 * The first paragraph of a text that is neither a heading nor code nor only an HTML
 * comment, its lines joined by spaces (cut at {@linkcode MAX_PARAGRAPH_CHARS} with `…`).
 */
export function firstParagraph(markdown: string): string {
  const lines = splitLines(markdown);
  for (const block of scanBlocks(lines)) {
    if (block.kind !== "paragraph") continue;
    const text = lines.slice(block.first, block.last + 1).map((l) => l.text.trim()).join(" ");
    if (/^<!--[\s\S]*-->$/.test(text)) continue;
    return text.length > MAX_PARAGRAPH_CHARS
      ? text.slice(0, MAX_PARAGRAPH_CHARS - 1).trimEnd() + "…"
      : text;
  }
  return "";
}

/** The sections a list of slugs names, or the slugs no heading has. */
export type Selection =
  | { kind: "ok"; text: string; slugs: string[] }
  | { kind: "unknown"; unknown: string[]; available: string[] };

/**
 * The text of the sections named by `slugs` (or by their headings' text), in the order of
 * the text, each once; a section inside another one asked for is not repeated. Sections are joined by a blank line.
 */
export function selectSections(markdown: string, slugs: readonly string[]): Selection {
  const heads = outline(markdown);
  const known = new Set(heads.map((h) => h.slug));
  // A heading's text finds its section too ("When to Use" → when-to-use).
  const slugOf = (s: string) => (known.has(s) ? s : known.has(slugify(s)) ? slugify(s) : undefined);
  const unknown = slugs.filter((s) => slugOf(s) === undefined);
  if (unknown.length) {
    return { kind: "unknown", unknown: [...new Set(unknown)], available: [...known] };
  }
  const wanted = slugs.map((s) => slugOf(s)!);
  const chosen = heads.filter((h) => wanted.includes(h.slug));
  const kept = chosen.filter((h) =>
    !chosen.some((o) => o !== h && o.start <= h.start && h.end <= o.end)
  );
  return {
    kind: "ok",
    text: kept.map((h) => markdown.slice(h.start, h.end).trimEnd()).join("\n\n") + "\n",
    slugs: kept.map((h) => h.slug),
  };
}

/** One heading of a brief. */
export interface OutlineEntry {
  /** 1 to 6. */
  level: number;
  /** The heading's text. */
  title: string;
  /** What `--section` takes. */
  slug: string;
  /** The section's size in characters, sub-sections included. */
  chars: number;
}

/** The brief of a skill. */
export interface Brief {
  /** Every heading, in order. */
  outline: OutlineEntry[];
  /** The first paragraph of the body. */
  paragraph: string;
  /** The size of the whole body in characters. */
  chars: number;
}
