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

/** Decodes UTF-8 strictly; on invalid bytes, decodes with replacement and says so. */
export function decodeUtf8(bytes: Uint8Array, stream = false): { text: string; invalid: boolean } {
  try {
    return {
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream }),
      invalid: false,
    };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes, { stream }), invalid: true };
  }
}

/** Reads the head of the file at `path` and splits its frontmatter. */
export function readHead(path: string): FileHead {
  using file = Deno.openSync(path);
  let bytes = new Uint8Array(0);
  let want = FIRST_READ;
  for (;;) {
    const next = new Uint8Array(want);
    let filled = 0;
    let eof = false;
    while (filled < want) {
      const n = file.readSync(next.subarray(filled));
      if (n === null) {
        eof = true;
        break;
      }
      filled += n;
    }
    const joined = new Uint8Array(bytes.length + filled);
    joined.set(bytes);
    joined.set(next.subarray(0, filled), bytes.length);
    bytes = joined;
    const { text, invalid } = decodeUtf8(bytes, !eof);
    const fence = splitFrontmatter(text, eof);
    // A head may end inside a line: keep whole lines of the body only.
    if (fence.kind === "ok" && !eof) {
      fence.body = fence.body.slice(0, fence.body.lastIndexOf("\n") + 1);
    }
    const capped = bytes.length >= MAX_HEAD;
    if (fence.kind === "incomplete" && !eof) {
      if (capped) return { fence: { kind: "too_large" }, invalidUtf8: invalid, complete: false };
    } else if (
      fence.kind === "ok" && !eof && !capped && !HAS_DESCRIPTION.test(fence.yaml) &&
      firstProseLine(fence.body) === undefined
    ) {
      // No description in the frontmatter: the first prose line of the body stands in.
    } else {
      return { fence, invalidUtf8: invalid, complete: eof };
    }
    want = Math.min(want * 2, 64 * 1024);
  }
}
