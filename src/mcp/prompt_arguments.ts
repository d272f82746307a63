/**
 * A skill's MCP prompt arguments from its `argument-hint` ([IO-3]): `[file] [--dry-run]`
 * becomes the arguments `file` and `dry-run`, and the values a client sends become the
 * invocation's `$ARGUMENTS` text, each value quoted as one word (data, never syntax, [P-5]).
 * A hint that does not read as a list of arguments (alternatives with `|`, repeated or
 * empty names) is offered whole as one `arguments` argument. `instruction` is always
 * there: what the user asked alongside the skill. Pure.
 *
 * @module
 */

/** One argument of an MCP prompt, as `prompts/list` shows it. */
export interface PromptArgument {
  /** Its name. */
  name: string;
  /** What it is. */
  description: string;
  /** True for an argument written `<name>` in the hint. */
  required: boolean;
}

/** An argument read from a hint, with how its value is passed. */
interface HintArgument extends PromptArgument {
  /** `positional` values are one word; a `flag` is `--name` (with its value, if it takes one); `rest` is passed as written. */
  kind: "positional" | "flag" | "rest";
  /** For a flag: whether it takes a value (`[--out DIR]`). */
  takesValue?: boolean;
}

/** The argument every skill prompt has. */
export const INSTRUCTION_ARGUMENT: PromptArgument = {
  name: "instruction",
  description: "What the user asked alongside the skill",
  required: false,
};

/** The most arguments read from one hint (more is not a hint but prose). */
const MAX_HINT_ARGUMENTS = 12;

/** Hint tokens: `[…]`, `<…>` or a bare word. */
const TOKEN = /\[([^\]]*)\]|<([^>]*)>|(\S+)/g;

function hintArgument(inner: string, required: boolean): HintArgument | undefined {
  const words = inner.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 2 || inner.includes("|")) return undefined;
  const flag = words[0].startsWith("-");
  const rest = !flag && words[0].endsWith("...") || words[1] === "...";
  const name = words[0].replace(/^-+/, "").replace(/\.\.\.$/, "").toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  if (name === "" || name === INSTRUCTION_ARGUMENT.name) return undefined;
  if (flag) {
    const takesValue = words.length === 2;
    const description = takesValue
      ? `The value of ${words[0]} (${inner.trim()})`
      : `Any value but false or empty passes ${words[0]} (${inner.trim()})`;
    return { name, description, required, kind: "flag", takesValue };
  }
  if (words.length === 2 && !rest) return undefined;
  const description = rest
    ? `The rest of the arguments, as written (${inner.trim()})`
    : `${inner.trim()}, one word`;
  return { name, description, required, kind: rest ? "rest" : "positional" };
}

/** The arguments a hint names, or undefined when it does not read as a list of them. */
function readHint(hint: string): HintArgument[] | undefined {
  const out: HintArgument[] = [];
  for (const m of hint.matchAll(TOKEN)) {
    const arg = hintArgument(m[1] ?? m[2] ?? m[3], m[2] !== undefined);
    if (!arg || out.some((a) => a.name === arg.name)) return undefined;
    out.push(arg);
  }
  return out.length > 0 && out.length <= MAX_HINT_ARGUMENTS ? out : undefined;
}

/** The catch-all of a hint that names no arguments one by one. */
function wholeHint(hint: string): HintArgument {
  return {
    name: "arguments",
    description: `The arguments, as written: ${hint}`,
    required: false,
    kind: "rest",
  };
}

function hintArguments(hint: string | undefined): HintArgument[] {
  if (hint === undefined) return [];
  return readHint(hint) ?? [wholeHint(hint)];
}

/** The prompt's arguments: those of the hint, then `instruction` ([IO-3]). */
export function promptArguments(hint: string | undefined): PromptArgument[] {
  return [
    ...hintArguments(hint).map(({ name, description, required }) => ({
      name,
      description,
      required,
    })),
    INSTRUCTION_ARGUMENT,
  ];
}

/** One value as one shell word: bare when it is plain, else in single quotes. */
export function quoteWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

const OFF = /^(false|no|0|off)$/i;
const ON = /^(true|yes|1|on)$/i;

function argumentText(arg: HintArgument, value: string): string | undefined {
  if (arg.kind === "rest") return value.trim() === "" ? undefined : value;
  if (arg.kind === "positional") return quoteWord(value);
  const flag = `--${arg.name}`;
  if (value.trim() === "" || (!arg.takesValue && OFF.test(value.trim()))) return undefined;
  if (!arg.takesValue && ON.test(value.trim())) return flag;
  return `${flag} ${quoteWord(value)}`;
}

/**
 * The `$ARGUMENTS` text of a prompt call: the hint's arguments given, in the hint's order;
 * undefined when none was given (the skill's `$ARGUMENTS` stay as written).
 * @returns the text, or the name of a required argument that is missing.
 */
export function argumentsText(
  hint: string | undefined,
  given: Readonly<Record<string, string>>,
): { text?: string } | { missing: string } {
  const parts: string[] = [];
  for (const arg of hintArguments(hint)) {
    const value = Object.hasOwn(given, arg.name) ? given[arg.name] : undefined;
    if (value === undefined || value === "") {
      if (arg.required) return { missing: arg.name };
      continue;
    }
    const text = argumentText(arg, value);
    if (text !== undefined) parts.push(text);
  }
  return parts.length ? { text: parts.join(" ") } : {};
}
