/**
 * Text for a terminal ([X-7]): control characters that came from skill content (terminal
 * escapes that set the title, clear the screen or write the clipboard, carriage returns
 * that overwrite a line) are shown, not obeyed — C0 as `^X`, DEL as `^?`, C1 as `M-^X` —
 * except newline and tab; so are the bidirectional embeddings, overrides and isolates
 * (U+202A..U+202E, U+2066..U+2069, shown as `<U+202E>`), which would reorder what a line
 * shows (a description making a `[dangerous]` verdict read as something else). The styles skillrt itself adds (bold, dim, red, green, yellow,
 * cyan and reset, only when colour is on) are kept. `--json` output is not touched: JSON escapes control characters itself.
 *
 * @module
 */
import type { GlobalOptions, Outcome } from "../worker/request.ts";

// deno-lint-ignore no-control-regex
const COLOUR = /\x1b\[(?:0|1|2|31|32|33|36)m/y;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** True for a bidirectional embedding, override or isolate (not the plain marks LRM/RLM). */
const isBidi = (code: number): boolean =>
  (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);

function caret(code: number): string {
  if (code === 0x7f) return "^?";
  if (code >= 0x80) return `M-${caret(code - 0x80)}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}

/** `text` with every control character but newline and tab made visible. */
export function visibleControls(text: string, keepColours = false): string {
  if (!CONTROL.test(text)) return text;
  const plain = text.replace(/\r\n/g, "\n");
  let out = "";
  for (let i = 0; i < plain.length; i++) {
    const code = plain.charCodeAt(i);
    const isControl = (code < 0x20 && code !== 0x0a && code !== 0x09) ||
      (code >= 0x7f && code <= 0x9f);
    if (isBidi(code)) {
      out += `<U+${code.toString(16).toUpperCase()}>`;
      continue;
    }
    if (!isControl) {
      out += plain[i];
      continue;
    }
    if (keepColours && code === 0x1b) {
      COLOUR.lastIndex = i;
      const m = COLOUR.exec(plain);
      if (m) {
        out += m[0];
        i += m[0].length - 1;
        continue;
      }
    }
    out += caret(code);
  }
  return out;
}

/** An outcome made safe for a terminal (text mode only). */
export function terminalOutcome(
  outcome: Outcome,
  global: Pick<GlobalOptions, "json" | "color">,
): Outcome {
  if (global.json) return outcome;
  return {
    ...outcome,
    stdout: visibleControls(outcome.stdout, global.color),
    stderr: visibleControls(outcome.stderr, global.color),
  };
}
