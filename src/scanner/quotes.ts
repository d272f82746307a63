/**
 * Quoted regions of a line, nested: `"…"`, `'…'` (an apostrophe inside a word is not a
 * quote), `` `…` ``, typographic quotes, and `/…/` regex literals where a regex can stand.
 * The scanner's context rules ask which quoted strings hold a match. Pure.
 *
 * @module
 */

/** One quoted region: `open` is the index of the opening quote, `close` of the closing one. */
export interface QuoteRegion {
  /** The quote character. */
  quote: string;
  /** Index of the opening quote in the line. */
  open: number;
  /** Index of the closing quote. */
  close: number;
  /** Regions inside this one (a quote within the string, e.g. `"grep 'x'"`). */
  inner: QuoteRegion[];
}

const CLOSE: Record<string, string> = {
  '"': '"',
  "'": "'",
  "`": "`",
  "\u201C": "\u201D",
  "\u2018": "\u2019",
  "\u00AB": "\u00BB",
  "\u201E": "\u201C",
};

const WORD = /[\p{L}\p{N}_]/u;

function opensAt(text: string, i: number, from: number): boolean {
  const ch = text[i];
  if (ch === "/") {
    let j = i - 1;
    while (j >= from && (text[j] === " " || text[j] === "\t")) j--;
    return (j < from || "=(,:!&|?[".includes(text[j])) && text.indexOf("/", i + 1) > i + 1;
  }
  if (!(ch in CLOSE)) return false;
  if (ch === "'" && i > from && WORD.test(text[i - 1])) return false;
  return true;
}

function closesAt(text: string, i: number, quote: string): boolean {
  const close = quote === "/" ? "/" : CLOSE[quote];
  if (text[i] !== close) return false;
  if (quote === "'" && i + 1 < text.length && WORD.test(text[i + 1])) return false;
  return true;
}

/** How deep quoted regions are looked for inside each other. */
const MAX_DEPTH = 8;

/**
 * The quoted regions of `text` between `from` and `to`, with their inner regions. Linear: a
 * quote that finds no closing quote means no later quote of its kind will (the search walks the
 * same characters), so it is not looked for again.
 */
export function quoteRegions(text: string, from = 0, to = text.length, depth = 0): QuoteRegion[] {
  const out: QuoteRegion[] = [];
  const unclosed = new Set<string>();
  let i = from;
  while (i < to) {
    if (text[i] === "\\") {
      i += 2;
      continue;
    }
    if (unclosed.has(text[i]) || !opensAt(text, i, from)) {
      i++;
      continue;
    }
    const quote = text[i];
    let j = i + 1;
    while (j < to && !closesAt(text, j, quote)) j += text[j] === "\\" && quote !== "'" ? 2 : 1;
    if (j >= to) {
      unclosed.add(quote); // A quote that never closes quotes nothing.
      i++;
      continue;
    }
    const inner = quote === "/" || depth >= MAX_DEPTH
      ? []
      : quoteRegions(text, i + 1, j, depth + 1);
    out.push({ quote, open: i, close: j, inner });
    i = j + 1;
  }
  return out;
}

/** `text` with each quoted string (`"…"`, `'…'`, `` `…` ``, backslash escapes kept in) put as `by`. */
export function replaceQuoted(text: string, by: string): string {
  const parts: string[] = [];
  const unclosed = new Set<string>();
  let kept = 0;
  let i = 0;
  while (i < text.length) {
    const q = text[i];
    if ((q !== '"' && q !== "'" && q !== "`") || unclosed.has(q)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < text.length && text[j] !== q) j += text[j] === "\\" && q !== "`" ? 2 : 1;
    if (j >= text.length) {
      unclosed.add(q);
      i++;
      continue;
    }
    parts.push(text.slice(kept, i), by);
    kept = i = j + 1;
  }
  parts.push(text.slice(kept));
  return parts.join("");
}

/** The chain of regions (outermost first) that hold the span `[start, end)`. */
export function regionsHolding(
  regions: readonly QuoteRegion[],
  start: number,
  end: number,
): QuoteRegion[] {
  // Regions of one level are in order and apart: the only candidate is the last opening before.
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (regions[mid].open < start) lo = mid + 1;
    else hi = mid - 1;
  }
  const r = regions[hi];
  if (r && r.open < start && end <= r.close + 1) return [r, ...regionsHolding(r.inner, start, end)];
  return [];
}
