/**
 * The shape of a row of the command table (`command_table.ts`) and of a command's
 * implementation module. Types only.
 *
 * @module
 */
import type { SkillRuntime } from "../runtime.ts";
import type { ExecuteContext, Targets } from "./context.ts";
import type { CommandSpec } from "./grammar.ts";
import type { CommandRequest, Outcome } from "../worker/request.ts";
import type { HomeLayout } from "../home/layout.ts";

/** What a row's skeleton looks at of a line: its command, its words, its options. */
export type PlannedLine = Pick<CommandRequest, "command" | "args" | "options">;

/** One command's implementation, run in its sandbox Worker. */
export interface CommandModule {
  /** Runs the command and returns what to print. */
  run(
    runtime: SkillRuntime,
    request: CommandRequest,
    ctx: ExecuteContext,
  ): Outcome | Promise<Outcome>;
  /**
   * A writing command's write targets ([X-1], [X-6]), worked out in a Worker that may only
   * read: the exact paths it will write; what else it needs goes into `grants`.
   */
  targets?: Targets;
}

/**
 * One row of the table. A command with a module runs in a sandbox Worker, under its plan;
 * one without is run by the warden itself, reading no skill content (`sandbox`,
 * `completions`: see `IN_WARDEN` in `warden.ts`, which must name each).
 */
export interface CommandRow {
  /**
   * Its plan: `reads` the skills (roots, plugins, bundles, config, `.env`); `writes` them
   * too, its write grant worked out first by a read-only Worker ([X-6]). Absent: the
   * command has no plan of its own.
   */
  plan?: "reads" | "writes";
  /** Its output is preprocessed and may run inline shell ([P-4]); it counts uses ([U-1]). */
  preprocesses?: true;
  /**
   * It takes content from `--file` or stdin: a `skill`'s `SKILL.md` (UTF-8 text), or a
   * support `file`'s (not UTF-8: sent as base64).
   */
  content?: "skill" | "file";
  /** Of a reading command: the actions (its first argument) that write ([B-3]). */
  writingActions?: readonly string[];
  /**
   * It runs a skill's scripts ([RUN-1]): its plan may run `deno` and `bwrap` (nothing
   * else), read the sandbox's system folders and the approvals, and record approvals.
   */
  runs?: true;
  /**
   * It looks at the machine's sandboxes for skills' scripts before it is planned ([RUN-4]):
   * the commands that run scripts, report them (`doctor`) or show their line (`sandbox`);
   * a function says for which options (`mcp` only with `--allow-run`: looking starts
   * bubblewrap, which every other start of the server would pay for).
   */
  sandboxes?: true | ((options: CommandRequest["options"]) => boolean);
  /**
   * For these options it runs skills' scripts, from snapshots in a private scratch folder
   * the warden makes for it and removes at the end ([RUN-3]).
   */
  snapshots?: (options: CommandRequest["options"]) => boolean;
  /**
   * The one kind of question beyond yes/no its Worker may ask at the warden's terminal:
   * `setup`'s questions (`ask`, [V-9]), or the choice among a collection's skills (`choose`,
   * [HUB-8]); the warden answers no other.
   */
  asks?: "ask" | "choose";
  /** It may write the user's own files, config.yaml and `<home>/.env` ([V-9], [V-10]). */
  userFiles?: true;
  /**
   * `COMMAND NAME --help` adds the named skill's `argument-hint` to the help ([IO-3]); the
   * skill is read in the command's Worker, which gets the help text as `helpText`.
   */
  skillHelp?: true;
  /**
   * The paths its line names that its plan reads (absolute): `validate PATH…`, `run`'s
   * work dir, `sync --from DIR`, what a `hub` action names.
   */
  paths?: (request: CommandRequest, setup: HomeLayout) => string[] | Promise<string[]>;
  /**
   * The folders below the home it needs before it is planned ([H-1], [X-6]: the base of
   * its grant), which the warden makes (`src/warden/skeleton.ts`); none when absent.
   */
  skeleton?: (request: PlannedLine, setup: HomeLayout) => string[];
  /**
   * What the write fence admits for it besides the home and the roots ([X-6]): outputs
   * its line names (`hub publish --out SITE`), the agent folder it installs into ([HUB-8]).
   */
  fence?: (
    request: CommandRequest,
    setup: HomeLayout,
  ) => { outputs?: string[]; agentTarget?: string };
  /**
   * For this line it walks whole roots (SPEC §19): the warden then starts a scan helper along
   * with its Worker when the roots hold many folders (`list`, `search`, `prompt`, `view` or
   * `invoke` of a bare name).
   */
  walksRoots?: (request: PlannedLine) => boolean;
  /** For these options it preprocesses skills it does not usually load (`prompt --preload`, [L0-10]). */
  preloads?: (options: CommandRequest["options"]) => boolean;
  /** Its grammar; absent for the Worker's internal steps, which no command line names. */
  grammar?: Omit<CommandSpec, "name">;
  /** Its implementation module, loaded when it runs in its Worker. */
  load?: () => Promise<CommandModule>;
}
