/**
 * The command line ([C-1..3], [C-5]): commander builds the grammar; parsing yields a
 * plain {@linkcode CommandRequest} (or help/version text), never runs anything.
 *
 * @module
 */
import { Command, CommanderError } from "../deps/commander.ts";
import { UsageError } from "../errors.ts";
import type { CommandRequest, GlobalOptions } from "./request.ts";

/** A parse result: a command to run, or text to print (help, version). */
export type Parsed =
  | { kind: "command"; request: CommandRequest }
  | { kind: "print"; text: string };

const splitList = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

/** Builds the commander program of skillrt. */
export function buildProgram(version: string): Command {
  const program = new Command("skillrt")
    .description(
      "A skill runtime for AI agents: list, view and check skills inside Deno's sandbox.",
    )
    .version(version, "-V, --version", "print the version")
    .option("--home <dir>", "the home folder (default: $HERMES_HOME, else ~/.hermes)")
    .option("--json", "print one JSON document")
    .option(
      "--platform <name>",
      "platform for skills.platform_disabled (default: $HERMES_PLATFORM)",
    )
    .option("--session-id <id>", "session id for ${HERMES_SESSION_ID}")
    .option(
      "--toolsets <list>",
      "available toolsets, comma-separated (applies requires/fallback conditions)",
    )
    .option("--tools <list>", "available tools, comma-separated")
    .option("--no-color", "no colours (also NO_COLOR)")
    .showSuggestionAfterError(true);

  program.command("list").description("list visible skills (Level 0)")
    .option("--category <name>", "only skills of this top-level category")
    .option("--categories", "one line per category with counts and descriptions");
  program.command("search").description("rank visible skills by a query").argument(
    "<query...>",
    "words to look for",
  );
  program.command("view").description("show one skill (Level 1) or one of its files (Level 2)")
    .argument("<name>", "skill name, category/name path, or plugin:name")
    .argument("[path]", "a file inside the skill, e.g. references/api.md")
    .option("--strict", "refuse a skill whose content has warnings")
    .option("--args <text>", "arguments for $ARGUMENTS, $ARGUMENTS[N] and $N (Claude Code skills)");
  program.command("invoke").description("the message for a slash-command invocation of a skill")
    .argument("<name>", "skill name, category/name path, or plugin:name")
    .argument("[instruction...]", "what the user asked alongside the invocation")
    .option("--strict", "refuse a skill whose content has warnings")
    .option("--args <text>", "arguments for $ARGUMENTS, $ARGUMENTS[N] and $N (Claude Code skills)");
  program.command("prompt").description("the Level-0 block for a system prompt")
    .option("--format <format>", "xml, markdown or json", "xml")
    .option("--budget-chars <n>", "largest size in characters");
  program.command("validate").description("check skills without changing them")
    .argument("[paths...]", "SKILL.md files or folders (default: every skill)")
    .option("--profile <profile>", "hermes, agentskills or claude", "hermes");
  program.command("doctor").description(
    "report roots, shadowed names, diagnostics, sandbox and hub state",
  );
  program.command("sandbox").description(
    "print the permission plan of a command (and try accesses under it)",
  )
    .argument("[command]", "the command whose plan to print", "list")
    .argument("[args...]", "its arguments, for commands whose plan depends on them (edit NAME, …)")
    .option("--category <name>", "for create, hub install: the category")
    .option("--name <name>", "for hub install: the name to install under")
    .option("--index <url>", "for hub search, hub install: the well-known index")
    .option("--try-read <path>", "try to read this path inside the sandbox")
    .option("--try-run <program>", "try to run this program inside the sandbox");
  program.command("create").description(
    "create a skill in the local root (content from --file or stdin)",
  )
    .argument("<name>", "the new skill's name (its folder)")
    .option("--category <name>", "put it in this category folder")
    .option("--file <path>", "read SKILL.md from this file instead of stdin");
  program.command("edit").description("replace a skill's SKILL.md (content from --file or stdin)")
    .argument("<name>", "skill name or path")
    .option("--file <path>", "read SKILL.md from this file instead of stdin");
  program.command("patch").description("replace text in a skill's SKILL.md or one of its files")
    .argument("<name>", "skill name or path")
    .requiredOption("--old <text>", "the text to replace (must occur exactly once)")
    .requiredOption("--new <text>", "the replacement")
    .option("--file-path <path>", "patch this support file instead of SKILL.md")
    .option("--replace-all", "replace every occurrence");
  program.command("delete").description("delete a skill")
    .argument("<name>", "skill name or path")
    .option("--absorbed-into <name>", "the skill that now holds what this one did");
  program.command("write-file").description("write a support file (content from --file or stdin)")
    .argument("<name>", "skill name or path")
    .argument("<path>", "under references/, templates/, scripts/ or assets/")
    .option("--file <path>", "read the content from this file instead of stdin");
  program.command("remove-file").description("remove a support file")
    .argument("<name>", "skill name or path")
    .argument("<path>", "under references/, templates/, scripts/ or assets/");
  program.command("pending").description("review writes staged for approval")
    .argument("[action]", "list, diff, approve or reject", "list")
    .argument("[id]", "a pending id (or 'all' for approve and reject)");
  program.command("curator").description("stale and archived skills of the local root")
    .argument("[action]", "status, run, pin, unpin or restore", "status")
    .argument("[name]", "the skill, for pin, unpin and restore")
    .option("--dry-run", "with run: report without moving anything")
    .option("--now <time>", "the time to judge by (ISO 8601; default: now)");
  program.command("bundle").description("skill bundles: list them, or show one with its members")
    .argument("[action]", "list or show", "list")
    .argument("[name]", "the bundle, for show");
  program.command("graph").description("skills, related skills and bundles as a graph")
    .option("--format <format>", "mermaid, dot or json", "mermaid");
  program.command("hub").description(
    "install skills from outside through quarantine and the guard scanner",
  )
    .argument(
      "<action>",
      "install, search, list, uninstall, verify, check, update, scan or audit",
    )
    .argument(
      "[target]",
      "install: a source; search: words; uninstall, check, update: a name; scan: a folder",
    )
    .option("--index <url>", "search, install: this well-known index instead of skills.hub.indexes")
    .option("--name <name>", "install: under this name")
    .option("--category <name>", "install: into this category")
    .option("--force", "install: replace an installed skill; override a block where policy allows")
    .option("--yes", "install: do not ask for confirmation")
    .option("--verify", "audit: check the hash chain of the audit log");
  program.command("sync").description(
    "copy an agent's bundled skills into the local root (tracked in .bundled_manifest)",
  )
    .requiredOption("--from <dir>", "the folder of bundled skills");
  program.command("mcp").description("serve skills over MCP (stdio) from inside the sandbox")
    .option("--allow-writes", "offer skill_manage (staged when write approval is on)");
  program.command("completions").description("print a shell completion script")
    .argument("<shell>", "bash, zsh or fish");
  return program;
}

/** Parses arguments (without the program name). Throws {@linkcode UsageError} on bad usage. */
export function parseArgs(
  argv: string[],
  version: string,
  env: (name: string) => string | undefined,
  isTerminal: boolean,
): Parsed {
  const program = buildProgram(version);
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
  const helpUsage = () =>
    `Usage: ${usageOf === program ? "" : "skillrt "}${usageOf.name()} ${usageOf.usage()}`;
  try {
    program.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      const askedForHelp = argv.some((a) => a === "-h" || a === "--help" || a === "help");
      if (error.code === "commander.version") return { kind: "print", text: out };
      if (error.code === "commander.helpDisplayed" || error.code === "commander.help") {
        if (askedForHelp) return { kind: "print", text: out };
        throw new UsageError("A command is required.", out.trimEnd());
      }
      const message = error.message.replace(/^error: /, "");
      throw new UsageError(message.charAt(0).toUpperCase() + message.slice(1), helpUsage());
    }
    throw error;
  }
  if (!captured) {
    const text = program.helpInformation();
    throw new UsageError("A command is required.", text.trimEnd());
  }
  const g = program.opts();
  const global: GlobalOptions = {
    json: g.json === true,
    color: g.color !== false && !env("NO_COLOR") && isTerminal,
    ...(g.home ? { home: String(g.home) } : {}),
    // The Worker cannot read the environment: the warden resolves $HERMES_PLATFORM here.
    ...(g.platform ?? env("HERMES_PLATFORM")
      ? { platform: String(g.platform ?? env("HERMES_PLATFORM")) }
      : {}),
    ...(g.sessionId ? { sessionId: String(g.sessionId) } : {}),
    ...(g.toolsets !== undefined ? { toolsets: splitList(String(g.toolsets)) } : {}),
    ...(g.tools !== undefined ? { tools: splitList(String(g.tools)) } : {}),
  };
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
