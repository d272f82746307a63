/**
 * The scanner's normal form ([HUB-4]): what a file says once the usual disguises are taken
 * off. Unicode tag characters read as the ASCII they hide; HTML entities and URL
 * %-encoding decoded; control characters (NUL padding) dropped; NFKC with combining marks
 * stripped; Cyrillic/Greek look-alikes folded to ASCII; zero-width and bidi characters
 * removed; HTML tags and bold/strike markup dropped; shell quoting tricks (`r''m`, `r\m`, `${IFS}`, `$'\x72m'`) undone; letter-spaced
 * words joined (`spelled.ts`) and base64 text decoded beside its run (`base64.ts`); runs of
 * whitespace inside a line collapsed; shell line continuations joined. The line count is
 * kept, so every normalised line still names the original line it came from. Pure.
 *
 * @module
 */
import { foldConfusables } from "./confusables.ts";
import { INVISIBLE_CHARS } from "./invisible.ts";
import { decodeBase64Runs } from "./base64.ts";
import { joinSpacedLetters, joinWordCells } from "./spelled.ts";

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  sol: "/",
  bsol: "\\",
  colon: ":",
  semi: ";",
  period: ".",
  comma: ",",
  lpar: "(",
  rpar: ")",
  lsqb: "[",
  rsqb: "]",
  lbrace: "{",
  rbrace: "}",
  dollar: "$",
  num: "#",
  excl: "!",
  quest: "?",
  equals: "=",
  plus: "+",
  hyphen: "-",
  dash: "-",
  tab: " ",
  newline: " ",
  grave: "`",
  verbar: "|",
  vert: "|",
  ast: "*",
  lowbar: "_",
  tilde: "~",
  commat: "@",
  percnt: "%",
};

/** A decoded character that would break the line structure or hide text becomes a space. */
function safeChar(code: number): string {
  if (!Number.isFinite(code) || code < 0 || code > 0x10ffff) return "";
  if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) return " ";
  return String.fromCodePoint(code);
}

const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]{2,8});?/g;
const PERCENT = /(?:%[0-9a-fA-F]{2})+/g;

function decodeOnce(text: string): string {
  let out = text;
  if (out.includes("&")) {
    out = out.replace(ENTITY, (all, body: string) => {
      if (body[0] !== "#") return NAMED[body.toLowerCase()] ?? all;
      const code = body[1] === "x" || body[1] === "X"
        ? parseInt(body.slice(2), 16)
        : parseInt(body.slice(1), 10);
      return safeChar(code);
    });
  }
  if (out.includes("%")) {
    out = out.replace(PERCENT, (run) => {
      const bytes = run.split("%").slice(1).map((h) => parseInt(h, 16));
      let decoded: string;
      try {
        decoded = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
      } catch {
        // Not UTF-8: each byte a character (a long run is no argument list).
        decoded = new TextDecoder("latin1").decode(new Uint8Array(bytes));
      }
      return decoded.replace(/[\n\r\u2028\u2029]/g, " ");
    });
  }
  return out;
}

/** Decodes HTML entities and URL %-encoding, twice (for `&amp;#105;` and `%2572`). */
export function decodeEntities(text: string): string {
  return decodeOnce(decodeOnce(text));
}

const TAG_CHARS = /\uDB40([\uDC20-\uDC7E])/g;
// deno-lint-ignore no-control-regex
const CONTROLS = /[\0-\x08\x0e-\x1b\x7f]/g;
// deno-lint-ignore no-control-regex
const SEPARATORS = /[\x0b\x0c\x1c-\x1f]/g;
const CODE_TAGS = /<\/?(?:code|kbd|q|samp|tt)>/gi;
const MARKUP = /<\/?[a-zA-Z][\w-]{0,20}(?:\s[^<>\n]{0,80})?\/?>|\*\*|__|~~/g;
const NON_ASCII = /[\u0080-\uffff]/;
const LINK = /\[([^\]\n]{1,80})\]\([^)\s]{0,200}\)/g;
const EMPHASIS =
  /(?<![\w*])\*(?=[A-Za-z])|(?<=[A-Za-z])\*(?![\w*])|(?<!\w)_(?=[A-Za-z])|(?<=[A-Za-z])_(?!\w)/g;
const MARKS = /\p{Mn}/gu;
// One way through an ANSI-C string: an escape is a backslash and its character (decoded after).
const ANSI_C = /\$'((?:\\.|[^'\\])*)'/g;
const ESCAPES = /\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\([0-7]{3})/g;

/** A line with non-ASCII characters: invisibles out, NFKC without marks, look-alikes folded. */
function unicodeLine(line: string): string {
  const visible = line.replace(INVISIBLE_CHARS, "").replace(/[\u2028\u2029]/g, " ");
  return foldConfusables(visible.normalize("NFKD").replace(MARKS, "").normalize("NFKC"));
}

function unescapeCodes(text: string): string {
  return text.replace(ESCAPES, (all, hex?: string, uni?: string, oct?: string) => {
    const code = parseInt(hex ?? uni ?? oct!, hex || uni ? 16 : 8);
    return code < 0x20 || code === 0x7f ? all : String.fromCharCode(code);
  });
}

/** Undoes shell tricks that split a word without changing what the shell runs. */
function unshell(text: string): string {
  let out = text;
  if (out.includes("$'")) out = out.replace(ANSI_C, (_all, body: string) => unescapeCodes(body));
  if (out.includes("\\")) {
    out = unescapeCodes(out).replace(/(?<=[A-Za-z0-9_])\\(?=[A-Za-z])/g, "");
  }
  if (out.includes("IFS")) out = out.replace(/\$\{?IFS\}?/g, " ");
  return out.replace(/(?<=[A-Za-z0-9_\/-])(''|"")(?=[A-Za-z0-9_\/-])/g, "");
}

/** Collapses whitespace runs between words to one space and drops trailing whitespace. */
function collapse(text: string): string {
  return text
    .replace(/(?<=\S)(?: [^\S\n]+|[^\S \n][^\S\n]*)(?=\S)/g, " ")
    .replace(/(?<![^\S\n])[^\S\n]+$/gm, "");
}

/** The whole text in normal form, line for line (no line is added or removed). */
export function normalizeText(text: string): string {
  let out = text;
  const ascii = !NON_ASCII.test(out);
  if (!ascii && out.includes("\uDB40")) {
    out = out.replace(
      TAG_CHARS,
      (_t, low: string) => String.fromCharCode(low.charCodeAt(0) - 0xdc00),
    );
  }
  out = decodeEntities(out);
  out = out.replace(CONTROLS, "").replace(SEPARATORS, " ");
  if (out.includes("<") || out.includes("**") || out.includes("__") || out.includes("~~")) {
    out = out.replace(CODE_TAGS, "`").replace(MARKUP, "");
  }
  if (out.includes("*") || out.includes("_") || out.includes("](")) {
    // Markdown emphasis and links split a phrase without changing what it says.
    out = out.replace(LINK, "$1").replace(EMPHASIS, "");
  }
  if (!ascii || NON_ASCII.test(out)) {
    out = out.split("\n").map((l) => NON_ASCII.test(l) ? unicodeLine(l) : l).join("\n");
  }
  // Spelled-out words and base64 payloads read as what they say (before spaces collapse).
  return collapse(joinWordCells(joinSpacedLetters(decodeBase64Runs(unshell(out)))));
}

/** True for a line the shell continues on the next (it ends in one `\`). */
function continues(line: string): boolean {
  return line.endsWith("\\") && !line.endsWith("\\\\");
}

/**
 * The logical lines of normalised text: a line ending in `\` continues on the next (as the
 * shell reads it); the joined line sits at its first line and the lines it absorbed are
 * null.
 */
export function joinContinuations(lines: readonly string[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < lines.length; i++) {
    const parts = [lines[i]];
    let j = i;
    for (let last = lines[i]; continues(last) && j + 1 < lines.length; last = lines[j]) {
      parts[parts.length - 1] = last.slice(0, -1);
      j++;
      parts.push(lines[j]);
    }
    // Joined once: a thousand continued lines are not re-read a thousand times.
    out.push(parts.length > 1 ? collapse(parts.join("")) : lines[i]);
    for (let k = i + 1; k <= j; k++) out.push(null);
    i = j;
  }
  return out;
}

/** The normal form of a text: one entry per original line (null where a line was joined up). */
export function normalForm(text: string): (string | null)[] {
  return joinContinuations(normalizeText(text).split("\n"));
}
