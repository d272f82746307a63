/**
 * Pieces of the commands' grammar ([C-1], [C-5]) that several rows of the command table
 * share, or that are too long to read inline there: arguments and options with what each
 * word completes to. Data only; `grammar.ts` holds the types and the global options, and
 * `command_table.ts` the commands.
 *
 * @module
 */
import { HUB_ACTIONS } from "./commands/hub_plan.ts";
import type { ArgumentSpec, CommandSpec, OptionSpec } from "./grammar.ts";
import { actionNames, BUNDLE_ACTION_ROWS, CURATOR_ACTION_ROWS } from "./action_rows.ts";

export { unknownChoice } from "./unknown_choice.ts";

/** A skill named as `view` and `invoke` take it. */
export const SKILL_ARGUMENT: ArgumentSpec = {
  spec: "<name>",
  description: "skill name, category/name path, or plugin:name",
  complete: "skill",
};

/** The options of the commands that load a skill at Level 1 (`view`, `invoke`). */
export const LOAD_OPTIONS: OptionSpec[] = [
  { flags: "--strict", description: "refuse a skill whose content has warnings" },
  {
    flags: "--allow-untrusted",
    description: "load a community hub skill even when it holds an injection instruction",
  },
  {
    flags: "--args <text>",
    description: "arguments for $ARGUMENTS, $ARGUMENTS[N] and $N (Claude Code skills)",
  },
];

/** The arguments of `hub`: an action and its target. */
export const HUB_ARGUMENTS: ArgumentSpec[] = [
  {
    spec: "<action>",
    description:
      "install, search, list, uninstall, verify, check, update, scan, audit, publish, keygen or lock",
    complete: HUB_ACTIONS,
  },
  {
    spec: "[target...]",
    description:
      "install: a source; search: words; uninstall, check, update: a name; scan: a folder; publish: folders of skills; lock: export",
    complete: "file",
  },
];

/**
 * The options of `sandbox` itself; every other option is a word of the command it plans,
 * read by that command's grammar (`passesOptions`).
 */
export const SANDBOX_OPTIONS: OptionSpec[] = [
  {
    flags: "--try-read <path>",
    description: "try to read this path inside the sandbox",
    complete: "file",
  },
  { flags: "--try-run <program>", description: "try to run this program inside the sandbox" },
];

/** The options of `hub`, each for the actions it names. */
export const HUB_OPTIONS: OptionSpec[] = [
  {
    flags: "--index <url>",
    description: "search, install: this well-known index instead of skills.hub.indexes",
  },
  { flags: "--name <name>", description: "install: under this name" },
  { flags: "--category <name>", description: "install: into this category" },
  {
    flags: "--skill <name>",
    description: "install from a collection: this skill (by name or path; repeatable)",
    repeatable: true,
  },
  { flags: "--all", description: "install from a collection: every skill" },
  {
    flags: "--force",
    description:
      "install: replace an installed skill; override a block where policy allows; publish: dangerous skills too",
  },
  { flags: "--yes", description: "install: do not ask for confirmation" },
  {
    flags: "--from-lock <file>",
    description: "install: every skill of this lock file (skillrt's or skills-lock.json)",
    complete: "file",
  },
  {
    flags: "--frozen",
    description: "install --from-lock: refuse, installing nothing, when anything differs",
  },
  { flags: "--verify", description: "audit: check the hash chain of the audit log" },
  {
    flags: "--out <path>",
    description: "publish: the site folder; keygen: the private key file; lock export: the file",
    complete: "file",
  },
  { flags: "--base-url <url>", description: "publish: the site's public URL" },
  {
    flags: "--sign <keyfile>",
    description: "publish: sign the index with this private key",
    complete: "file",
  },
  {
    flags: "--sequence <n>",
    description: "publish: the least sequence the index gets (a site rebuilt from nothing)",
  },
];

/** The options of `mcp`. */
export const MCP_OPTIONS: OptionSpec[] = [
  {
    flags: "--allow-writes",
    description: "offer skill_manage (staged when write approval is on)",
  },
  {
    flags: "--allow-run",
    description:
      "offer skill_run: local skills' scripts and scripts approved at the CLI, sandboxed",
  },
  {
    flags: "--workdir <dir>",
    description: "--allow-run: the folder scripts work in and may write (default: the current one)",
    complete: "dir",
  },
  { flags: "--http", description: "serve over Streamable HTTP at /mcp instead of stdio" },
  { flags: "--host <host>", description: "--http: the address to listen on (127.0.0.1)" },
  { flags: "--port <port>", description: "--http: the port to listen on (8765)" },
  {
    flags: "--token-file <file>",
    description: "--http: clients must send this file's token as a bearer token",
    complete: "file",
  },
  {
    flags: "--session-ttl <seconds>",
    description: "--http: close sessions idle this long (900)",
  },
  {
    flags: "--stateless",
    description:
      "--http: no sessions, no server push; every request answered on its own (replicas behind a load balancer)",
  },
];

/** A skill named as the management commands take it. */
export const SKILL_NAME_ARGUMENT: ArgumentSpec = {
  spec: "<name>",
  description: "skill name or path",
  complete: "skill",
};

/** `--force` of the management commands that write content. */
export const FORCE_WRITE_OPTION: OptionSpec = {
  flags: "--force",
  description: "write even when the guard scanner finds the result dangerous",
};

/** `--file` of `create` and `edit`. */
export const SKILL_FILE_OPTION: OptionSpec = {
  flags: "--file <path>",
  description: "read SKILL.md from this file instead of stdin",
  complete: "file",
};

/** The grammar of `list`. */
export const LIST_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "list visible skills (Level 0)",
  options: [
    { flags: "--category <name>", description: "only skills of this top-level category" },
    {
      flags: "--categories",
      description: "one line per category with counts and descriptions",
    },
    {
      flags: "--names",
      description: "only the names, one per line (for scripts and completion)",
    },
    {
      flags: "--all",
      description: "also skills hidden by platform, environment, disabled or conditions",
    },
    { flags: "--hidden", description: "the same as --all" },
  ],
};

/** The grammar of `validate`. */
export const VALIDATE_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "check skills without changing them",
  arguments: [
    {
      spec: "[paths...]",
      description: "SKILL.md files or folders (default: every skill)",
      complete: "file",
    },
  ],
  options: [
    {
      flags: "--profile <profile>",
      description: "hermes, agentskills or claude",
      default: "hermes",
      complete: ["hermes", "agentskills", "claude"],
    },
  ],
};

/** The grammar of `sandbox`. */
export const SANDBOX_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "print the permission plan of a command (and try accesses under it)",
  arguments: [
    {
      spec: "[command]",
      description: "the command whose plan to print",
      default: "list",
      complete: "command",
    },
    {
      spec: "[args...]",
      description: "its arguments, for commands whose plan depends on them (edit NAME, …)",
    },
  ],
  options: SANDBOX_OPTIONS,
  passesOptions: true,
};

/** The grammar of `run` ([RUN-1]). */
export const RUN_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "run a skill's script in a sandbox with the permissions the skill declares",
  arguments: [
    SKILL_ARGUMENT,
    { spec: "<path>", description: "the script inside the skill, e.g. scripts/fill.py" },
    { spec: "[args...]", description: "its arguments (after --, passed as they are)" },
  ],
  options: [
    {
      flags: "--workdir <dir>",
      description: "the folder it works in and may write (default: the current one)",
      complete: "dir",
    },
    {
      flags: "--timeout <seconds>",
      description: "kill it and everything it started after this long (default 120)",
    },
    {
      flags: "--yes",
      description:
        "approve this script with its grant without asking (skills outside the local root)",
    },
  ],
};

/** The grammar of `patch`. */
export const PATCH_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "replace text in a skill's SKILL.md or one of its files",
  arguments: [
    SKILL_NAME_ARGUMENT,
  ],
  options: [
    FORCE_WRITE_OPTION,
    {
      flags: "--old <text>",
      description: "the text to replace (must occur exactly once)",
      required: true,
    },
    { flags: "--new <text>", description: "the replacement", required: true },
    { flags: "--file-path <path>", description: "patch this support file instead of SKILL.md" },
    { flags: "--replace-all", description: "replace every occurrence" },
  ],
};

/** The grammar of `curator`. */
export const CURATOR_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "stale and archived skills of the local root",
  arguments: [
    {
      spec: "[action]",
      description: "status, run, pin, unpin or restore",
      default: "status",
      complete: actionNames(CURATOR_ACTION_ROWS),
    },
    { spec: "[name]", description: "the skill, for pin, unpin and restore", complete: "skill" },
  ],
  options: [
    { flags: "--dry-run", description: "with run: report without moving anything" },
    {
      flags: "--agent-created",
      description: "status, run: only skills an agent created (over MCP)",
    },
    { flags: "--now <time>", description: "the time to judge by (ISO 8601; default: now)" },
  ],
};

/** The grammar of `bundle`. */
export const BUNDLE_GRAMMAR: Omit<CommandSpec, "name"> = {
  description: "skill bundles: list, show, create, edit or delete them",
  arguments: [
    {
      spec: "[action]",
      description: "list, show, create, edit or delete",
      default: "list",
      complete: actionNames(BUNDLE_ACTION_ROWS),
    },
    { spec: "[name]", description: "the bundle (a slug), for show, create, edit and delete" },
  ],
  options: [
    {
      flags: "--skills <names>",
      description: "create, edit: the member skills, comma-separated",
      complete: "skill",
    },
    { flags: "--description <text>", description: "create, edit: what the bundle is for" },
    {
      flags: "--instruction <text>",
      description: "create, edit: an instruction for the agent",
    },
    {
      flags: "--force",
      description: "create, edit: write even when the guard scanner finds the text dangerous",
    },
  ],
};
