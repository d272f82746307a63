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

/** The quoted regions of `text` between `from` and `to`, with their inner regions. */
export function quoteRegions(text: string, from = 0, to = text.length): QuoteRegion[] {
  const out: QuoteRegion[] = [];
  let i = from;
  while (i < to) {
    if (text[i] === "\\") {
      i += 2;
      continue;
    }
    if (!opensAt(text, i, from)) {
      i++;
      continue;
    }
    const quote = text[i];
    let j = i + 1;
    while (j < to && !closesAt(text, j, quote)) j += text[j] === "\\" && quote !== "'" ? 2 : 1;
    if (j >= to) {
      i++; // A quote that never closes quotes nothing.
      continue;
    }
    const inner = quote === "/" ? [] : quoteRegions(text, i + 1, j);
    out.push({ quote, open: i, close: j, inner });
    i = j + 1;
  }
  return out;
}

/** The chain of regions (outermost first) that hold the span `[start, end)`. */
export function regionsHolding(
  regions: readonly QuoteRegion[],
  start: number,
  end: number,
): QuoteRegion[] {
  for (const r of regions) {
    if (r.open < start && end <= r.close + 1) {
      return [r, ...regionsHolding(r.inner, start, end)];
    }
  }
  return [];
}
