/**
 * The command table: one row a command (`CommandRow`) — its grammar, and what the warden
 * plans it with: whether it reads or writes, preprocesses, takes content or runs scripts,
 * the paths its line names, the home's folders it needs made, what the fence admits for
 * it — and its implementation module (none: the warden runs it), which runs it and, for a
 * writing command, works out its targets. The skill commands' rows are in
 * `manage_rows.ts`, the actions of `bundle`, `pending` and `curator` in `action_rows.ts`,
 * hub's in `commands/hub_plan.ts`. Everything that lists commands is derived from it: the
 * {@linkcode CommandName} type, the sandbox plan's lists (`src/warden/plan.ts`), the
 * Worker's dispatcher (`execute.ts`), the parser, help, the quick path and the
 * completions (`COMMANDS`) and the MCP `skill_manage` actions (`src/mcp/tools.ts`).
 * Planning asks a row ({@linkcode rowOf}). Adding a command is adding a row and a module.
 *
 * @module
 */
import { registeredModule } from "./worker_modules.ts";
import type { CommandModule, CommandRow, PlannedLine } from "./command_row.ts";
import type { CommandSpec } from "./grammar.ts";
import type { CommandRequest } from "../worker/request.ts";
import { SKILL_ACTIONS } from "../manage/change.ts";
import { resolvePath } from "../home/paths.ts";
import { isBareName } from "../resolve/name_guard.ts";
import type { HomeLayout } from "../home/layout.ts";
import { workDirPaths } from "./work_dir.ts";
import { MANAGE_ROWS } from "./manage_rows.ts";
import { HUB_PLAN } from "./commands/hub_plan.ts";
import {
  actionNames,
  actionSkeleton,
  BUNDLE_ACTION_ROWS,
  CURATOR_ACTION_ROWS,
  PENDING_ACTION_ROWS,
  writingActions,
} from "./action_rows.ts";
import {
  BUNDLE_GRAMMAR,
  CURATOR_GRAMMAR,
  HUB_ARGUMENTS,
  HUB_OPTIONS,
  LIST_GRAMMAR,
  LOAD_OPTIONS,
  MCP_OPTIONS,
  RUN_GRAMMAR,
  SANDBOX_GRAMMAR,
  SKILL_ARGUMENT,
  VALIDATE_GRAMMAR,
} from "./command_grammar.ts";

/** `mcp --allow-writes` writes the local root and the bundles, or the approval queue ([A-1]). */
function mcpSkeleton(request: PlannedLine, setup: HomeLayout): string[] {
  if (request.options.allowWrites !== true) return [];
  return setup.config.write_approval ? ["skills", "pending/skills"] : ["skills", "skill-bundles"];
}

const TABLE = {
  list: {
    plan: "reads",
    walksRoots: ({ options }) => options.categories !== true,
    load: () => import("./commands/list.ts"),
    grammar: LIST_GRAMMAR,
  },
  search: {
    plan: "reads",
    walksRoots: () => true,
    load: () => import("./commands/search.ts"),
    grammar: {
      description: "rank visible skills by a query",
      arguments: [
        { spec: "<query...>", description: "words to look for" },
      ],
    },
  },
  view: {
    plan: "reads",
    preprocesses: true,
    walksRoots: ({ args }) => args.length === 1 && isBareName(args[0] ?? ""),
    load: () => import("./commands/view.ts"),
    grammar: {
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
  },
  invoke: {
    plan: "reads",
    preprocesses: true,
    skillHelp: true,
    walksRoots: ({ args }) => isBareName(args[0] ?? ""),
    load: () => import("./commands/invoke.ts"),
    grammar: {
      description: "the message for a slash-command invocation of a skill",
      arguments: [
        SKILL_ARGUMENT,
        { spec: "[instruction...]", description: "what the user asked alongside the invocation" },
      ],
      options: LOAD_OPTIONS,
    },
  },
  prompt: {
    plan: "reads",
    walksRoots: () => true,
    preloads: (options) => typeof options.preload === "string",
    load: () => import("./commands/prompt.ts"),
    grammar: {
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
  },
  run: {
    plan: "reads",
    runs: true,
    sandboxes: true,
    // `sandbox run NAME PATH` shows the line (`show`): it runs nothing.
    snapshots: (options) => options.show !== true,
    paths: (request, setup) => workDirPaths(request.options, setup.host.cwd),
    // Approving a script records it in the local root ([RUN-3]).
    skeleton: () => ["skills"],
    load: () => import("./commands/run.ts"),
    grammar: RUN_GRAMMAR,
  },
  validate: {
    plan: "reads",
    paths: (request, setup) => request.args.map((p) => resolvePath(setup.host.cwd, p)),
    load: () => import("./commands/validate.ts"),
    grammar: VALIDATE_GRAMMAR,
  },
  doctor: {
    plan: "reads",
    sandboxes: true,
    load: () => import("./commands/doctor.ts"),
    grammar: {
      description: "report roots, shadowed names, diagnostics, sandbox and hub state",
    },
  },
  sandbox: {
    sandboxes: true,
    grammar: SANDBOX_GRAMMAR,
  },
  ...MANAGE_ROWS,
  enable: {
    plan: "writes",
    userFiles: true,
    load: () => import("./commands/toggle.ts"),
    grammar: {
      description:
        "show a skill again: off skills.disabled and every platform list (--platform P: that one)",
      arguments: [
        { spec: "<name>", description: "the skill", complete: "skill" },
      ],
    },
  },
  disable: {
    plan: "writes",
    userFiles: true,
    load: () => import("./commands/toggle.ts"),
    grammar: {
      description:
        "hide a skill: onto skills.disabled in config.yaml (--platform P: that platform only)",
      arguments: [
        { spec: "<name>", description: "the skill", complete: "skill" },
      ],
    },
  },
  setup: {
    plan: "writes",
    asks: "ask",
    userFiles: true,
    load: () => import("./commands/setup.ts"),
    grammar: {
      description: "ask at the terminal for what a skill needs (env vars, config values)",
      arguments: [
        { spec: "<name>", description: "the skill", complete: "skill" },
      ],
    },
  },
  pending: {
    plan: "writes",
    skeleton: actionSkeleton(PENDING_ACTION_ROWS),
    load: () => import("./commands/pending.ts"),
    grammar: {
      description: "review writes staged for approval",
      arguments: [
        {
          spec: "[action]",
          description: "list, diff, approve or reject",
          default: "list",
          complete: actionNames(PENDING_ACTION_ROWS),
        },
        { spec: "[id]", description: "a pending id (or 'all' for approve and reject)" },
      ],
    },
  },
  curator: {
    plan: "writes",
    skeleton: actionSkeleton(CURATOR_ACTION_ROWS),
    load: () => import("./commands/curator.ts"),
    grammar: CURATOR_GRAMMAR,
  },
  bundle: {
    plan: "reads",
    writingActions: writingActions(BUNDLE_ACTION_ROWS),
    skeleton: actionSkeleton(BUNDLE_ACTION_ROWS),
    load: () => import("./commands/bundle.ts"),
    grammar: BUNDLE_GRAMMAR,
  },
  graph: {
    plan: "reads",
    load: () => import("./commands/graph.ts"),
    grammar: {
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
  },
  hub: {
    plan: "writes",
    asks: "choose",
    ...HUB_PLAN,
    load: () => import("./commands/hub.ts"),
    grammar: {
      description: "install skills from outside through quarantine and the guard scanner",
      arguments: HUB_ARGUMENTS,
      options: HUB_OPTIONS,
    },
  },
  sync: {
    plan: "writes",
    paths: (request, setup) =>
      typeof request.options.from === "string"
        ? [resolvePath(setup.host.cwd, request.options.from)]
        : [],
    skeleton: () => ["skills"],
    load: () => import("./commands/sync.ts"),
    grammar: {
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
  },
  mcp: {
    plan: "reads",
    preprocesses: true,
    sandboxes: (options) => options.allowRun === true,
    snapshots: (options) => options.allowRun === true,
    skeleton: mcpSkeleton,
    // In its own Worker entry (src/cli/mcp_worker.ts): the MCP SDK stays out of the others.
    load: () => registeredModule("mcp"),
    grammar: {
      description: "serve skills over MCP (stdio, or Streamable HTTP) from inside the sandbox",
      options: MCP_OPTIONS,
    },
  },
  completions: {
    grammar: {
      description: "print a shell completion script",
      arguments: [
        { spec: "<shell>", description: "bash, zsh or fish", complete: ["bash", "zsh", "fish"] },
      ],
    },
  },
  probe: {
    load: () => import("./commands/probe.ts"),
  },
  targets: {
    load: () => import("./commands/targets.ts"),
  },
} satisfies Record<string, CommandRow>;

/** Every command's name: the command line's, and the Worker's internal steps (`probe`, `targets`). */
export type CommandName = keyof typeof TABLE;

/** A command run in a sandbox Worker: one with a module. */
export type WorkerCommandName = {
  [K in CommandName]: (typeof TABLE)[K] extends { load: unknown } ? K : never;
}[CommandName];

/** A command the warden runs itself. */
export type WardenCommandName = Exclude<CommandName, WorkerCommandName>;

/** The rows, in the table's order (the order help lists commands in). */
export const COMMAND_ROWS: readonly (CommandRow & { name: CommandName })[] = Object.entries(TABLE)
  .map(([name, row]) => ({ name: name as CommandName, ...row }));

const names = (keep: (row: CommandRow) => boolean): readonly CommandName[] =>
  COMMAND_ROWS.filter(keep).map((row) => row.name);

/** Every command the command line knows, with its grammar, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = COMMAND_ROWS.flatMap((row) =>
  row.grammar ? [{ name: row.name, ...row.grammar }] : []
);

/** Every command with a plan of its own: what `sandbox COMMAND` can show. */
export const PLANNED_COMMANDS: readonly string[] = names((row) => row.plan !== undefined);
/** Commands that write: their write grant is worked out first by a read-only Worker. */
export const WRITING_COMMANDS: readonly string[] = names((row) => row.plan === "writes");
/** Commands whose output is preprocessed and may run inline shell ([P-4]). */
export const PREPROCESSING_COMMANDS: readonly string[] = names((row) => row.preprocesses === true);
/** Commands that run a skill's scripts in their sandbox ([RUN-1]). */
export const RUNNING_COMMANDS: readonly string[] = names((row) => row.runs === true);
/**
 * Whether a request looks at the machine's sandboxes for scripts before it is planned
 * ([RUN-4]; its row's `sandboxes`).
 */
export function looksAtSandboxes(request: CommandRequest): boolean {
  const sandboxes = rowOf(request.command)?.sandboxes;
  return typeof sandboxes === "function" ? sandboxes(request.options) : sandboxes === true;
}

/** Whether a request walks whole roots (its row's `walksRoots`): a scan helper may start with its Worker. */
export function walksRoots(request: PlannedLine): boolean {
  return rowOf(request.command)?.walksRoots?.(request) === true;
}

/** Whether a request runs skills' scripts, from snapshots in a scratch folder ([RUN-3]; its row's `snapshots`). */
export function runsScripts(request: CommandRequest): boolean {
  return rowOf(request.command)?.snapshots?.(request.options) === true;
}

/** Commands that change skills ([M-1]): the skill actions, each a row of its own. */
export const MANAGE_COMMANDS: readonly string[] = SKILL_ACTIONS satisfies readonly CommandName[];
/** Commands that take content from `--file` or stdin. */
export const CONTENT_COMMANDS: readonly string[] = names((row) => row.content !== undefined);
/**
 * Commands that may write the user's own files, config.yaml and `<home>/.env` — and only
 * these, run by the user at the CLI ([V-9], [V-10]); never MCP.
 */
export const USER_FILE_COMMANDS: readonly string[] = names((row) => row.userFiles === true);
/** Commands whose help for a named skill shows its `argument-hint` ([IO-3]). */
export const SKILL_HELP_COMMANDS: readonly string[] = names((row) => row.skillHelp === true);
/** Actions that make a reading command write ([B-3]: `bundle create|edit|delete`). */
export const WRITING_ACTIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  COMMAND_ROWS.flatMap((row) => row.writingActions ? [[row.name, row.writingActions]] : []),
);

/** True when a command line writes: a writing command, or a writing action of another. */
export function isWriting(command: string, args: readonly string[] = []): boolean {
  return WRITING_COMMANDS.includes(command) ||
    (Object.hasOwn(WRITING_ACTIONS, command) && WRITING_ACTIONS[command].includes(args[0] ?? ""));
}

/** The implementation module of each command run in a Worker. */
export const COMMAND_MODULES: Readonly<Record<WorkerCommandName, () => Promise<CommandModule>>> =
  Object.fromEntries(
    COMMAND_ROWS.flatMap((row) => row.load ? [[row.name, row.load]] : []),
  ) as Record<WorkerCommandName, () => Promise<CommandModule>>;

/** The row of a command, or undefined for a name the table does not have. */
export function rowOf(command: string): CommandRow | undefined {
  return Object.hasOwn(TABLE, command) ? (TABLE as Record<string, CommandRow>)[command] : undefined;
}
