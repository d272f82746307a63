/**
 * Writing text to a stream completely: a large document takes more than one write.
 *
 * @module
 */

/** Writes all of `text` (as UTF-8) to a stream with synchronous writes. */
export function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let off = 0; off < bytes.length;) off += stream.writeSync(bytes.subarray(off));
}
