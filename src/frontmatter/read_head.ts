/**
 * Reading only the head of a SKILL.md: as many bytes as it takes to find the closing
 * fence (and, when the frontmatter has no description, the first prose line) — never
 * the whole file ([S-6], and the cost model of SPEC §19).
 *
 * @module
 */
import { type Fence, firstProseLine, MAX_FRONTMATTER_CHARS, splitFrontmatter } from "./fence.ts";

/** What the head of a file held. */
export interface FileHead {
  /** Where the frontmatter is, or why there is none. */
  fence: Fence;
  /** True when the bytes read were not valid UTF-8 (the text then holds U+FFFD). */
  invalidUtf8: boolean;
  /** True when the whole file was read. */
  complete: boolean;
}

const FIRST_READ = 4096;
const MAX_HEAD = MAX_FRONTMATTER_CHARS + 64 * 1024;
const HAS_DESCRIPTION = /^description[ \t]*:/m;
const STRICT = new TextDecoder("utf-8", { fatal: true });
const LENIENT = new TextDecoder("utf-8");

/** Where a trailing, possibly cut UTF-8 sequence starts (bytes.length when there is none). */
function wholeCharsEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

/**
 * Decodes UTF-8 strictly; on invalid bytes, decodes with replacement and says so. With
 * `partial`, a sequence cut at the end (a head of a longer file) is left out.
 */
export function decodeUtf8(bytes: Uint8Array, partial = false): { text: string; invalid: boolean } {
  const view = partial ? bytes.subarray(0, wholeCharsEnd(bytes)) : bytes;
  try {
    return { text: STRICT.decode(view), invalid: false };
  } catch {
    return { text: LENIENT.decode(view), invalid: true };
  }
}

const first = new Uint8Array(FIRST_READ);

function fill(file: Deno.FsFile, into: Uint8Array): { filled: number; eof: boolean } {
  let filled = 0;
  while (filled < into.length) {
    const n = file.readSync(into.subarray(filled));
    if (n === null) return { filled, eof: true };
    filled += n;
  }
  return { filled, eof: false };
}

const NL = 0x0a;
const DASH = 0x2d;

/** Where the line starting at `i` ends if it is a fence (`---`, spaces, optional CR), or -1. */
function fenceLineEnd(bytes: Uint8Array, i: number, eof: boolean): number {
  if (bytes[i] !== DASH || bytes[i + 1] !== DASH || bytes[i + 2] !== DASH) return -1;
  let j = i + 3;
  while (bytes[j] === 0x20 || bytes[j] === 0x09) j++;
  if (bytes[j] === 0x0d) j++;
  if (j < bytes.length) return bytes[j] === NL ? j + 1 : -1;
  return eof ? j : -1;
}

/**
 * The end of the closing fence line, found in the bytes without decoding them, or -1.
 * Decoding only this much keeps a listing from holding whole file heads in memory.
 */
export function closingFenceEnd(bytes: Uint8Array, eof: boolean): number {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const open = fenceLineEnd(bytes, start, false);
  if (open === -1) return -1;
  for (let nl = open - 1; (nl = bytes.indexOf(NL, nl + 1)) !== -1;) {
    const end = fenceLineEnd(bytes, nl + 1, eof);
    if (end !== -1) return end;
  }
  return -1;
}

/** Reads the head of the file at `path` and splits its frontmatter. */
export function readHead(path: string): FileHead {
  using file = Deno.openSync(path);
  return readHeadOf(file);
}

/** Reads the head of an opened file and splits its frontmatter (the caller closes it). */
export function readHeadOf(file: Deno.FsFile): FileHead {
  let { filled, eof } = fill(file, first);
  let bytes = first.subarray(0, filled);
  // The usual case: the whole frontmatter, with a description, in the first read.
  const closeAt = closingFenceEnd(bytes, eof);
  if (closeAt !== -1) {
    const { text, invalid } = decodeUtf8(bytes.subarray(0, closeAt));
    const fence = splitFrontmatter(text, true);
    if (fence.kind === "ok" && HAS_DESCRIPTION.test(fence.yaml)) {
      return { fence, invalidUtf8: invalid, complete: eof && closeAt === bytes.length };
    }
  }
  let want = FIRST_READ;
  for (;;) {
    const { text, invalid } = decodeUtf8(bytes, !eof);
    const fence = splitFrontmatter(text, eof);
    // A head may end inside a line: keep whole lines of the body only.
    if ((fence.kind === "ok" || fence.kind === "missing") && !eof) {
      fence.body = fence.body.slice(0, fence.body.lastIndexOf("\n") + 1);
    }
    const capped = bytes.length >= MAX_HEAD;
    const needMore = !eof && !capped && (fence.kind === "incomplete" ||
      (fence.kind === "ok" && !HAS_DESCRIPTION.test(fence.yaml) &&
        firstProseLine(fence.body) === undefined));
    if (!needMore) {
      if (fence.kind === "incomplete") {
        return { fence: { kind: "too_large" }, invalidUtf8: invalid, complete: false };
      }
      return { fence, invalidUtf8: invalid, complete: eof };
    }
    want = Math.min(want * 2, 64 * 1024);
    const next = new Uint8Array(bytes.length + want);
    next.set(bytes);
    const more = fill(file, next.subarray(bytes.length));
    bytes = next.subarray(0, bytes.length + more.filled);
    eof = more.eof;
    filled = bytes.length;
  }
}
