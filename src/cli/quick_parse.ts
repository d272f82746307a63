/**
 * The warden's quick path through the command line: a plain reading of the grammar
 * table for the usual command lines (long options, positional words), so a `list` or a
 * `view` does not pay for loading commander and the Node layer it needs (SPEC §19).
 * Anything it is not sure of — help, the version, short flags, `--`, a value starting
 * with `-`, a missing or extra argument — it leaves to commander by answering
 * `undefined`. A property test holds it to commander: same request, or no answer.
 *
 * @module
 */
import { COMMANDS } from "./command_table.ts";
import type { CommandRequest } from "../worker/request.ts";
import {
  type ArgumentSpec,
  GLOBAL_OPTIONS,
  globalOptions,
  type OptionSpec,
  type Parsed,
} from "./grammar.ts";

interface Flag {
  /** The key commander stores the value under (camelCase, without `no-`). */
  key: string;
  /** Takes a value (`--name <value>`). */
  takesValue: boolean;
  /** `--no-x`: sets the key to false. */
  negates: boolean;
  /** The spec it came from. */
  spec: OptionSpec;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function flagsOf(specs: readonly OptionSpec[]): Map<string, Flag> {
  const map = new Map<string, Flag>();
  for (const spec of specs) {
    const [long, value] = spec.flags.split(" ");
    const negates = long.startsWith("--no-");
    const key = camel(negates ? long.slice(5) : long.slice(2));
    map.set(long, { key, takesValue: value !== undefined, negates, spec });
  }
  return map;
}

const GLOBAL_FLAGS = flagsOf(GLOBAL_OPTIONS);
const COMMAND_FLAGS = new Map(COMMANDS.map((c) => [c.name, flagsOf(c.options ?? [])]));

/** Reads one `--flag[=value]` token at `argv[i]`; returns the next index, or -1 to give up. */
function readFlag(
  argv: string[],
  i: number,
  flags: Map<string, Flag>,
  into: Record<string, unknown>,
): number {
  const token = argv[i];
  const eq = token.indexOf("=");
  const name = eq === -1 ? token : token.slice(0, eq);
  const flag = flags.get(name);
  if (!flag) return -1;
  if (!flag.takesValue) {
    if (eq !== -1) return -1;
    into[flag.key] = !flag.negates;
    return i + 1;
  }
  const value = eq === -1 ? argv[i + 1] : token.slice(eq + 1);
  if (value === undefined || (eq === -1 && value.startsWith("-"))) return -1;
  if (flag.spec.repeatable) {
    const before = into[flag.key];
    into[flag.key] = [...(Array.isArray(before) ? before : []), value];
  } else into[flag.key] = value;
  return eq === -1 ? i + 2 : i + 1;
}

/** Lays positional words onto the declared arguments, or undefined when they do not fit. */
function placeArguments(specs: readonly ArgumentSpec[], words: string[]): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  for (const spec of specs) {
    const required = spec.spec.startsWith("<");
    if (spec.spec.includes("...")) {
      const rest = words.slice(at);
      if (required && rest.length === 0) return undefined;
      out.push(...(rest.length === 0 && spec.default !== undefined ? [spec.default] : rest));
      at = words.length;
    } else if (at < words.length) out.push(words[at++]);
    else if (required) return undefined;
    else if (spec.default !== undefined) out.push(spec.default);
  }
  return at === words.length ? out : undefined;
}

/**
 * Parses the usual command lines without commander; `undefined` means "not sure: ask
 * commander", never a different answer.
 */
export function quickParse(
  argv: string[],
  env: (name: string) => string | undefined,
  isTerminal: boolean,
): Parsed | undefined {
  const global: Record<string, unknown> = {};
  let i = 0;
  while (i < argv.length && argv[i].startsWith("--")) {
    i = readFlag(argv, i, GLOBAL_FLAGS, global);
    if (i === -1) return undefined;
  }
  const spec = COMMANDS.find((c) => c.name === argv[i]);
  if (!spec) return undefined;
  const flags = COMMAND_FLAGS.get(spec.name)!;
  const options: Record<string, unknown> = {};
  for (const flag of flags.values()) {
    if (flag.spec.default !== undefined) options[flag.key] = flag.spec.default;
  }
  const words: string[] = [];
  for (i++; i < argv.length;) {
    const token = argv[i];
    if (!token.startsWith("-")) {
      words.push(token);
      i++;
      continue;
    }
    if (!token.startsWith("--") || token === "--") return undefined;
    const next = readFlag(argv, i, flags, options);
    i = next !== -1 ? next : readFlag(argv, i, GLOBAL_FLAGS, global);
    if (i === -1) return undefined;
  }
  for (const flag of flags.values()) {
    if (flag.spec.required && options[flag.key] === undefined) return undefined;
  }
  const args = placeArguments(spec.arguments ?? [], words);
  if (!args) return undefined;
  return {
    kind: "command",
    request: {
      command: spec.name,
      args,
      options: options as CommandRequest["options"],
      global: globalOptions(global, env, isTerminal),
    },
  };
}
