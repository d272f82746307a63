/**
 * Asking one `setup` question at the warden's terminal ([V-9]): the skill's prompt and
 * help shown on stderr with control characters made visible (they come from the skill),
 * the answer read from stdin — a secret with echo off (raw mode, nothing printed back).
 * Undefined when stdin or stderr is not a terminal; null when the user pressed Ctrl-C or
 * Ctrl-D.
 *
 * @module
 */
import type { SetupQuestion } from "../home/skill_setup.ts";
import { visibleControls } from "./terminal_text.ts";

const encoder = new TextEncoder();
const say = (text: string) => Deno.stderr.writeSync(encoder.encode(text));

function clip(text: string, max = 300): string {
  const one = visibleControls(text.replace(/\s+/g, " ").trim());
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** Reads bytes until Enter (the terminal is raw for a secret). Null on Ctrl-C / Ctrl-D. */
function readAnswer(): string | null {
  const bytes: number[] = [];
  const buf = new Uint8Array(1);
  const text = () => new TextDecoder().decode(new Uint8Array(bytes)).trim();
  while (true) {
    const n = Deno.stdin.readSync(buf);
    if (n === null || n === 0) return bytes.length ? text() : null;
    const b = buf[0];
    if (b === 0x0d || b === 0x0a) return text();
    if (b === 0x03 || (b === 0x04 && bytes.length === 0)) return null;
    if (b === 0x7f || b === 0x08) bytes.pop();
    else bytes.push(b);
  }
}

/** Asks one question at the terminal; see the module doc for the answers. */
export function askSetupQuestion(question: SetupQuestion): string | null | undefined {
  if (!Deno.stdin.isTerminal() || !Deno.stderr.isTerminal()) return undefined;
  if (question.help) say(`  ${clip(question.help)}\n`);
  const shownDefault = question.default !== undefined ? ` [${clip(question.default, 120)}]` : "";
  const hidden = question.secret ? " (input hidden)" : "";
  // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
  if (question.secret) Deno.stdin.setRaw(true);
  try {
    say(`${clip(question.prompt)}${shownDefault}${hidden}: `);
    return readAnswer();
  } finally {
    if (question.secret) {
      Deno.stdin.setRaw(false);
      say("\n");
    }
  }
}
