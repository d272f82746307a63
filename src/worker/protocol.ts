/**
 * The call protocol between the warden and a command's Worker ([X-1]): the one message that
 * starts a call (the typed request with the warden's setup and plan), the questions and
 * requests the Worker sends while it runs, the warden's answers, and the call's typed result.
 * Every message is plain data posted between threads (structured clone), never text to
 * parse. The warden's side is `src/warden/run_worker.ts`, the Worker's `src/worker/worker.ts`;
 * a front end binds the Worker's side to its commands in its own entry module.
 *
 * @module
 */
import type { JSONRPCMessage } from "../deps/mcp.ts";
import type { HomeLayout } from "../home/layout.ts";
import type { PromptReader, SetupQuestion } from "../home/skill_setup.ts";
import type { ReadinessAnswer, ReadinessAsk, ReadinessProbe } from "../home/readiness_probe.ts";
import type { EnvAsk } from "../preprocess/env_access.ts";
import type { ProcessGroups } from "../preprocess/process_group.ts";
import type { HelperSource } from "../scan/parallel.ts";
import type { PermissionPlan } from "../warden/permission_plan.ts";
import type { CommandRequest, Outcome } from "./request.ts";

/** What the warden posts to start the Worker's command. */
export interface WorkerMessage {
  /** The parsed command. */
  request: CommandRequest;
  /** The warden's setup (config already read, roots already found). */
  setup: HomeLayout;
  /** The plan the Worker was created with. */
  plan: PermissionPlan;
  /**
   * The one kind of question beyond yes/no the Worker may ask at the terminal (its command's
   * row says: `setup`'s `ask`, `hub`'s `choose`); any other is left unanswered.
   */
  asks?: "ask" | "choose";
  /**
   * The MCP server (`mcp`): its own Worker entry, whose graph holds the MCP SDK
   * (src/cli/worker_modules.ts), and its own signal handling.
   */
  mcp?: true;
  /**
   * The command writes (a writing command, or a writing action of another): on Ctrl-C it
   * is told to stop, and says what it changed, instead of being stopped at once.
   */
  writes?: boolean;
  /** One end of a channel to a scan helper the warden started along with the Worker. */
  scanPort?: MessagePort;
  /**
   * The Worker writes the command's stdout to the process's stdout itself (the outcome
   * then carries none), sparing a large document the trip through the warden.
   */
  writeStdout?: boolean;
  /**
   * Test hook ([PERF-1]), set by the warden when `SKILLRT_SCAN_TRACE=1`: the scan helper
   * reads every batch it is sent, and the outcome's stderr ends with a line saying how
   * many batches it parsed.
   */
  scanTrace?: boolean;
}

/**
 * Messages from the Worker: its outcome, a question about environment values (each name
 * with its ground, [P-7]), a process group started or to kill ([P-4]), or an MCP message.
 */
export type FromWorker =
  | { kind: "outcome"; outcome: Outcome }
  | { kind: "env"; id: number; asks: EnvAsk[] }
  | { kind: "ready"; id: number; ask: ReadinessAsk }
  | { kind: "group"; pgid: number; live: boolean }
  | { kind: "confirm"; id: number; question: string }
  | { kind: "ask"; id: number; question: SetupQuestion }
  | { kind: "choose"; id: number; question: string }
  | { kind: "mcp"; message: JSONRPCMessage }
  | { kind: "scan-helper"; port: MessagePort }
  | { kind: "watch-helper"; port: MessagePort };

/** The warden's answer to an environment question. */
export interface EnvAnswer {
  /** Always `env`. */
  kind: "env";
  /** The question's id. */
  id: number;
  /** Values of the names asked for that are set. */
  values: Record<string, string>;
}

/** Messages to the Worker after the start: env answers, MCP messages, the end of MCP input. */
export type ToWorker =
  | EnvAnswer
  | { kind: "ready"; id: number; answer: ReadinessAnswer }
  | { kind: "confirm"; id: number; answer: boolean | undefined }
  | { kind: "ask"; id: number; answer: string | null | undefined }
  | { kind: "choose"; id: number; answer: string | undefined }
  | { kind: "mcp"; message: JSONRPCMessage }
  | { kind: "mcp-close" }
  | { kind: "scan-helper-failed" }
  | { kind: "cancel" };

/** The two ends of the MCP channel between the Worker and the warden's relay. */
export interface Channel {
  /** Sends one message to the other side. */
  post(message: JSONRPCMessage): void;
  /** Registers the receiver of incoming messages, and of the close signal. */
  listen(onMessage: (message: JSONRPCMessage) => void, onClose: () => void): void;
}

/** What the Worker's side of the protocol hands the command it runs: the warden's services. */
export interface WorkerServices {
  /** The setup the warden computed. */
  setup: HomeLayout;
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
  /** Asks the warden for a watch helper Worker next to this one ([PERF-5]): its port. */
  watchHelper?: () => MessagePort;
}

/** A front end's commands, as the Worker's side of the protocol runs them: one call, its outcome. */
export type CallHandler = (request: CommandRequest, services: WorkerServices) => Promise<Outcome>;
