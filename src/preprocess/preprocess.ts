/**
 * Level-1 preprocessing ([P-1..5]) in a single pass over the text: template variables,
 * Claude Code arguments and inline shell are found by one scan of the original content
 * and replaced once, so nothing a substitution or a command produced is ever expanded
 * again. (The config block, [P-6], is added by the caller.)
 *
 * @module
 */
import { type InlineShellOptions, runInlineShell } from "./inline_shell.ts";
import { splitArguments } from "./shell_words.ts";

/** What preprocessing needs to know. */
export interface PreprocessContext {
  /** The skill folder, absolute: `${HERMES_SKILL_DIR}` and `${CLAUDE_SKILL_DIR}`. */
  skillDir: string;
  /** `${HERMES_SESSION_ID}` and `${CLAUDE_SESSION_ID}`; left as written when absent. */
  sessionId?: string;
  /** Expand template variables (`skills.template_vars`). */
  templateVars: boolean;
  /** `--args` text for `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`; left as written when absent. */
  args?: string;
  /** How to run inline shell; inline shell stays literal text when absent. */
  inlineShell?: InlineShellOptions;
}

const TOKEN =
  /!`([^`\n]+)`|\$\{(HERMES_SKILL_DIR|CLAUDE_SKILL_DIR|HERMES_SESSION_ID|CLAUDE_SESSION_ID)\}|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)/g;

/** The replacement of one variable token, or undefined to leave it as written. */
function variable(
  m: RegExpMatchArray,
  ctx: PreprocessContext,
  words: string[] | undefined,
): string | undefined {
  const [whole, , template, index, positional] = m;
  if (template !== undefined) {
    if (!ctx.templateVars) return undefined;
    return template.endsWith("SKILL_DIR") ? ctx.skillDir : ctx.sessionId;
  }
  if (words === undefined) return undefined;
  if (index !== undefined) return words[Number(index)] ?? "";
  if (positional !== undefined) return words[Number(positional)] ?? "";
  return whole === "$ARGUMENTS" ? ctx.args : undefined;
}

/** Replaces template variables and arguments in a text (no inline shell): one pass. */
export function substituteVariables(text: string, ctx: PreprocessContext): string {
  const words = ctx.args === undefined ? undefined : splitArguments(ctx.args);
  return text.replace(TOKEN, (...found) => {
    const m = found.slice(0, 6) as unknown as RegExpMatchArray;
    if (m[1] !== undefined) return m[0];
    return variable(m, ctx, words) ?? m[0];
  });
}

/** Preprocesses a whole SKILL.md: one scan, each token replaced once, commands run in order. */
export async function preprocess(text: string, ctx: PreprocessContext): Promise<string> {
  const words = ctx.args === undefined ? undefined : splitArguments(ctx.args);
  let out = "";
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    let replacement: string | undefined;
    if (m[1] !== undefined) {
      // Inline shell: variables inside the command are expanded first (they come first in [P-1]).
      replacement = ctx.inlineShell
        ? await runInlineShell(substituteVariables(m[1], ctx), ctx.inlineShell)
        : undefined;
    } else replacement = variable(m, ctx, words);
    out += text.slice(last, m.index) + (replacement ?? m[0]);
    last = m.index! + m[0].length;
  }
  return out + text.slice(last);
}
