/**
 * `completions bash|zsh|fish` ([C-5]): static completion scripts generated from the
 * same commander program the CLI parses with, so they never drift from it.
 *
 * @module
 */
import type { Command } from "../deps/commander.ts";
import { UsageError } from "../errors.ts";

/** The shells completions are made for. */
export const SHELLS: readonly string[] = ["bash", "zsh", "fish"];

function flagsOf(cmd: Command): string[] {
  return cmd.options.flatMap((o) =>
    [o.long, o.short].filter((f): f is string => typeof f === "string")
  );
}

/** The completion script for one shell. */
export function completionScript(program: Command, shell: string): string {
  const commands = program.commands.map((c) => c.name());
  const globals = [...flagsOf(program), "--help"];
  if (shell === "bash") {
    const cases = program.commands.map((c) =>
      `    ${c.name()}) opts="${[...flagsOf(c), ...globals].join(" ")}" ;;`
    ).join("\n");
    return `# bash completion for skillrt: eval "$(skillrt completions bash)"
_skillrt() {
  local cur cmd opts i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cmd=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in -*) ;; *) cmd="\${COMP_WORDS[i]}"; break ;; esac
  done
  case "$cmd" in
${cases}
    *) opts="${commands.join(" ")} ${globals.join(" ")}" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _skillrt skillrt
`;
  }
  if (shell === "zsh") {
    const lines = program.commands.map((c) =>
      `    '${c.name()}:${(c.description() || c.name()).replace(/'/g, "")}'`
    ).join("\n");
    const cases = program.commands.map((c) =>
      `      ${c.name()}) _arguments '*:file:_files' ${
        [...flagsOf(c), ...globals].map((f) => `'${f}'`).join(" ")
      } ;;`
    ).join("\n");
    return `#compdef skillrt
# zsh completion for skillrt: skillrt completions zsh > "\${fpath[1]}/_skillrt"
_skillrt() {
  local -a commands
  commands=(
${lines}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
  else
    case "\${words[2]}" in
${cases}
    esac
  fi
}
compdef _skillrt skillrt
`;
  }
  if (shell === "fish") {
    const lines = [
      "# fish completion for skillrt: skillrt completions fish > ~/.config/fish/completions/skillrt.fish",
      ...program.commands.map((c) =>
        `complete -c skillrt -n '__fish_use_subcommand' -a ${c.name()} -d '${
          (c.description() || "").replace(/'/g, "")
        }'`
      ),
      ...program.options.filter((o) => o.long).map((o) =>
        `complete -c skillrt -l ${o.long!.slice(2)} -d '${o.description.replace(/'/g, "")}'`
      ),
      ...program.commands.flatMap((c) =>
        c.options.filter((o) => o.long).map((o) =>
          `complete -c skillrt -n '__fish_seen_subcommand_from ${c.name()}' -l ${
            o.long!.slice(2)
          } -d '${o.description.replace(/'/g, "")}'`
        )
      ),
    ];
    return lines.join("\n") + "\n";
  }
  throw new UsageError(`Unknown shell '${shell}'; use ${SHELLS.join(", ")}.`);
}
