/**
 * What a command runs with besides its request: the setup and plan the warden computed and
 * the warden's services (environment answers, process groups, confirmation, the MCP
 * channel, a scan helper). Types only; below `execute.ts` and every command.
 *
 * @module
 */
import type { Setup } from "../home/setup.ts";
import type { PromptReader } from "../home/skill_setup.ts";
import type { Channel } from "../mcp/channel_transport.ts";
import type { EnvAsk } from "../preprocess/env_access.ts";
import type { ProcessGroups } from "../preprocess/process_group.ts";
import type { ReadinessProbe } from "../home/readiness_probe.ts";
import type { PermissionPlan } from "../sandbox/permission_plan.ts";
import type { HelperSource } from "../scan/parallel.ts";
import type { SkillRuntime } from "../runtime.ts";
import type { CommandRequest } from "./request.ts";

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

/** What a command runs with besides its request. */
export interface ExecuteContext {
  /** The setup the warden computed. */
  setup: Setup;
  /** The plan the Worker was created with. */
  plan: PermissionPlan;
  /** Values of environment variables, answered by the warden ([P-6], [P-7]); none when absent. */
  envValues?: (asks: EnvAsk[]) => Promise<Record<string, string>>;
  /** Has the warden look programs up on PATH and credential files under the home ([V-9]). */
  readiness?: ReadinessProbe;
  /** Has the warden kill inline-shell process groups ([P-4]). */
  processGroups?: ProcessGroups;
  /** Asks the user a yes/no question at the warden's terminal (undefined: no terminal). */
  confirm?: (question: string) => Promise<boolean | undefined>;
  /** Asks the user one `setup` question at the warden's terminal ([V-9]). */
  ask?: PromptReader;
  /** Asks the user for a line at the warden's terminal (undefined: no terminal). */
  choose?: (question: string) => Promise<string | undefined>;
  /** The MCP channel to the warden's stdio relay (the `mcp` command). */
  channel?: Channel;
  /** Asks the warden for a scan helper Worker next to this one (SPEC §19). */
  scanHelper?: HelperSource;
  /** The write targets of a command, from its module (the targets step, [X-1]); set by `execute.ts`. */
  targetsOf?: (command: string) => Promise<Targets | undefined>;
  /** Asks the warden for a watch helper Worker next to this one ([PERF-5]): its port. */
  watchHelper?: () => MessagePort;
}
