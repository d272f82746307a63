/**
 * The command line ([C-1..3], [C-5]): commander builds the grammar; parsing yields a
 * plain {@linkcode CommandRequest} (or help/version text), never runs anything.
 *
 * @module
 */
import { Command, CommanderError } from "../deps/commander.ts";
import { UsageError } from "../errors.ts";
import { COMMANDS, isWriting, WRITING_ACTIONS } from "./command_table.ts";
import {
  GLOBAL_OPTIONS,
  globalOptions,
  type OptionSpec,
  type Parsed,
  PROGRAM_DESCRIPTION,
} from "./grammar.ts";
import { examplesText } from "./help_examples.ts";
import type { CommandRequest } from "../worker/request.ts";

/** Collects the values of a repeatable option. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function addOption(cmd: Command, o: OptionSpec): void {
  if (o.repeatable) cmd.option(o.flags, o.description, collect);
  else if (o.required) cmd.requiredOption(o.flags, o.description, o.default);
  else cmd.option(o.flags, o.description, o.default);
}

/**
 * A command's positional arguments for commander: as the grammar says, or — for the line
 * `sandbox` plans (`forPlan`) of a command whose plan holds for any arguments (one that
 * only reads) — each optional.
 */
function argumentSpec(name: string, spec: string, forPlan: boolean): string {
  if (!forPlan || isWriting(name) || Object.hasOwn(WRITING_ACTIONS, name)) return spec;
  return spec.replace(/^<(.*)>$/, "[$1]");
}

/** Builds the commander program of skillrt from the grammar table. */
export function buildProgram(version: string, forPlan = false): Command {
  const program = new Command("skillrt")
    .description(PROGRAM_DESCRIPTION)
    .version(version, "-V, --version", "print the version")
    .showSuggestionAfterError(true);
  for (const o of GLOBAL_OPTIONS) addOption(program, o);
  for (const spec of COMMANDS) {
    const cmd = program.command(spec.name).description(spec.description);
    for (const a of spec.arguments ?? []) {
      cmd.argument(argumentSpec(spec.name, a.spec, forPlan), a.description, a.default);
    }
    for (const o of spec.options ?? []) addOption(cmd, o);
    if (spec.passesOptions) cmd.allowUnknownOption();
    const examples = examplesText(spec.name);
    if (examples) cmd.addHelpText("after", examples);
  }
  return program;
}

/**
 * Parses arguments (without the program name); `forPlan` reads the line `sandbox` plans
 * ({@linkcode argumentSpec}). Throws {@linkcode UsageError} on bad usage.
 */
export function parseArgs(
  argv: string[],
  version: string,
  env: (name: string) => string | undefined,
  isTerminal: boolean,
  forPlan = false,
): Parsed {
  const program = buildProgram(version, forPlan);
  let out = "";
  let usageOf = program;
  let captured: { name: string; args: string[]; options: Record<string, unknown> } | undefined;
  for (const cmd of [program, ...program.commands]) {
    cmd.exitOverride();
    cmd.configureOutput({
      writeOut: (s) => (out += s),
      writeErr: (s) => (out += s),
      outputError: () => (usageOf = cmd),
    });
    if (cmd !== program) {
      cmd.action((...params: unknown[]) => {
        const self = params.at(-1) as Command;
        captured = {
          name: self.name(),
          args: (self.processedArgs as unknown[]).flat().filter((a) => a !== undefined).map(String),
          options: self.opts(),
        };
      });
    }
  }
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return parseFailure(error, argv, out, program, usageOf);
    throw error;
  }
  if (!captured) {
    const text = program.helpInformation();
    throw new UsageError("A command is required.", text.trimEnd());
  }
  const global = globalOptions(program.opts(), env, isTerminal);
  return {
    kind: "command",
    request: {
      command: captured.name,
      args: captured.args,
      options: captured.options as CommandRequest["options"],
      global,
    },
  };
}

/**
 * What a commander failure means: the version or help asked for (text to print), or a
 * usage error naming the command's usage line.
 */
function parseFailure(
  error: CommanderError,
  argv: string[],
  out: string,
  program: Command,
  usageOf: Command,
): Parsed {
  const askedForHelp = argv.some((a) => a === "-h" || a === "--help" || a === "help");
  if (error.code === "commander.version") return { kind: "print", text: out };
  if (error.code === "commander.helpDisplayed" || error.code === "commander.help") {
    if (askedForHelp) return { kind: "print", text: out };
    throw new UsageError("A command is required.", out.trimEnd());
  }
  let message = error.message.replace(/^error: /, "");
  message = message.charAt(0).toUpperCase() + message.slice(1);
  // Decided by commander's code; only the option's spelling is read from its message.
  const option = error.code === "commander.unknownOption" ? /'([^']*)'/.exec(error.message) : null;
  const spec = COMMANDS.find((c) => c.name === usageOf.name() && usageOf !== program);
  if (
    option && !message.includes("\n") && spec?.arguments?.some((a) => a.complete === "skill")
  ) {
    // A skill name that begins with '-' (public collections have them) needs '--'.
    message += `. If '${option[1]}' is a skill name, put '--' before it: skillrt ${spec.name} -- ${
      option[1]
    }`;
  }
  const usage = `Usage: ${
    usageOf === program ? "" : "skillrt "
  }${usageOf.name()} ${usageOf.usage()}`;
  throw new UsageError(message, usage);
}
