/**
 * Level-1 preprocessing ([P-1..5]) in a single pass over the text: template variables,
 * Claude Code arguments and inline shell are found by one scan of the original content
 * and replaced once, so nothing a substitution or a command produced is ever expanded
 * again. Inside an inline-shell command the variables are not spliced into its text: the
 * command gets them as data ([P-4], see `inline_command.ts`). (The config block, [P-6],
 * is added by the caller.)
 *
 * @module
 */
import { type InlineShellOptions, runInlineShell } from "./inline_shell.ts";
import {
  argumentWords,
  valueOf,
  VARIABLE_PATTERN,
  variableOf,
  type VariableValues,
} from "./variables.ts";

/** What preprocessing needs to know. */
export interface PreprocessContext extends VariableValues {
  /** How to run inline shell; inline shell stays literal text when absent. */
  inlineShell?: InlineShellOptions;
}

const TOKEN = new RegExp(`!\`([^\`\\n]+)\`|${VARIABLE_PATTERN}`, "g");

/** The replacement of one variable token, or undefined to leave it as written. */
function variable(
  m: RegExpMatchArray,
  ctx: PreprocessContext,
  words: string[] | undefined,
): string | undefined {
  return valueOf(variableOf(m[2], m[3], m[4]), ctx, words);
}

/** Replaces template variables and arguments in a text (no inline shell): one pass. */
export function substituteVariables(text: string, ctx: PreprocessContext): string {
  const words = argumentWords(ctx);
  return text.replace(TOKEN, (...found) => {
    const m = found.slice(0, 5) as unknown as RegExpMatchArray;
    if (m[1] !== undefined) return m[0];
    return variable(m, ctx, words) ?? m[0];
  });
}

/** Preprocesses a whole SKILL.md: one scan, each token replaced once, commands run in order. */
export async function preprocess(text: string, ctx: PreprocessContext): Promise<string> {
  const words = argumentWords(ctx);
  let out = "";
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    let replacement: string | undefined;
    if (m[1] !== undefined) {
      // Inline shell: the variables inside the command reach it as data, never as code.
      replacement = ctx.inlineShell ? await runInlineShell(m[1], ctx.inlineShell, ctx) : undefined;
    } else replacement = variable(m, ctx, words);
    out += text.slice(last, m.index) + (replacement ?? m[0]);
    last = m.index! + m[0].length;
  }
  return out + text.slice(last);
}
