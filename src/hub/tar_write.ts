/**
 * A reproducible `.tar.gz` writer for `hub publish` ([T-1]): ustar headers with fixed
 * fields (mode 0644, owner 0/0, time 0, no user or group names), entries in the order
 * given (callers sort them), gzip from the platform's `CompressionStream`. The same
 * files always give the same bytes.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";

/** One file to put in the archive. */
export interface TarEntry {
  /** Relative `/`-separated path (printable ASCII). */
  path: string;
  /** Its bytes. */
  data: Uint8Array;
}

const enc = new TextEncoder();

function put(header: Uint8Array, offset: number, length: number, text: string): void {
  const bytes = enc.encode(text);
  if (bytes.length > length) throw new ValidationError(`A tar field is too long: '${text}'.`);
  header.set(bytes, offset);
}

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, "0");
}

/** Splits a path into ustar `prefix` and `name` (name ≤ 100 bytes, prefix ≤ 155). */
function splitPath(path: string): { prefix: string; name: string } {
  if (path.length <= 100) return { prefix: "", name: path };
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (prefix.length <= 155 && name.length <= 100) return { prefix, name };
  }
  throw new ValidationError(`Cannot pack '${path}': the path is too long for a tar archive.`);
}

function header(entry: TarEntry): Uint8Array {
  const h = new Uint8Array(512);
  const { prefix, name } = splitPath(entry.path);
  put(h, 0, 100, name);
  put(h, 100, 8, octal(0o644, 8));
  put(h, 108, 8, octal(0, 8));
  put(h, 116, 8, octal(0, 8));
  put(h, 124, 12, octal(entry.data.length, 12));
  put(h, 136, 12, octal(0, 12));
  h.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  h[156] = 0x30; // a regular file
  put(h, 257, 6, "ustar");
  put(h, 263, 2, "00");
  put(h, 345, 155, prefix);
  const sum = h.reduce((a, b) => a + b, 0);
  put(h, 148, 8, `${octal(sum, 7)}\0`);
  return h;
}

/** The uncompressed tar of `entries`, in their order. */
export function tarBytes(entries: readonly TarEntry[]): Uint8Array {
  let size = 1024; // two zero blocks end the archive
  for (const e of entries) size += 512 + Math.ceil(e.data.length / 512) * 512;
  const out = new Uint8Array(size);
  let off = 0;
  for (const e of entries) {
    out.set(header(e), off);
    out.set(e.data, off + 512);
    off += 512 + Math.ceil(e.data.length / 512) * 512;
  }
  return out;
}

/** Gzips bytes with the platform's `CompressionStream`. */
export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data.slice()]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The `.tar.gz` of `entries`, byte for byte the same for the same entries. */
export async function tarGzBytes(entries: readonly TarEntry[]): Promise<Uint8Array> {
  return await gzip(tarBytes(entries));
}
