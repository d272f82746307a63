/**
 * Atomic writes ([M-4]): the new content goes to a temporary file in the same folder,
 * is flushed, then renamed over the target, so a failed or interrupted write leaves the
 * old content intact.
 *
 * @module
 */

/** The temporary file used for `path` (a fixed name: writers hold the file's lock). */
export function tempPathFor(path: string): string {
  return `${path}.tmp`;
}

/** Writes bytes or text to `path` atomically; `temp` defaults to {@linkcode tempPathFor}. */
export function atomicWrite(
  path: string,
  content: string | Uint8Array,
  temp = tempPathFor(path),
): void {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const file = Deno.openSync(temp, { write: true, create: true, truncate: true });
  try {
    let off = 0;
    while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
    file.syncSync();
  } finally {
    file.close();
  }
  Deno.renameSync(temp, path);
}

/** Writes a JSON document atomically (pretty-printed, with a final newline). */
export function atomicWriteJson(path: string, value: unknown): void {
  atomicWrite(path, JSON.stringify(value, null, 2) + "\n");
}

/** A unique temporary name beside `path`, for writes not guarded by a lock (skill files). */
export function uniqueTempFor(path: string): string {
  const slash = path.lastIndexOf("/");
  const rand = crypto.getRandomValues(new Uint8Array(6)).reduce(
    (s, b) => s + b.toString(16).padStart(2, "0"),
    "",
  );
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}.${rand}.tmp`;
}
