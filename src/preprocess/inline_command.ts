/**
 * Turning one inline-shell command into the argv that runs ([P-4]), or the marker that
 * says why it does not. The variables inside the command are data, never code: each is
 * first replaced by a placeholder, the command is split with shell quoting rules, and
 * only then do the values go in —
 *
 * - without a shell, as parts of the words they stood in (`$ARGUMENTS` is the argument
 *   text exactly as given, `$N` one argument word), so a value can never add, split or
 *   quote a word, and the program's argument policy judges the words that result;
 * - with `bash`, as references to positional parameters and variables (`"${1}"`,
 *   `"${ARGUMENTS}"`, `"${HERMES_SKILL_DIR}"`) that bash expands as quoted data, with the
 *   values passed as `bash -c SCRIPT bash ARG…` and in the environment.
 *
 * The program's name must be written in the skill, not taken from an argument. Pure.
 *
 * @module
 */
import { refusedArgument } from "./arg_policy.ts";
import { splitCommand } from "./shell_words.ts";
import {
  argumentWords,
  isArgument,
  valueOf,
  type Variable,
  VARIABLE_PATTERN,
  variableOf,
  type VariableValues,
} from "./variables.ts";

/** How a command runs (argv and extra environment), or the marker that replaces it. */
export type GatedCommand = { argv: string[]; env?: Record<string, string> } | { marker: string };

/** The marker of a command that was not allowed to run. */
export function blockedMarker(reason: string): string {
  return `[inline-shell blocked: ${reason}]`;
}

/** The marker of a command that could not run or failed. */
export function errorMarker(reason: string): string {
  return `[inline-shell error: ${reason}]`;
}

const VARIABLE = new RegExp(VARIABLE_PATTERN, "g");
const OPEN = "\uE000";
const CLOSE = "\uE001";
const PLACEHOLDER = /\uE000(\d+)\uE001/g;
const MARK = /[\uE000\uE001]/;

interface Slot {
  variable: Variable;
  value: string;
}

/** Replaces each variable that has a value by a placeholder naming its slot. */
function holdVariables(cmd: string, values: VariableValues | undefined, slots: Slot[]): string {
  if (!values) return cmd;
  const words = argumentWords(values);
  return cmd.replace(VARIABLE, (whole, template, index, positional) => {
    const variable = variableOf(template, index, positional);
    const value = valueOf(variable, values, words);
    if (value === undefined) return whole;
    slots.push({ variable, value });
    return `${OPEN}${slots.length - 1}${CLOSE}`;
  });
}

/** How bash refers to a variable's value: quoted, so it stays one word of data. */
function bashReference(variable: Variable): string {
  switch (variable.kind) {
    case "skill-dir":
      return `"\${HERMES_SKILL_DIR}"`;
    case "session-id":
      return `"\${HERMES_SESSION_ID}"`;
    case "argument":
      // No argument has an index past the safe integers: such a reference is empty.
      return Number.isSafeInteger(variable.index + 1) ? `"\${${variable.index + 1}}"` : `""`;
    case "arguments":
      return `"\${ARGUMENTS}"`;
  }
}

/** The `bash -c` form: the script refers to the values, which travel as parameters and environment. */
function bashCommand(
  text: string,
  slots: Slot[],
  values: VariableValues | undefined,
): GatedCommand {
  const script = text.replace(PLACEHOLDER, (_, i) => bashReference(slots[Number(i)].variable));
  const argv = ["bash", "-c", script];
  const env: Record<string, string> = {};
  for (const { variable, value } of slots) {
    if (variable.kind === "skill-dir") env.HERMES_SKILL_DIR = value;
    if (variable.kind === "session-id") env.HERMES_SESSION_ID = value;
  }
  if (values?.args !== undefined) {
    argv.push("bash", ...argumentWords(values)!);
    env.ARGUMENTS = values.args;
  }
  return Object.keys(env).length ? { argv, env } : { argv };
}

/** The words with the values put in: each word stays one word, whatever its values hold. */
function fillWords(words: string[], slots: Slot[]): string[] {
  return words.map((word) => word.replace(PLACEHOLDER, (_, i) => slots[Number(i)].value));
}

/** Whether a word holds an argument's placeholder. */
function holdsArgument(word: string, slots: Slot[]): boolean {
  return [...word.matchAll(PLACEHOLDER)].some((m) => isArgument(slots[Number(m[1])].variable));
}

/**
 * Decides how a command runs, or why it may not ([P-4]). `values` are the variables'
 * values; without them, variables stay as written in the command.
 */
export function gateCommand(
  cmd: string,
  allow: readonly string[],
  values?: VariableValues,
): GatedCommand {
  if (MARK.test(cmd)) {
    return { marker: blockedMarker(`the command holds the reserved characters U+E000/U+E001`) };
  }
  const slots: Slot[] = [];
  const text = holdVariables(cmd, values, slots);
  const split = splitCommand(text);
  if ("error" in split) return { marker: errorMarker(`${split.error} in: ${cmd}`) };
  if (split.shellSyntax) {
    if (!allow.includes("bash")) {
      return {
        marker: blockedMarker(`shell syntax needs 'bash' in skills.inline_shell_allow: ${cmd}`),
      };
    }
    return bashCommand(text, slots, values);
  }
  if (holdsArgument(split.argv[0], slots)) {
    return {
      marker: blockedMarker(`the program is named by the skill, not by its arguments: ${cmd}`),
    };
  }
  const argv = fillWords(split.argv, slots);
  const program = argv[0];
  if (program.includes("/") || program.includes("\\")) {
    return { marker: blockedMarker(`programs are named, not given as paths: '${program}'`) };
  }
  if (!allow.includes(program)) {
    return {
      marker: blockedMarker(
        `'${program}' is not in skills.inline_shell_allow (${allow.join(", ") || "empty"})`,
      ),
    };
  }
  const refused = refusedArgument(program, argv.slice(1));
  return refused ? { marker: blockedMarker(refused) } : { argv };
}
