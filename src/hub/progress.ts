/**
 * Progress on stderr for downloads and scans ([HUB-7]), shown only when stderr is a
 * terminal: one line rewritten in place, ended when the step is done. Nothing is written
 * when stderr is a pipe or a file, so JSON on stdout and logs stay clean.
 *
 * @module
 */

/** Formats a byte count the way the progress line shows it (`512 B`, `1.5 KiB`, `2.0 MiB`). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The text of a download's progress line. */
export function downloadLine(url: string, bytes: number, total?: number): string {
  const of = total ? ` of ${formatBytes(total)}` : "";
  return `Downloading ${url}: ${formatBytes(bytes)}${of}`;
}

let shown: boolean | undefined;
let last = 0;

function enabled(): boolean {
  if (shown === undefined) {
    try {
      shown = Deno.stderr.isTerminal();
    } catch {
      shown = false;
    }
  }
  return shown;
}

/**
 * Shows `line` on stderr when it is a terminal. Updates closer than 100 ms apart are
 * dropped unless `done`, which ends the line.
 */
export function progress(line: string, done = false): void {
  if (!enabled()) return;
  const now = Date.now();
  if (!done && now - last < 100) return;
  last = now;
  Deno.stderr.writeSync(new TextEncoder().encode(`\r\x1b[K${line}${done ? "\n" : ""}`));
}
