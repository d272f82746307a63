/**
 * Cutting a text to a width for people: on one line, and what is cut marked with `…`.
 *
 * @module
 */

/** Cuts text to `width` characters (whitespace runs made one space), ending with `…` when cut. */
export function clip(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length <= width ? oneLine : oneLine.slice(0, Math.max(0, width - 1)) + "…";
}

/**
 * The width of the terminal stdout is, or undefined when it is none (a pipe, a file) or
 * its size cannot be read.
 */
export function terminalColumns(): number | undefined {
  try {
    return Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined;
  } catch {
    return undefined;
  }
}
