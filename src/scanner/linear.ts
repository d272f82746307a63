/**
 * Patterns that cannot hold the scanner ([HUB-4], issue 22): every regular expression a rule
 * runs on content is *bounded* — no `*`, `+` or `{n,}`, no repeat over {@linkcode MAX_REPEAT},
 * no back-reference, quantifiers nested at most two deep — so one attempt at one position
 * looks at a bounded window of text, and a search is linear in what it searches. What used to
 * be an unbounded gap (`curl[^\n]*-d[^\n]*$SECRET`) is a {@linkcode Sequence}: bounded parts
 * found one after another on the same line, each part's search moving only forward, so a
 * line of `curl -d curl -d …` is read a bounded number of times, not once per `curl`.
 *
 * {@linkcode WORK} counts what the searches did (executions, characters they started from),
 * for the property test that holds the scanner to linear work.
 *
 * @module
 */

/** The largest repeat count a bounded pattern may ask for. */
export const MAX_REPEAT = 256;

/** Work done by the scanner's searches since the last {@linkcode resetWork}. */
export const WORK = { execs: 0, chars: 0 };

/** Starts counting work from zero. */
export function resetWork(): void {
  WORK.execs = 0;
  WORK.chars = 0;
}

/** Counts `chars` characters examined by one piece of scanner work. */
export function charge(chars: number): void {
  WORK.execs++;
  WORK.chars += chars;
}

/** A gap between two parts that may not cross these characters (a line break never). */
export interface Gap {
  /** Characters the gap may not hold. */
  stop: string;
}

/** Parts found in order on one line, any text (but a gap's stop characters) between them. */
export interface Sequence {
  /** The bounded parts. */
  parts: readonly RegExp[];
  /** The stop characters of the gap before each part after the first (always with `\n`). */
  stops: readonly string[];
}

/** A gap that may not hold any of `chars` (nor a line break). */
export function gap(chars: string): Gap {
  return { stop: chars };
}

/** Parts in order on one line; a {@linkcode gap} before a part narrows what may come between. */
export function seq(...items: (RegExp | Gap)[]): Sequence {
  const parts: RegExp[] = [];
  const stops: string[] = [];
  let stop = "\n";
  for (const item of items) {
    if (!(item instanceof RegExp)) {
      stop = `\n${item.stop}`;
      continue;
    }
    if (parts.length) stops.push(stop);
    parts.push(assertBounded(item));
    stop = "\n";
  }
  return { parts, stops };
}

interface Parsed {
  /** Longest text the pattern can match. */
  max: number;
  /** How deep its quantifiers nest. */
  depth: number;
}

/** Reads a quantifier at `i` of `src`: its bounds and length, or null. */
function quantifierAt(src: string, i: number): { min: number; max: number; len: number } | null {
  const c = src[i];
  if (c === "?") return { min: 0, max: 1, len: src[i + 1] === "?" ? 2 : 1 };
  if (c === "*" || c === "+") return { min: 0, max: Infinity, len: 1 };
  if (c !== "{") return null;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i, i + 16));
  if (!m) return null;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
  return { min: Number(m[1]), max, len: m[0].length + (src[i + m[0].length] === "?" ? 1 : 0) };
}

/** Length of the atom at `i` (an escape, a class, a character) and the text it may match. */
function atomAt(src: string, i: number): { len: number; max: number } {
  if (src[i] === "\\") {
    const next = src[i + 1];
    if (/[1-9k]/.test(next)) throw new Error(`a back-reference at ${i}`);
    if (next === "b" || next === "B") return { len: 2, max: 0 };
    const unit = /^\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|[pP]\{[^}]*\}|c[A-Za-z]|.)/
      .exec(src.slice(i, i + 16))!;
    return { len: unit[0].length, max: 1 };
  }
  if (src[i] === "[") {
    let j = i + 1;
    if (src[j] === "^") j++;
    if (src[j] === "]") j++;
    while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
    return { len: j + 1 - i, max: 1 };
  }
  return { len: 1, max: src[i] === "^" || src[i] === "$" ? 0 : 1 };
}

/** Parses alternatives from `at.i` up to a `)` or the end. */
function parseAlternatives(src: string, at: { i: number }): Parsed {
  let best: Parsed = { max: 0, depth: 0 };
  let cur: Parsed = { max: 0, depth: 0 };
  while (at.i < src.length && src[at.i] !== ")") {
    if (src[at.i] === "|") {
      best = { max: Math.max(best.max, cur.max), depth: Math.max(best.depth, cur.depth) };
      cur = { max: 0, depth: 0 };
      at.i++;
      continue;
    }
    let item: Parsed;
    if (src[at.i] === "(") {
      const look = /^\(\?(<?[=!])/.exec(src.slice(at.i, at.i + 4));
      at.i += look ? look[0].length : /^\(\?(<[\w]+>|:)/.exec(src.slice(at.i, at.i + 40))
        ?.[0].length ?? 1;
      const inner = parseAlternatives(src, at);
      at.i++; // ")"
      item = look ? { max: 0, depth: inner.depth } : inner;
    } else {
      const atom = atomAt(src, at.i);
      at.i += atom.len;
      item = { max: atom.max, depth: 0 };
    }
    const q = quantifierAt(src, at.i);
    if (q) {
      if (q.max === Infinity) throw new Error(`an unbounded repeat at ${at.i}`);
      if (q.max > MAX_REPEAT) throw new Error(`a repeat over ${MAX_REPEAT} at ${at.i}`);
      at.i += q.len;
      // An optional item (`?`) repeats nothing: only a repeat deepens the nesting.
      item = { max: item.max * q.max, depth: item.depth + (q.max > 1 ? 1 : 0) };
    }
    cur = { max: cur.max + item.max, depth: Math.max(cur.depth, item.depth) };
  }
  return { max: Math.max(best.max, cur.max), depth: Math.max(best.depth, cur.depth) };
}

/** The longest text a bounded pattern can match; throws (naming why) for one that is not bounded. */
export function boundedLength(re: RegExp): number {
  const at = { i: 0 };
  const parsed = parseAlternatives(re.source, at);
  if (at.i !== re.source.length) throw new Error(`an unmatched ')' at ${at.i}`);
  if (parsed.depth > 2) throw new Error(`quantifiers nested ${parsed.depth} deep`);
  return parsed.max;
}

/** Returns `re` when it is bounded; throws naming the pattern and why not. */
export function assertBounded(re: RegExp): RegExp {
  try {
    boundedLength(re);
  } catch (e) {
    throw new Error(`scanner pattern /${re.source}/ is not bounded: ${(e as Error).message}`);
  }
  return re;
}

/** A pattern as the search runs it: global, multi-line, with the rule's own flags. */
export function searching(re: RegExp): RegExp {
  const flags = new Set([...re.flags, "g", "m"]);
  return new RegExp(assertBounded(re).source, [...flags].join(""));
}

/** A sequence ready to search: its parts global. */
export interface Compiled {
  parts: readonly RegExp[];
  stops: readonly string[];
}

/** Compiles a rule's pattern (one regular expression or a sequence) for searching. */
export function compile(pattern: RegExp | Sequence): Compiled {
  if (pattern instanceof RegExp) return { parts: [searching(pattern)], stops: [] };
  return { parts: pattern.parts.map(searching), stops: pattern.stops };
}

/** The leftmost match of `re` starting at `from` or later, with the work counted. */
function execFrom(re: RegExp, text: string, from: number): RegExpExecArray | null {
  re.lastIndex = from;
  const m = re.exec(text);
  charge((m ? m.index + 1 : text.length) - from);
  return m;
}

/** The first stop character at `from` or later (or the text's end), remembered while valid. */
class StopFinder {
  #lo = -1;
  #hi = -1;
  constructor(private text: string, private stop: string) {}

  next(from: number): number {
    if (this.#lo <= from && from <= this.#hi) return this.#hi;
    let i = from;
    while (i < this.text.length && !this.stop.includes(this.text[i])) i++;
    charge(i - from);
    this.#lo = from;
    this.#hi = i;
    return i;
  }
}

/** A part's forward-only search: the leftmost match at or after where it last looked. */
class Cursor {
  #from = -1;
  #match: RegExpExecArray | null | undefined;
  constructor(private re: RegExp, private text: string) {}

  find(from: number): RegExpExecArray | null {
    const known = this.#match;
    if (known !== undefined && (known === null || known.index >= from)) return known;
    this.#from = Math.max(from, this.#from);
    this.#match = execFrom(this.re, this.text, this.#from);
    return this.#match;
  }
}

/** One match of a pattern: where it starts and what it spans. */
export interface Hit {
  /** Offset of its start. */
  index: number;
  /** The text from its first part's start to its last part's end. */
  text: string;
}

/** Every match of a compiled pattern in `text`, left to right, none overlapping. */
export function* hitsOf(pattern: Compiled, text: string): Generator<Hit> {
  const [first, ...rest] = pattern.parts;
  const cursors = rest.map((re) => new Cursor(re, text));
  const stops = pattern.stops.map((s) => new StopFinder(text, s));
  let pos = 0;
  while (pos <= text.length) {
    const head = execFrom(first, text, pos);
    if (!head) return;
    let end = head.index + head[0].length;
    let found = true;
    for (let i = 0; i < rest.length && found; i++) {
      const limit = stops[i].next(end);
      const m = cursors[i].find(end);
      if (!m) return; // No later head can be followed by this part either.
      if (m.index > limit) found = false;
      else end = m.index + m[0].length;
    }
    if (found) {
      yield { index: head.index, text: text.slice(head.index, end) };
      pos = end > head.index ? end : head.index + 1;
    } else pos = head.index + 1;
  }
}

/**
 * A test of a bounded pattern that ends at `$` on the end of a text: it reads only as much of
 * the text as the pattern can match (and one character before, for `\b`), however long.
 */
export function endsWith(re: RegExp): (text: string) => boolean {
  const window = boundedLength(assertBounded(re)) + 2;
  return (text) => {
    const tail = text.length > window ? text.slice(text.length - window) : text;
    charge(tail.length);
    return re.test(tail);
  };
}

/** A test of a bounded pattern from `^` to `$`: a text longer than it can match is not read. */
export function wholeText(re: RegExp): (text: string) => boolean {
  const longest = boundedLength(assertBounded(re));
  return (text) => text.length <= longest && re.test(text);
}

/** A test of a bounded pattern that starts at `^` on the start of a text (read no further). */
export function startsWith(re: RegExp): (text: string) => boolean {
  const window = boundedLength(assertBounded(re)) + 2;
  return (text) => re.test(text.length > window ? text.slice(0, window) : text);
}
