/**
 * The warden's questions at the terminal: `setup`'s ([V-9]), a yes/no and a collection's
 * choice. Each is read with the terminal in raw mode, echoed here (a secret is not), so
 * that Ctrl-C and Ctrl-D arrive as keys and end the question at once: the answer is then
 * null, and the warden interrupts the command (src/warden/run_worker.ts). In the
 * terminal's own line mode Ctrl-C would be a signal the warden, blocked reading, could
 * not act on until Enter. Text from a skill is shown on stderr with control characters
 * made visible. Undefined when stdin or stderr is not a terminal.
 *
 * @module
 */
import type { SetupQuestion } from "../home/skill_setup.ts";
import { visibleControls } from "./terminal_text.ts";

const encoder = new TextEncoder();
const say = (text: string | Uint8Array) =>
  Deno.stderr.writeSync(typeof text === "string" ? encoder.encode(text) : text);

function clip(text: string, max = 300): string {
  const one = visibleControls(text.replace(/\s+/g, " ").trim());
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** Removes the last UTF-8 character of `bytes` (its continuation bytes and its lead). */
function dropLast(bytes: number[]): boolean {
  if (bytes.length === 0) return false;
  while (bytes.length > 1 && (bytes[bytes.length - 1] & 0xc0) === 0x80) bytes.pop();
  bytes.pop();
  return true;
}

/**
 * Reads bytes until Enter, the terminal raw, echoing each (unless `hidden`) and erasing
 * on Backspace. Null on Ctrl-C, and on Ctrl-D or the end of input before anything typed.
 */
function readAnswer(hidden: boolean): string | null {
  const bytes: number[] = [];
  const buf = new Uint8Array(1);
  const text = () => new TextDecoder().decode(new Uint8Array(bytes)).trim();
  while (true) {
    const n = Deno.stdin.readSync(buf);
    if (n === null || n === 0) return bytes.length ? text() : null;
    const b = buf[0];
    if (b === 0x0d || b === 0x0a) return text();
    if (b === 0x03 || (b === 0x04 && bytes.length === 0)) return null;
    if (b === 0x7f || b === 0x08) {
      if (dropLast(bytes) && !hidden) say("\b \b");
    } else if (b >= 0x20 || b === 0x09) {
      bytes.push(b);
      if (!hidden) say(buf);
    }
  }
}

/**
 * Shows `prompt` and reads one line at the terminal (see the module doc): the line, null
 * when the user pressed Ctrl-C or Ctrl-D, undefined when there is no terminal.
 */
export function readLineAtTerminal(prompt: string, hidden = false): string | null | undefined {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal()) return undefined;
  // Raw before the prompt shows, so nothing typed after it is echoed by the terminal.
  Deno.stdin.setRaw(true);
  try {
    say(prompt); // Deno's raw mode keeps output processing: "\n" still ends a line
    return readAnswer(hidden);
  } finally {
    Deno.stdin.setRaw(false);
    say("\n");
  }
}

/** Asks a yes/no question: true only for y or yes; null on Ctrl-C; undefined without a terminal. */
export function askAtTerminal(question: string): boolean | null | undefined {
  const answer = readLineAtTerminal(`${question} [y/N] `);
  return typeof answer === "string" ? /^\s*y(es)?\s*$/i.test(answer) : answer;
}

/** Asks one `setup` question; the answer as {@linkcode readLineAtTerminal} gives it. */
export function askSetupQuestion(question: SetupQuestion): string | null | undefined {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal()) return undefined;
  if (question.help) say(`  ${clip(question.help)}\n`);
  const shownDefault = question.default !== undefined ? ` [${clip(question.default, 120)}]` : "";
  const hidden = question.secret ? " (input hidden)" : "";
  return readLineAtTerminal(`${clip(question.prompt)}${shownDefault}${hidden}: `, question.secret);
}
