/**
 * Writing text to a stream completely: a large document takes more than one write. A
 * reader that went away (`skillrt list | head -1`) is not an error ([C-8]): the rest of
 * the text is dropped quietly.
 *
 * @module
 */

/**
 * Writes all of `text` (as UTF-8) to a stream with synchronous writes; returns false when
 * the reader has closed the stream (a broken pipe), true otherwise.
 */
export function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): boolean {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let off = 0; off < bytes.length;) off += stream.writeSync(bytes.subarray(off));
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return false;
    throw error;
  }
  return true;
}
