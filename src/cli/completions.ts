/**
 * `completions bash|zsh|fish` ([C-5]): completion scripts for the installed `skillrt`
 * command, generated from the grammar table the CLI parses with, so they never drift from
 * it. They complete commands, options, option values (`--format`, `--profile`, files and
 * folders), sub-actions (`hub install`, `pending approve`, …) and skill names, which they
 * ask of the CLI itself (`skillrt list --names`, with the `--home` of the line).
 *
 * @module
 */
import { unknownChoice } from "./command_grammar.ts";
import { COMMANDS } from "./command_table.ts";
import { type Completion, GLOBAL_OPTIONS, type OptionSpec } from "./grammar.ts";

/** The shells completions are made for. */
export const SHELLS: readonly string[] = ["bash", "zsh", "fish"];

const NAMES = COMMANDS.map((c) => c.name);

function longFlag(o: OptionSpec): string {
  return o.flags.split(/[ ,]+/).find((f) => f.startsWith("--"))!;
}

function takesValue(o: OptionSpec): boolean {
  return o.flags.includes("<");
}

/** The words of a completion kind as a bash command substitution or word list. */
function bashWords(kind: Completion): string {
  if (kind === "file") return `COMPREPLY=($(compgen -f -- "$cur"))`;
  if (kind === "dir") return `COMPREPLY=($(compgen -d -- "$cur"))`;
  const words = kind === "skill"
    ? `$(skillrt "\${home[@]}" list --names 2>/dev/null)`
    : (kind === "command" ? NAMES : kind).join(" ");
  return `COMPREPLY=($(compgen -W "${words}" -- "$cur"))`;
}

/** The `case` arms of the bash script: option values, option lists and arguments, by command. */
function bashCases(): { valueCases: string[]; optionCases: string[]; argCases: string[] } {
  const globals = GLOBAL_OPTIONS.map(longFlag);
  const valueCases: string[] = [];
  for (const o of GLOBAL_OPTIONS.filter((o) => o.complete)) {
    valueCases.push(`    *:${longFlag(o)}) ${bashWords(o.complete!)}; return ;;`);
  }
  const argCases: string[] = [];
  const optionCases: string[] = [];
  for (const c of COMMANDS) {
    for (const o of (c.options ?? []).filter((o) => o.complete)) {
      valueCases.push(`    ${c.name}:${longFlag(o)}) ${bashWords(o.complete!)}; return ;;`);
    }
    (c.arguments ?? []).forEach((a, i) => {
      if (!a.complete) return;
      const at = a.spec.includes("...") ? "*" : String(i);
      argCases.push(`    ${c.name}:${at}) ${bashWords(a.complete)} ;;`);
    });
    const own = (c.options ?? []).map(longFlag);
    optionCases.push(`    ${c.name}) opts="${[...own, ...globals, "--help"].join(" ")}" ;;`);
  }
  return { valueCases, optionCases, argCases };
}

function bashScript(): string {
  const globals = GLOBAL_OPTIONS.map(longFlag);
  const valueOptions = [
    ...new Set(
      [...GLOBAL_OPTIONS, ...COMMANDS.flatMap((c) => c.options ?? [])].filter(takesValue)
        .map(longFlag),
    ),
  ];
  const { valueCases, optionCases, argCases } = bashCases();
  return `# bash completion for skillrt: eval "$(skillrt completions bash)"
_skillrt() {
  local cur prev w cmd="" pos=0 i opts
  local -a home=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --home) home=(--home "\${COMP_WORDS[i+1]}"); i=$((i + 1)); continue ;;
      ${valueOptions.join("|")}) i=$((i + 1)); continue ;;
      -*) continue ;;
    esac
    if [ -z "$cmd" ]; then cmd="$w"; else pos=$((pos + 1)); fi
  done
  case "$cmd:$prev" in
${valueCases.join("\n")}
  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
${optionCases.join("\n")}
      *) opts="${[...globals, "--help", "--version"].join(" ")}" ;;
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  if [ -z "$cmd" ]; then
    COMPREPLY=($(compgen -W "${NAMES.join(" ")}" -- "$cur"))
    return
  fi
  case "$cmd:$pos" in
${argCases.join("\n")}
  esac
}
complete -o default -F _skillrt skillrt
`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function fishKind(kind: Completion): string {
  if (kind === "file") return "-r -F";
  if (kind === "dir") return "-r -a '(__fish_complete_directories)'";
  if (kind === "skill") return "-x -a '(skillrt list --names 2>/dev/null)'";
  return `-x -a ${fishQuote((kind === "command" ? NAMES : kind).join(" "))}`;
}

function fishScript(): string {
  const lines = [
    "# fish completion for skillrt: skillrt completions fish > ~/.config/fish/completions/skillrt.fish",
    "complete -c skillrt -f",
  ];
  for (const c of COMMANDS) {
    lines.push(
      `complete -c skillrt -n __fish_use_subcommand -a ${c.name} -d ${fishQuote(c.description)}`,
    );
  }
  for (const o of GLOBAL_OPTIONS) {
    const kind = o.complete ? ` ${fishKind(o.complete)}` : takesValue(o) ? " -x" : "";
    lines.push(
      `complete -c skillrt -l ${longFlag(o).slice(2)}${kind} -d ${fishQuote(o.description)}`,
    );
  }
  for (const c of COMMANDS) {
    const when = `-n '__fish_seen_subcommand_from ${c.name}'`;
    for (const o of c.options ?? []) {
      const kind = o.complete ? ` ${fishKind(o.complete)}` : takesValue(o) ? " -x" : "";
      lines.push(
        `complete -c skillrt ${when} -l ${longFlag(o).slice(2)}${kind} -d ${
          fishQuote(o.description)
        }`,
      );
    }
    const first = c.arguments?.[0]?.complete;
    if (first) lines.push(`complete -c skillrt ${when} ${fishKind(first)}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * The completion script for one shell.
 * @throws {UsageError} for a shell other than bash, zsh and fish.
 */
export function completionScript(shell: string): string {
  if (shell === "bash") return bashScript();
  if (shell === "zsh") {
    // zsh runs the bash completion through its own bashcompinit layer.
    return `# zsh completion for skillrt: add to ~/.zshrc:  source <(skillrt completions zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript().split("\n").slice(1).join("\n")}`;
  }
  if (shell === "fish") return fishScript();
  throw unknownChoice("shell", shell, SHELLS);
}
