/**
 * What a command runs with besides its request: the setup and plan the warden computed and
 * the warden's services (environment answers, process groups, confirmation, the MCP
 * channel, a scan helper). Types only; below `execute.ts` and every command.
 *
 * @module
 */
import type { SkillRuntime } from "../runtime.ts";
import type { CommandRequest } from "../worker/request.ts";
import type { WorkerServices } from "../worker/protocol.ts";

/**
 * What a writing command's targets step found it needs besides the paths it writes: hosts,
 * programs, environment variables ([T-4]: only the GitHub token's), and the hosts the step
 * must be planned again with to find the rest (a discovery index, [IO-1]).
 */
export interface Grants {
  /** Hosts it reaches. */
  net: string[];
  /** Programs it runs. */
  run: string[];
  /** Environment variables it reads. */
  env: string[];
  /** Hosts the step must read from to find the rest. */
  planWith: string[];
}

/**
 * A writing command's write targets ([X-1], [X-6]), worked out in a Worker that may only
 * read: the exact paths it will write; what else it needs goes into `grants`.
 */
export type Targets = (
  runtime: SkillRuntime,
  request: CommandRequest,
  grants: Grants,
) => string[] | Promise<string[]>;

/** What a command runs with besides its request: the warden's services, and its module's targets. */
export interface ExecuteContext extends WorkerServices {
  /** The write targets of a command, from its module (the targets step, [X-1]); set by `execute.ts`. */
  targetsOf?: (command: string) => Promise<Targets | undefined>;
}
