/**
 * Running a command in a Worker created with exactly the permissions of its plan
 * ([X-1]). The Worker has no environment grant: when a skill's config names `${VAR}`
 * ([P-6]), it asks the warden with the ground of each name, and the warden answers only
 * the names whose ground holds ([P-7]); whether programs are on PATH and credential
 * files under the home it asks the same way ([V-9]). The Worker may not signal processes either: it
 * asks the warden to kill an inline-shell command's process group ([P-4]). For `mcp`,
 * the warden also relays MCP messages between stdio and the Worker.
 *
 * @module
 */
import type { CommandRequest, GlobalOptions, Outcome } from "../cli/request.ts";
import type { JSONRPCMessage } from "../deps/mcp.ts";
import type { Setup } from "../home/setup.ts";
import { readEnv } from "../home/host.ts";
import { type PermissionPlan, workerPermissions } from "./plan.ts";
import { isBareName } from "../resolve/name_guard.ts";
import type { SkillsConfig } from "../home/config.ts";
import { admitsAsk, type EnvAsk, isEnvName } from "../preprocess/env_access.ts";
import { ANNOUNCED_WITHIN_MS, wardenGroups } from "../preprocess/process_group.ts";
import type { SetupQuestion } from "../home/skill_setup.ts";
import { askAtTerminal, askSetupQuestion, readLineAtTerminal } from "../cli/terminal_prompt.ts";
import { failure } from "../cli/render.ts";
import { InternalError, InterruptedError } from "../errors.ts";
import { visibleControls } from "../cli/terminal_text.ts";
import {
  answerReadiness,
  type ReadinessAnswer,
  type ReadinessAsk,
} from "../home/readiness_probe.ts";

/** What the warden posts to start the Worker's command. */
export interface WorkerMessage {
  /** The parsed command. */
  request: CommandRequest;
  /** The warden's setup (config already read, roots already found). */
  setup: Setup;
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

/**
 * Answers an environment question from the warden's environment: only asks whose ground
 * holds under the user's config ([P-7]) — a `passthrough` name must be in
 * `skills.env_passthrough`, a `config` name must be written as `${NAME}` in the user's
 * `skills.config`, and anything else (invalid names, unknown grounds) gets no value.
 */
export function answerEnv(
  id: number,
  asks: unknown,
  config: SkillsConfig,
  env: (name: string) => string | undefined = readEnv,
): EnvAnswer {
  const rules = { passthrough: config.env_passthrough, userConfig: config.config };
  const values: Record<string, string> = {};
  for (const ask of Array.isArray(asks) ? asks : []) {
    if (!isAsk(ask) || !admitsAsk(ask, rules)) continue;
    const value = env(ask.name);
    if (value !== undefined) values[ask.name] = value;
  }
  return { kind: "env", id, values };
}

const GROUNDS: readonly string[] = ["config", "passthrough", "declared"];

function isAsk(ask: unknown): ask is EnvAsk {
  const a = ask as Partial<EnvAsk> | null;
  return typeof a === "object" && a !== null && isEnvName(a.name) &&
    GROUNDS.includes(a.why as string);
}

/** A running sandbox Worker. */
export interface WorkerHandle {
  /** Posts a message to the Worker. */
  post(message: ToWorker): void;
  /** The command's outcome, once it ends. */
  done: Promise<Outcome>;
}

/**
 * Starts a scan helper Worker (SPEC §19) with the same permissions as the command's and
 * hands it `port`, the other end of which the command's Worker holds; a failure is told
 * to the command's Worker, which then reads alone.
 */
function startScanHelper(
  permissions: Deno.PermissionOptionsObject,
  port: MessagePort,
  onFailure: () => void,
): Worker {
  const helper = new Worker(new URL("../scan/scan_helper.ts", import.meta.url), {
    type: "module",
    deno: { permissions },
  });
  helper.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    helper.terminate();
    onFailure();
  };
  helper.postMessage({ port }, [port]);
  return helper;
}

/**
 * Starts a watch helper Worker ([PERF-5]) with the same permissions as the command's (it
 * watches only what the command may read) and hands it `port`.
 */
function startWatchHelper(permissions: Deno.PermissionOptionsObject, port: MessagePort): Worker {
  const helper = new Worker(new URL("../scan/watch_helper.ts", import.meta.url), {
    type: "module",
    deno: { permissions },
  });
  helper.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    helper.terminate(); // its watchers fail to open, or end: those roots fall back
  };
  helper.postMessage({ port }, [port]);
  return helper;
}

/**
 * Whether to start a scan helper along with the command's Worker, so that it is up when
 * the walk begins (creating a Worker takes tens of milliseconds): for commands that walk
 * a whole root (`list`, `search`, `prompt`, `view`/`invoke` of a bare name) in a home
 * whose roots hold many folders at the top (a directory's link count is two plus its
 * subfolders). Otherwise the Worker asks for a helper itself if its walk grows big.
 */
export function startsHelperEarly(request: CommandRequest, setup: Setup): boolean {
  const { command, args, options } = request;
  const walks = command === "list"
    ? options.categories !== true
    : command === "search" || command === "prompt" ||
      (command === "view" && args.length === 1 && isBareName(args[0] ?? "")) ||
      (command === "invoke" && isBareName(args[0] ?? ""));
  return walks && setup.roots.some((root) => {
    try {
      return (Deno.statSync(root.path).nlink ?? 0) - 2 >= EARLY_HELPER_FOLDERS;
    } catch {
      return false;
    }
  });
}

/** Folders at the top of a root from which a scan helper is started early. */
const EARLY_HELPER_FOLDERS = 8;

/**
 * The warden's answer to a question a Worker asks, or undefined when the message is no
 * question. One place decides who may ask what: environment values on the grounds of
 * [P-7]; readiness by `stat` only ([V-9], names and paths checked again, the plan grows
 * by nothing); a yes/no at the terminal; `setup`'s questions and the choice among a
 * collection's skills ([HUB-8], shown with controls made visible) only for the command
 * whose row asks them (`message.asks`: `setup`, `hub`).
 * `interrupt` when the user pressed Ctrl-C (or Ctrl-D) at the terminal's question.
 */
function answerQuestion(
  data: FromWorker,
  message: WorkerMessage,
): ToWorker | "interrupt" | undefined {
  switch (data.kind) {
    case "env":
      return answerEnv(data.id, data.asks, message.setup.config);
    case "ready":
      return {
        kind: "ready",
        id: data.id,
        answer: answerReadiness(data.ask, readEnv("PATH"), message.setup.home),
      };
    case "confirm": {
      const answer = askAtTerminal(data.question);
      return answer === null ? "interrupt" : { kind: "confirm", id: data.id, answer };
    }
    case "ask": {
      const answer = message.asks === "ask" ? askSetupQuestion(data.question) : undefined;
      return answer === null ? "interrupt" : { kind: "ask", id: data.id, answer };
    }
    case "choose": {
      const answer = message.asks === "choose"
        ? readLineAtTerminal(visibleControls(data.question))
        : undefined;
      return answer === null ? "interrupt" : { kind: "choose", id: data.id, answer };
    }
    default:
      return undefined;
  }
}

/**
 * The outcome of a sandbox Worker that failed (something it did not catch): an internal
 * failure, one line, exit code 1, and its JSON under `--json`.
 */
function workerFailed(event: ErrorEvent, global: GlobalOptions): Outcome {
  return failure(global, new InternalError(`The sandbox worker failed: ${event.message}`));
}

/** How long an interrupted command that writes has to clean up and say what it changed. */
const FINISH_WITHIN_MS = 10_000;

/**
 * The warden's Ctrl-C for one Worker (SIGINT, or Ctrl-C typed at one of its questions),
 * with the exit code of the signal (130 for SIGINT). A command that writes is told to
 * stop (src/sandbox/interruption.ts): its clone, download or question ends at once, its
 * scratch folders are removed as after any failure, and it says what was and was not
 * changed; should it not end within FINISH_WITHIN_MS it is stopped. Any other command is
 * stopped at once (after the moment process-group announcements need, [P-4]).
 */
function interruption(
  message: WorkerMessage,
  worker: Worker,
  end: (outcome: Outcome) => void,
) {
  const { global } = message.request;
  const writes = message.writes === true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let interrupted = false;
  const said = (text: string, exitCode: number): Outcome => ({
    ...failure(global, new InterruptedError(text)),
    exitCode,
  });
  return {
    interrupt: (code: number) => {
      if (interrupted) return;
      interrupted = true;
      if (writes) worker.postMessage({ kind: "cancel" } satisfies ToWorker);
      const text = writes
        ? "Interrupted; stopped before it could say what it changed (see doctor)."
        : "Interrupted; nothing was changed.";
      timer = setTimeout(
        () => end(said(text, code)),
        writes ? FINISH_WITHIN_MS : ANNOUNCED_WITHIN_MS,
      );
    },
    /** Whether the Worker's own outcome ends the interrupted command (one that writes). */
    awaitsOutcome: () => writes,
    clear: () => clearTimeout(timer),
  };
}

/** Starts one command in a fresh sandbox Worker; `onMcp` receives the MCP messages it sends. */
export function startWorker(
  message: WorkerMessage,
  onMcp?: (message: JSONRPCMessage) => void,
): WorkerHandle {
  const permissions = workerPermissions(message.plan);
  // `mcp` has its own entry, the one whose graph holds the MCP SDK (src/cli/worker_modules.ts).
  const options: WorkerOptions = { type: "module", deno: { permissions } };
  const worker = message.mcp
    ? new Worker(new URL("./mcp_worker.ts", import.meta.url), options)
    : new Worker(new URL("./worker.ts", import.meta.url), options);
  let helper: Worker | undefined;
  const watchers: Worker[] = [];
  const startHelper = (port: MessagePort) => {
    helper ??= startScanHelper(
      permissions,
      port,
      () => worker.postMessage({ kind: "scan-helper-failed" } satisfies ToWorker),
    );
  };
  let end: (outcome: Outcome) => void = () => {};
  const ctrlC = interruption(message, worker, (outcome) => end(outcome));
  // Every command but `mcp` listens for Ctrl-C from the start: a command that may start
  // groups must ([P-4]), and every one ends through `interruption`; `mcp` stops on its own
  // signal handling and arms only when a group is announced.
  const mcp = message.mcp === true;
  const groups = wardenGroups(!mcp, mcp ? undefined : ctrlC.interrupt);
  const stop = () => {
    worker.terminate();
    helper?.terminate();
    watchers.forEach((w) => w.terminate());
    groups.killAll();
  };
  const done = new Promise<Outcome>((resolve) => {
    let ended = false;
    end = (outcome) => {
      if (ended) return;
      ended = true;
      ctrlC.clear();
      stop();
      resolve(outcome);
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const data = event.data;
      const answer = answerQuestion(data, message);
      if (answer === "interrupt") {
        groups.interrupt();
        ctrlC.interrupt(130);
      } else if (answer) worker.postMessage(answer);
      else if (data.kind === "group") {
        data.live ? groups.started(data.pgid) : groups.kill(data.pgid);
      } else if (data.kind === "mcp") onMcp?.(data.message);
      else if (data.kind === "scan-helper") startHelper(data.port);
      else if (data.kind === "watch-helper") {
        watchers.push(startWatchHelper(permissions, data.port));
      } else if (data.kind === "outcome") {
        // Interrupted: `mcp` exits with the signal's code in a moment; a command that
        // does not write ends in `interruption`, not with this outcome.
        if (groups.interrupted() && !ctrlC.awaitsOutcome()) return;
        end(data.outcome);
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      end(workerFailed(event, message.request.global));
    };
  });
  if (startsHelperEarly(message.request, message.setup)) {
    const channel = new MessageChannel();
    worker.postMessage({ ...message, scanPort: channel.port1 }, [channel.port1]);
    startHelper(channel.port2);
  } else worker.postMessage(message);
  return { post: (m) => worker.postMessage(m), done };
}

/** Runs one command in a fresh sandbox Worker and returns its outcome. */
export function runInWorker(message: WorkerMessage): Promise<Outcome> {
  return startWorker(message).done;
}
