/**
 * Splitting an inline-shell command into argv with shell quoting rules, and telling
 * whether it needs a real shell ([P-4]). Pure: no process is started here.
 *
 * @module
 */

/** The result of splitting a command line. */
export type SplitCommand =
  | {
    /** The words, quotes removed. */
    argv: string[];
    /** True when the command uses shell syntax (pipes, `;`, `&&`, redirects, `$(`, …). */
    shellSyntax: boolean;
  }
  | {
    /** Why the command could not be split. */
    error: string;
  };

const OPERATORS = new Set(["|", ";", "&", "<", ">", "(", ")", "`", "*", "?"]);

/**
 * Splits `cmd` like a POSIX shell would into words: whitespace separates, single
 * quotes are literal, double quotes allow `\` escapes of `$ \` " \\`, a backslash outside
 * quotes escapes the next character. Unquoted operators, `$` expansions and a leading
 * `~` mark the command as shell syntax.
 */
export function splitCommand(cmd: string): SplitCommand {
  const argv: string[] = [];
  let word = "";
  let inWord = false;
  let shellSyntax = false;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (c === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end === -1) return { error: "unclosed single quote" };
      word += cmd.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < cmd.length && cmd[j] !== '"'; j++) {
        if (cmd[j] === "\\" && j + 1 < cmd.length && '$`"\\'.includes(cmd[j + 1])) {
          word += cmd[++j];
        } else {
          if (cmd[j] === "$" || cmd[j] === "`") shellSyntax = true;
          word += cmd[j];
        }
      }
      if (j >= cmd.length) return { error: "unclosed double quote" };
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (i + 1 < cmd.length) word += cmd[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      if (inWord) argv.push(word);
      word = "";
      inWord = false;
    } else {
      if (OPERATORS.has(c) || c === "$" || (c === "~" && !inWord)) shellSyntax = true;
      word += c;
      inWord = true;
    }
  }
  if (inWord) argv.push(word);
  if (argv.length === 0) return { error: "empty command" };
  return { argv, shellSyntax };
}

/** Splits `--args` text into words for `$ARGUMENTS[N]` and `$N`; unbalanced quotes fall back to whitespace. */
export function splitArguments(text: string): string[] {
  const split = splitCommand(text);
  return "argv" in split ? split.argv : text.split(/\s+/).filter(Boolean);
}
