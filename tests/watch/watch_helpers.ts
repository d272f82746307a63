/**
 * Helpers of the watch tests: file times set back, so that a stamp proves something
 * (a stamp younger than `RACY_MS` never matches).
 */

/** Sets the times of everything below `dir` (and `dir`) an hour back: no stamp is racy. */
export function age(dir: string): void {
  const past = new Date(Date.now() - 3_600_000);
  for (const e of Deno.readDirSync(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) age(path);
    else Deno.utimeSync(path, past, past);
  }
  Deno.utimeSync(dir, past, past);
}

/** Writes `text` into `path` in place, and sets its times an hour back (not racy). */
export function editAged(path: string, text: string): void {
  Deno.writeTextFileSync(path, text);
  const past = new Date(Date.now() - 3_500_000);
  Deno.utimeSync(path, past, past);
}
