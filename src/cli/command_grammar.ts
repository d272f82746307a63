/**
 * Every command's grammar ([C-1], [C-5]): its arguments and options, with what each word
 * completes to. Data only; `grammar.ts` holds the types and the global options.
 *
 * @module
 */
import type { ArgumentSpec, CommandSpec, OptionSpec } from "./grammar.ts";

/** The actions of `hub` (its dispatcher and the completions read this list). */
export const HUB_ACTIONS: readonly string[] = [
  "install",
  "search",
  "list",
  "uninstall",
  "verify",
  "check",
  "update",
  "scan",
  "audit",
  "publish",
  "keygen",
];

/** A skill named as `view` and `invoke` take it. */
const SKILL_ARGUMENT: ArgumentSpec = {
  spec: "<name>",
  description: "skill name, category/name path, or plugin:name",
  complete: "skill",
};

/** The options of the commands that load a skill at Level 1 (`view`, `invoke`). */
const LOAD_OPTIONS: OptionSpec[] = [
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

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "list",
    description: "list visible skills (Level 0)",
    options: [
      { flags: "--category <name>", description: "only skills of this top-level category" },
      { flags: "--categories", description: "one line per category with counts and descriptions" },
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
      SKILL_ARGUMENT,
      { spec: "[path]", description: "a file inside the skill, e.g. references/api.md" },
    ],
    options: [
      ...LOAD_OPTIONS,
      {
        flags: "--brief",
        description: "only the outline (headings, slugs, sizes) and the first paragraph",
      },
      {
        flags: "--section <slug>",
        description: "only this section (repeatable; slugs as --brief lists them)",
        repeatable: true,
      },
    ],
  },
  {
    name: "invoke",
    description: "the message for a slash-command invocation of a skill",
    arguments: [
      SKILL_ARGUMENT,
      { spec: "[instruction...]", description: "what the user asked alongside the invocation" },
    ],
    options: LOAD_OPTIONS,
  },
  {
    name: "prompt",
    description: "the Level-0 block for a system prompt",
    options: [
      {
        flags: "--format <format>",
        description: "xml, markdown or json",
        default: "xml",
        complete: ["xml", "markdown", "json"],
      },
      { flags: "--budget-chars <n>", description: "largest size in characters" },
      {
        flags: "--preload <names>",
        description: "skills whose full content follows the block, comma-separated",
      },
    ],
  },
  {
    name: "validate",
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
  },
  {
    name: "doctor",
    description: "report roots, shadowed names, diagnostics, sandbox and hub state",
  },
  {
    name: "sandbox",
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
    options: [
      { flags: "--category <name>", description: "for create, hub install: the category" },
      { flags: "--name <name>", description: "for hub install: the name to install under" },
      { flags: "--index <url>", description: "for hub search, hub install: the well-known index" },
      {
        flags: "--out <path>",
        description: "for hub publish, hub keygen: the output",
        complete: "file",
      },
      {
        flags: "--sign <keyfile>",
        description: "for hub publish: the signing key",
        complete: "file",
      },
      { flags: "--base-url <url>", description: "for hub publish: the site's public URL" },
      { flags: "--allow-writes", description: "for mcp: with skill_manage" },
      {
        flags: "--from <dir>",
        description: "for sync: the folder of bundled skills",
        complete: "dir",
      },
      { flags: "--dry-run", description: "for curator run: report only" },
      { flags: "--http", description: "for mcp: over Streamable HTTP" },
      { flags: "--host <host>", description: "for mcp --http: the listen address" },
      { flags: "--port <port>", description: "for mcp --http: the listen port" },
      {
        flags: "--token-file <file>",
        description: "for mcp --http: the bearer token file",
        complete: "file",
      },
      {
        flags: "--try-read <path>",
        description: "try to read this path inside the sandbox",
        complete: "file",
      },
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
      {
        flags: "--file <path>",
        description: "read SKILL.md from this file instead of stdin",
        complete: "file",
      },
    ],
  },
  {
    name: "init",
    description: "start a skill: a skeleton SKILL.md with the recommended sections",
    arguments: [
      { spec: "<name>", description: "the new skill's name (its folder)" },
    ],
    options: [
      { flags: "--category <name>", description: "put it in this category folder" },
      { flags: "--description <text>", description: "its description (one line)" },
    ],
  },
  {
    name: "edit",
    description: "replace a skill's SKILL.md (content from --file or stdin)",
    arguments: [
      { spec: "<name>", description: "skill name or path", complete: "skill" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      {
        flags: "--file <path>",
        description: "read SKILL.md from this file instead of stdin",
        complete: "file",
      },
    ],
  },
  {
    name: "patch",
    description: "replace text in a skill's SKILL.md or one of its files",
    arguments: [
      { spec: "<name>", description: "skill name or path", complete: "skill" },
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
      { spec: "<name>", description: "skill name or path", complete: "skill" },
    ],
    options: [
      {
        flags: "--absorbed-into <name>",
        description: "the skill that now holds what this one did",
        complete: "skill",
      },
    ],
  },
  {
    name: "write-file",
    description: "write a support file (content from --file or stdin)",
    arguments: [
      { spec: "<name>", description: "skill name or path", complete: "skill" },
      { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
    ],
    options: [
      {
        flags: "--force",
        description: "write even when the guard scanner finds the result dangerous",
      },
      {
        flags: "--file <path>",
        description: "read the content from this file instead of stdin",
        complete: "file",
      },
    ],
  },
  {
    name: "remove-file",
    description: "remove a support file",
    arguments: [
      { spec: "<name>", description: "skill name or path", complete: "skill" },
      { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
    ],
  },
  {
    name: "enable",
    description:
      "show a skill again: off skills.disabled and every platform list (--platform P: that one)",
    arguments: [
      { spec: "<name>", description: "the skill", complete: "skill" },
    ],
  },
  {
    name: "disable",
    description:
      "hide a skill: onto skills.disabled in config.yaml (--platform P: that platform only)",
    arguments: [
      { spec: "<name>", description: "the skill", complete: "skill" },
    ],
  },
  {
    name: "setup",
    description: "ask at the terminal for what a skill needs (env vars, config values)",
    arguments: [
      { spec: "<name>", description: "the skill", complete: "skill" },
    ],
  },
  {
    name: "pending",
    description: "review writes staged for approval",
    arguments: [
      {
        spec: "[action]",
        description: "list, diff, approve or reject",
        default: "list",
        complete: ["list", "diff", "approve", "reject"],
      },
      { spec: "[id]", description: "a pending id (or 'all' for approve and reject)" },
    ],
  },
  {
    name: "curator",
    description: "stale and archived skills of the local root",
    arguments: [
      {
        spec: "[action]",
        description: "status, run, pin, unpin or restore",
        default: "status",
        complete: ["status", "run", "pin", "unpin", "restore"],
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
  },
  {
    name: "bundle",
    description: "skill bundles: list, show, create, edit or delete them",
    arguments: [
      {
        spec: "[action]",
        description: "list, show, create, edit or delete",
        default: "list",
        complete: ["list", "show", "create", "edit", "delete"],
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
      { flags: "--instruction <text>", description: "create, edit: an instruction for the agent" },
      {
        flags: "--force",
        description: "create, edit: write even when the guard scanner finds the text dangerous",
      },
    ],
  },
  {
    name: "graph",
    description: "skills, related skills and bundles as a graph",
    options: [
      {
        flags: "--format <format>",
        description: "mermaid, dot or json",
        default: "mermaid",
        complete: ["mermaid", "dot", "json"],
      },
    ],
  },
  {
    name: "hub",
    description: "install skills from outside through quarantine and the guard scanner",
    arguments: [
      {
        spec: "<action>",
        description:
          "install, search, list, uninstall, verify, check, update, scan, audit, publish or keygen",
        complete: HUB_ACTIONS,
      },
      {
        spec: "[target...]",
        description:
          "install: a source; search: words; uninstall, check, update: a name; scan: a folder; publish: folders of skills",
        complete: "file",
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
      { flags: "--verify", description: "audit: check the hash chain of the audit log" },
      {
        flags: "--out <path>",
        description: "publish: the site folder; keygen: the private key file",
        complete: "file",
      },
      { flags: "--base-url <url>", description: "publish: the site's public URL" },
      {
        flags: "--sign <keyfile>",
        description: "publish: sign the index with this private key",
        complete: "file",
      },
    ],
  },
  {
    name: "sync",
    description:
      "copy an agent's bundled skills into the local root (tracked in .bundled_manifest)",
    options: [
      {
        flags: "--from <dir>",
        description: "the folder of bundled skills",
        required: true,
        complete: "dir",
      },
    ],
  },
  {
    name: "mcp",
    description: "serve skills over MCP (stdio, or Streamable HTTP) from inside the sandbox",
    options: [
      {
        flags: "--allow-writes",
        description: "offer skill_manage (staged when write approval is on)",
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
    ],
  },
  {
    name: "completions",
    description: "print a shell completion script",
    arguments: [
      { spec: "<shell>", description: "bash, zsh or fish", complete: ["bash", "zsh", "fish"] },
    ],
  },
];
