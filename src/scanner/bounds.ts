/**
 * How much the scanner reads ([HUB-4], issue 22 item 4): the one bound on its work, per file
 * and per skill, in lines and characters. Every rule is linear in what it reads, but at a few
 * microseconds a line 24 MB of newlines still held an install for minutes and one MCP write
 * held the shared HTTP server; past the bound the scan stops and says so with a `high`
 * `structural.unscanned` finding ("too large to scan"), which blocks a community install and
 * cautions a write. The numbers leave the real corpus far inside (its largest file is 74 KB
 * and 871 lines, its largest skill 81 KB and 2,915 lines), and a file as large as
 * `skill_manage` accepts (1 MiB) is read whole. Pure.
 *
 * @module
 */

/** The scanner's bound: lines and characters (UTF-16 code units) per file and per skill. */
export const SCAN_BOUNDS = {
  fileLines: 25_000,
  fileChars: 1536 * 1024,
  skillLines: 40_000,
  skillChars: 2 * 1024 * 1024,
} as const;

/** What a skill's scan may still read; each file's scan takes its share. */
export interface ScanBudget {
  /** Lines left. */
  lines: number;
  /** Characters left. */
  chars: number;
}

/** A fresh budget for one skill. */
export function skillBudget(): ScanBudget {
  return { lines: SCAN_BOUNDS.skillLines, chars: SCAN_BOUNDS.skillChars };
}

/** The text a file's scan reads, and (when that is not all of it) what the finding says. */
export interface Bounded {
  /** The start of the text, cut at a line end where it can be. */
  text: string;
  /** Null when the whole text is read; else the finding's excerpt. */
  past: string | null;
}

/** The most bytes whose decoding can hold the characters a file's scan may read (UTF-8: four a character at most). */
export function bytesToDecode(budget: ScanBudget): number {
  return 4 * Math.min(SCAN_BOUNDS.fileChars, budget.chars) + 4;
}

/**
 * The start of `text` a file's scan reads under `budget` (which it spends): at most the
 * file's and the skill's lines and characters, cut after the last whole line that fits
 * (a single line too long is cut at the character bound). Counts newlines only up to the bound.
 */
export function boundText(text: string, budget: ScanBudget): Bounded {
  const maxChars = Math.max(0, Math.min(SCAN_BOUNDS.fileChars, budget.chars));
  const maxLines = Math.max(0, Math.min(SCAN_BOUNDS.fileLines, budget.lines));
  let end = maxLines === 0 ? 0 : Math.min(text.length, maxChars);
  let lines = 0;
  let lastBreak = -1;
  for (let nl = text.indexOf("\n"); nl >= 0 && nl < end; nl = text.indexOf("\n", nl + 1)) {
    if (lines + 1 >= maxLines) {
      end = nl;
      break;
    }
    lines++;
    lastBreak = nl;
  }
  if (end < text.length && text[end] !== "\n" && lastBreak >= 0) {
    end = lastBreak; // The partial line after it is not read.
    lines--;
  }
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  budget.chars -= end;
  budget.lines -= lines + 1;
  if (end >= text.length) return { text, past: null };
  return {
    text: text.slice(0, end),
    past: `too large to scan: read to line ${lines + 1}, character ${end} (a file is read to ${
      SCAN_BOUNDS.fileLines.toLocaleString("en")
    } lines or ${SCAN_BOUNDS.fileChars / 1024 / 1024} MiB, a skill to ${
      SCAN_BOUNDS.skillLines.toLocaleString("en")
    } lines or ${SCAN_BOUNDS.skillChars / 1024 / 1024} MiB)`,
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
