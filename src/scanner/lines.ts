/**
 * What the scanner knows about each line of a file before any rule runs: inside a
 * Markdown code fence (and its language), a table row, inside an HTML comment, an
 * indented code line, inside a shell `case` block, inside a YARA `strings:` section, and
 * the name of the list or key the line belongs to (a deny list, a pattern list). Pure.
 *
 * @module
 */

import { replaceQuoted } from "./quotes.ts";

/** Facts about one line. */
export interface LineInfo {
  /** Inside a fenced code block (Markdown). */
  fenced: boolean;
  /** The fence's language (`yara`, `bash`, …), lower case, or "". */
  fenceLang: string;
  /** A Markdown table row. */
  table: boolean;
  /**
   * A table row under a header that names a catalogue of phrases: the columns (1 for the
   * first cell) whose header says so (`Pattern`, `Example`, `Detects`; see {@linkcode catalogueColumns}).
   */
  catalogue: readonly number[];
  /** Inside an HTML comment, or opening one. */
  comment: boolean;
  /** True on the line where an HTML comment outside a code fence opens. */
  commentStart: boolean;
  /** An indented code line (Markdown, four spaces or a tab). */
  indented: boolean;
  /** Inside a shell `case … esac` block. */
  caseBlock: boolean;
  /** Inside a YARA rule's `strings:` section (or a YARA file or fence). */
  yara: boolean;
  /** The list or key this line is an element of (multi-line lists and YAML keys), or "". */
  owner: string;
}

/**
 * A header cell that names what the column lists as phrases, not what to do — and holds
 * no word that makes the column the reader's to act on ("Pattern to apply", "Examples you
 * follow", "Steps").
 */
const ACTING_HEADER =
  /\b(?:to|you|your|we|apply|follow|use|do|run|execute|obey|perform|steps?|instructions?|actions?|todo|rules?)\b/i;
const CATALOGUE_HEADER =
  /\b(?:examples?|samples?|patterns?|phrases?|phrasings?|payloads?|signatures?|attacks?|detects?|detected|detection|indicators?|red flags?|keywords?|blocked|rejected|flagged|injections?|jailbreaks?)\b/i;
const SEPARATOR_ROW = /^\s{0,64}\|?(?:\s{0,64}:?-{1,256}:?\s{0,64}\|){1,64}/;

/**
 * The columns of a table whose header cell names a catalogue of phrases (the header row, when
 * the row after it is a `|---|` separator; the first 1024 characters of it).
 */
export function catalogueColumns(header: string, separator: string): number[] {
  if (!SEPARATOR_ROW.test(separator)) return [];
  const cells = header.slice(0, 1024).split("|");
  return cells.flatMap((cell, i) =>
    i > 0 && CATALOGUE_HEADER.test(cell) && !ACTING_HEADER.test(cell) ? [i] : []
  );
}

/** Tracks the table a line belongs to: its header and separator rows, its catalogue columns. */
class TableTracker {
  #row = 0;
  #header = "";
  #catalogue: readonly number[] = [];

  /** The catalogue columns of `line` (none for a header, a separator, or a line not in a table). */
  next(line: string, table: boolean): readonly number[] {
    const row = table ? this.#row++ : (this.#row = 0);
    if (row === 0) {
      this.#header = line;
      this.#catalogue = [];
    } else if (row === 1) this.#catalogue = catalogueColumns(this.#header, line);
    return row < 2 ? [] : this.#catalogue;
  }
}

/** A Markdown file by its name. */
export function isMarkdown(file: string): boolean {
  return /\.(md|markdown|mdx)$/i.test(file);
}

const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)/;
const KEY_LINE =
  /^\s{0,256}(?:-\s{1,16})?(?:(?:export|const|let|var|readonly|local|static|final|public|private|declare\s{1,16}-a)\s{1,16}){0,8}["']?([\w.|-]{1,128})["']?\s{0,16}[:=]/;

/** The line up to a `#` comment (a `#` at the start or after a space). */
function withoutComment(line: string): string {
  for (let i = line.indexOf("#"); i >= 0; i = line.indexOf("#", i + 1)) {
    if (i === 0 || /\s/.test(line[i - 1])) return line.slice(0, i);
  }
  return line;
}

/** True for a line that opens a shell `case … in` block (`in` ends it, after the word `case`). */
function opensCase(line: string): boolean {
  const end = line.trimEnd();
  if (!end.endsWith("in") || /\w/.test(end[end.length - 3] ?? "")) return false;
  return /\bcase\b/.test(end.slice(0, -2));
}

/** Net count of opening brackets outside quoted strings (and before a `#` comment). */
function bracketDepth(line: string): number {
  if (!/[\[\](){}]/.test(line)) return 0;
  const bare = withoutComment(replaceQuoted(line, ""));
  let depth = 0;
  for (let i = 0; i < bare.length; i++) {
    const c = bare.charCodeAt(i);
    if (c === 0x5b || c === 0x28 || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x29 || c === 0x7d) depth--;
  }
  return depth;
}

interface Owner {
  name: string;
  /** YAML key: its indent; bracket list: the bracket depth before it opened. */
  level: number;
  yaml: boolean;
}

/** Tracks the enclosing lists and YAML keys across lines (innermost last). */
class OwnerStack {
  #stack: Owner[] = [];
  #depth = 0;

  /** The innermost owner of `line`, then takes the line's own openings and closings. */
  next(line: string): string {
    const indent = line.length - line.trimStart().length;
    if (line.trim() !== "") {
      while (this.#top?.yaml && indent <= this.#top.level) this.#stack.pop();
    }
    const name = this.#top?.name ?? "";
    const key = KEY_LINE.exec(line);
    const before = this.#depth;
    this.#depth += bracketDepth(line);
    if (key) {
      const rest = line.slice(key[0].length).trim();
      if (bracketDepth(rest) > 0) this.#stack.push({ name: key[1], level: before, yaml: false });
      else if (rest === "" || rest === "|" || rest === ">") {
        this.#stack.push({ name: key[1], level: indent, yaml: true });
      }
    }
    while (this.#top && !this.#top.yaml && this.#top.level >= this.#depth) this.#stack.pop();
    return name;
  }

  get #top(): Owner | undefined {
    return this.#stack[this.#stack.length - 1];
  }
}

/** Facts about every line of a file. */
export function lineInfos(file: string, lines: readonly string[]): LineInfo[] {
  const markdown = isMarkdown(file);
  const yaraFile = /\.(yar|yara)$/i.test(file);
  const out: LineInfo[] = [];
  let fenced = false;
  let fenceLang = "";
  let comment = false;
  let caseBlock = false;
  let yara = false;
  const owners = new OwnerStack();
  const tables = new TableTracker();
  let previousBlank = true;
  for (const line of lines) {
    const fence = markdown ? FENCE.exec(line) : null;
    let commentStart = false;
    if (fence) {
      fenced = !fenced;
      fenceLang = fenced ? fence[2].toLowerCase() : "";
      caseBlock = false;
      yara = false;
    }
    const inFence = fenced && !fence;
    const wasComment = comment;
    if (!inFence && !fence) {
      if (!comment && line.includes("<!--")) {
        commentStart = true;
        comment = !line.slice(line.indexOf("<!--")).includes("-->");
      } else if (comment && line.includes("-->")) comment = false;
    }
    if (opensCase(line)) caseBlock = true;
    else if (/^\s*esac\b/.test(line)) caseBlock = false;
    if (/^\s*strings\s*:\s*$/.test(line)) yara = true;
    else if (/^\s*condition\s*:/.test(line)) yara = false;
    const name = owners.next(line);
    const table = markdown && !inFence && /^\s*\|.*\|/.test(line);
    out.push({
      fenced: inFence,
      fenceLang: inFence ? fenceLang : "",
      table,
      catalogue: tables.next(line, table),
      comment: wasComment || commentStart,
      commentStart,
      indented: markdown && !inFence && previousBlank && /^( {4}|\t)\S/.test(line),
      caseBlock,
      yara: yara || yaraFile || fenceLang === "yara",
      owner: name,
    });
    previousBlank = line.trim() === "" || (out[out.length - 1].indented && previousBlank);
  }
  return out;
}
