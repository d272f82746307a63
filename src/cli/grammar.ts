/**
 * The grammar of the command line ([C-1]) as plain data: the types of a command's
 * arguments and options, and the global options. The commands themselves are rows of the
 * command table (`command_table.ts`); commander is built from it (`program.ts`), the
 * completion scripts come from it, and the warden's quick path (`quick_parse.ts`) reads it
 * too, so the three never drift apart.
 *
 * @module
 */
import type { CommandRequest, GlobalOptions } from "../worker/request.ts";

/** A parse result: a command to run, or text to print (help, version). */
export type Parsed =
  | { kind: "command"; request: CommandRequest }
  | { kind: "print"; text: string };

/** One option: commander-style flags (`--name <value>`, `--flag`, `--no-color`). */
export interface OptionSpec {
  /** The flags, as commander takes them. */
  flags: string;
  /** The help text. */
  description: string;
  /** The value when the option is not given. */
  default?: string;
  /** The option must be given. */
  required?: boolean;
  /** What its value completes to ([C-5]): a fixed list, or files, folders or skill names. */
  complete?: Completion;
  /** The option may be given more than once; its values are collected into a list. */
  repeatable?: boolean;
}

/** What a word completes to: fixed values, files, folders, skill names or command names. */
export type Completion = readonly string[] | "file" | "dir" | "skill" | "command";

/** One positional argument: `<name>` (required), `[name]` (optional), `...` for many. */
export interface ArgumentSpec {
  /** The argument, as commander takes it. */
  spec: string;
  /** The help text. */
  description: string;
  /** The value when the argument is not given. */
  default?: string;
  /** What it completes to ([C-5]). */
  complete?: Completion;
}

/** One command. */
export interface CommandSpec {
  /** Its name. */
  name: string;
  /** The help text. */
  description: string;
  /** Its positional arguments, in order. */
  arguments?: ArgumentSpec[];
  /** Its own options. */
  options?: OptionSpec[];
  /** Options it does not know are words of the command it names (`sandbox CMD --opt`). */
  passesOptions?: boolean;
}

/** The description of the program. */
export const PROGRAM_DESCRIPTION =
  "A skill runtime for AI agents: list, view and check skills inside Deno's sandbox.";

/** The options every command accepts. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    flags: "--home <dir>",
    description: "the home folder (default: $HERMES_HOME, else ~/.hermes)",
    complete: "dir",
  },
  { flags: "--json", description: "print one JSON document" },
  {
    flags: "--platform <name>",
    description: "platform for skills.platform_disabled (default: $HERMES_PLATFORM)",
  },
  { flags: "--session-id <id>", description: "session id for ${HERMES_SESSION_ID}" },
  {
    flags: "--toolsets <list>",
    description: "available toolsets, comma-separated (applies requires/fallback conditions)",
  },
  { flags: "--tools <list>", description: "available tools, comma-separated" },
  { flags: "--no-color", description: "no colours (also NO_COLOR)" },
  {
    flags: "--agent <names>",
    description:
      "also read these agents' skill folders (claude, codex, agents; comma-separated or repeated); hub install: into that agent's folder",
    repeatable: true,
    complete: ["claude", "codex", "agents"],
  },
];

const splitList = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

/** The values of a repeatable option: a list (one string when a parser gave only one). */
export function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
}

/**
 * The global options of a request from the parsed option values (camelCase keys, as
 * commander gives them). The Worker cannot read the environment, so `$NO_COLOR` and
 * `$HERMES_PLATFORM` are resolved here, in the warden.
 */
export function globalOptions(
  g: Record<string, unknown>,
  env: (name: string) => string | undefined,
  isTerminal: boolean,
): GlobalOptions {
  const platform = g.platform ?? env("HERMES_PLATFORM");
  return {
    json: g.json === true,
    color: g.color !== false && !env("NO_COLOR") && isTerminal,
    ...(g.home ? { home: String(g.home) } : {}),
    ...(platform ? { platform: String(platform) } : {}),
    ...(g.platform ? { platformOption: String(g.platform) } : {}),
    ...(g.sessionId ? { sessionId: String(g.sessionId) } : {}),
    ...(g.toolsets !== undefined ? { toolsets: splitList(String(g.toolsets)) } : {}),
    ...(g.tools !== undefined ? { tools: splitList(String(g.tools)) } : {}),
    ...(g.agent !== undefined ? { agents: listOf(g.agent).flatMap(splitList) } : {}),
  };
}
