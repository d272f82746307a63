/**
 * The grammar of the command line ([C-1]) as plain data: the global options and every
 * command with its arguments and options. Commander is built from it (`program.ts`), the
 * completion scripts come from that program, and the warden's quick path
 * (`quick_parse.ts`) reads it too, so the three never drift apart.
 *
 * @module
 */
import type { CommandRequest, GlobalOptions } from "./request.ts";

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
}

/** One positional argument: `<name>` (required), `[name]` (optional), `...` for many. */
export interface ArgumentSpec {
  /** The argument, as commander takes it. */
  spec: string;
  /** The help text. */
  description: string;
  /** The value when the argument is not given. */
  default?: string;
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
}

/** The description of the program. */
export const PROGRAM_DESCRIPTION =
  "A skill runtime for AI agents: list, view and check skills inside Deno's sandbox.";

/** The options every command accepts. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: "--home <dir>", description: "the home folder (default: $HERMES_HOME, else ~/.hermes)" },
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
];

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "list",
    description: "list visible skills (Level 0)",
    options: [
      { flags: "--category <name>", description: "only skills of this top-level category" },
      { flags: "--categories", description: "one line per category with counts and descriptions" },
    ],
  },
  {
    name: "search",
    description: "rank visible skills by a query",
    arguments: [
      { spec: "<query...>", description: "words to look for" },
    ],
  },
  {
    name: "view",
    description: "show one skill (Level 1) or one of its files (Level 2)",
    arguments: [
      { spec: "<name>", description: "skill name, category/name path, or plugin:name" },
      { spec: "[path]", description: "a file inside the skill, e.g. references/api.md" },
    ],
    options: [
      { flags: "--strict", description: "refuse a skill whose content has warnings" },
      {
        flags: "--allow-untrusted",
        description: "load a community hub skill even when it holds an injection instruction",
      },
      {
        flags: "--args <text>",
        description: "arguments for $ARGUMENTS, $ARGUMENTS[N] and $N (Claude Code skills)",
      },
    ],
  },
  {
    name: "invoke",
    description: "the message for a slash-command invocation of a skill",
    arguments: [
      { spec: "<name>", description: "skill name, category/name path, or plugin:name" },
      { spec: "[instruction...]", description: "what the user asked alongside the invocation" },
    ],
    options: [
      { flags: "--strict", description: "refuse a skill whose content has warnings" },
      {
        flags: "--allow-untrusted",
        description: "load a community hub skill even when it holds an injection instruction",
      },
      {
        flags: "--args <text>",
        description: "arguments for $ARGUMENTS, $ARGUMENTS[N] and $N (Claude Code skills)",
      },
    ],
  },
  {
    name: "prompt",
    description: "the Level-0 block for a system prompt",
    options: [
      { flags: "--format <format>", description: "xml, markdown or json", default: "xml" },
      { flags: "--budget-chars <n>", description: "largest size in characters" },
    ],
  },
  {
    name: "validate",
    description: "check skills without changing them",
    arguments: [
      { spec: "[paths...]", description: "SKILL.md files or folders (default: every skill)" },
    ],
    options: [
      {
        flags: "--profile <profile>",
        description: "hermes, agentskills or claude",
        default: "hermes",
      },
    ],
  },
  {
    name: "doctor",
    description: "report roots, shadowed names, diagnostics, sandbox and hub state",
  },
  {
    name: "sandbox",
    description: "print the permission plan of a command (and try accesses under it)",
    arguments: [
      { spec: "[command]", description: "the command whose plan to print", default: "list" },
      {
        spec: "[args...]",
        description: "its arguments, for commands whose plan depends on them (edit NAME, …)",
      },
    ],
    options: [
      { flags: "--category <name>", description: "for create, hub install: the category" },
      { flags: "--name <name>", description: "for hub install: the name to install under" },
      { flags: "--index <url>", description: "for hub search, hub install: the well-known index" },
      { flags: "--try-read <path>", description: "try to read this path inside the sandbox" },
      { flags: "--try-run <program>", description: "try to run this program inside the sandbox" },
    ],
  },
  {
    name: "create",
    description: "create a skill in the local root (content from --file or stdin)",
    arguments: [
      { spec: "<name>", description: "the new skill's name (its folder)" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      { flags: "--category <name>", description: "put it in this category folder" },
      { flags: "--file <path>", description: "read SKILL.md from this file instead of stdin" },
    ],
  },
  {
    name: "edit",
    description: "replace a skill's SKILL.md (content from --file or stdin)",
    arguments: [
      { spec: "<name>", description: "skill name or path" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      { flags: "--file <path>", description: "read SKILL.md from this file instead of stdin" },
    ],
  },
  {
    name: "patch",
    description: "replace text in a skill's SKILL.md or one of its files",
    arguments: [
      { spec: "<name>", description: "skill name or path" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      {
        flags: "--old <text>",
        description: "the text to replace (must occur exactly once)",
        required: true,
      },
      { flags: "--new <text>", description: "the replacement", required: true },
      { flags: "--file-path <path>", description: "patch this support file instead of SKILL.md" },
      { flags: "--replace-all", description: "replace every occurrence" },
    ],
  },
  {
    name: "delete",
    description: "delete a skill",
    arguments: [
      { spec: "<name>", description: "skill name or path" },
    ],
    options: [
      {
        flags: "--absorbed-into <name>",
        description: "the skill that now holds what this one did",
      },
    ],
  },
  {
    name: "write-file",
    description: "write a support file (content from --file or stdin)",
    arguments: [
      { spec: "<name>", description: "skill name or path" },
      { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      { flags: "--file <path>", description: "read the content from this file instead of stdin" },
    ],
  },
  {
    name: "remove-file",
    description: "remove a support file",
    arguments: [
      { spec: "<name>", description: "skill name or path" },
      { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
    ],
  },
  {
    name: "pending",
    description: "review writes staged for approval",
    arguments: [
      { spec: "[action]", description: "list, diff, approve or reject", default: "list" },
      { spec: "[id]", description: "a pending id (or 'all' for approve and reject)" },
    ],
  },
  {
    name: "curator",
    description: "stale and archived skills of the local root",
    arguments: [
      { spec: "[action]", description: "status, run, pin, unpin or restore", default: "status" },
      { spec: "[name]", description: "the skill, for pin, unpin and restore" },
    ],
    options: [
      { flags: "--dry-run", description: "with run: report without moving anything" },
      { flags: "--now <time>", description: "the time to judge by (ISO 8601; default: now)" },
    ],
  },
  {
    name: "bundle",
    description: "skill bundles: list them, or show one with its members",
    arguments: [
      { spec: "[action]", description: "list or show", default: "list" },
      { spec: "[name]", description: "the bundle, for show" },
    ],
  },
  {
    name: "graph",
    description: "skills, related skills and bundles as a graph",
    options: [
      { flags: "--format <format>", description: "mermaid, dot or json", default: "mermaid" },
    ],
  },
  {
    name: "hub",
    description: "install skills from outside through quarantine and the guard scanner",
    arguments: [
      {
        spec: "<action>",
        description: "install, search, list, uninstall, verify, check, update, scan or audit",
      },
      {
        spec: "[target]",
        description:
          "install: a source; search: words; uninstall, check, update: a name; scan: a folder",
      },
    ],
    options: [
      {
        flags: "--index <url>",
        description: "search, install: this well-known index instead of skills.hub.indexes",
      },
      { flags: "--name <name>", description: "install: under this name" },
      { flags: "--category <name>", description: "install: into this category" },
      {
        flags: "--force",
        description: "install: replace an installed skill; override a block where policy allows",
      },
      { flags: "--yes", description: "install: do not ask for confirmation" },
      { flags: "--verify", description: "audit: check the hash chain of the audit log" },
    ],
  },
  {
    name: "sync",
    description:
      "copy an agent's bundled skills into the local root (tracked in .bundled_manifest)",
    options: [
      { flags: "--from <dir>", description: "the folder of bundled skills", required: true },
    ],
  },
  {
    name: "mcp",
    description: "serve skills over MCP (stdio) from inside the sandbox",
    options: [
      {
        flags: "--allow-writes",
        description: "offer skill_manage (staged when write approval is on)",
      },
    ],
  },
  {
    name: "completions",
    description: "print a shell completion script",
    arguments: [
      { spec: "<shell>", description: "bash, zsh or fish" },
    ],
  },
];

const splitList = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

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
    ...(g.sessionId ? { sessionId: String(g.sessionId) } : {}),
    ...(g.toolsets !== undefined ? { toolsets: splitList(String(g.toolsets)) } : {}),
    ...(g.tools !== undefined ? { tools: splitList(String(g.tools)) } : {}),
  };
}
