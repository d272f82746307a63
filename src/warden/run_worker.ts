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
import type { CommandRequest, Outcome } from "../worker/request.ts";
import type { EnvAnswer, FromWorker, ToWorker, WorkerMessage } from "../worker/protocol.ts";
import type { JSONRPCMessage } from "../deps/mcp.ts";
import type { HomeLayout } from "../home/layout.ts";
import { readEnv } from "../home/host.ts";
import { workerPermissions } from "./plan.ts";
import type { SkillsConfig } from "../home/config.ts";
import { admitsAsk, type EnvAsk, isEnvName } from "../preprocess/env_access.ts";
import { ANNOUNCED_WITHIN_MS, wardenGroups } from "../preprocess/process_group.ts";
import type { SetupQuestion } from "../home/skill_setup.ts";
import { InternalError, InterruptedError, type SkillrtError } from "../errors.ts";
import { answerReadiness } from "../home/readiness_probe.ts";

/**
 * What the front end that starts a Worker lends the warden: the Worker entry that binds its
 * commands to the Worker's side of the protocol, its terminal for the questions a command
 * may ask, and the outcome it shows when a command is interrupted.
 */
export interface WorkerHost {
  /** The Worker entry module: the MCP server's own (`mcp`, the SDK in its graph only) or the commands'. */
  entry(mcp: boolean): URL;
  /** A yes/no at the terminal: undefined when there is none, null when the user pressed Ctrl-C. */
  confirm(question: string): boolean | undefined | null;
  /** One `setup` question at the terminal ([V-9]); null on Ctrl-C. */
  ask(question: SetupQuestion): string | undefined | null;
  /** A line read at the terminal, the question shown with its controls made visible ([HUB-8]); null on Ctrl-C. */
  line(question: string): string | undefined | null;
  /** The outcome of a command that failed in the warden's hands: interrupted by Ctrl-C, or its Worker crashed. */
  failed(request: CommandRequest, error: SkillrtError): Outcome;
  /** Whether a request walks whole roots (its command's row says), so a scan helper may start early. */
  walksRoots(request: CommandRequest): boolean;
}

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
 * the walk begins (creating a Worker takes tens of milliseconds): for a line that `walks`
 * whole roots (its row says) in a home whose roots hold many folders at the top (a
 * directory's link count is two plus its subfolders). Otherwise the Worker asks for a
 * helper itself if its walk grows big.
 */
export function startsHelperEarly(walks: boolean, setup: HomeLayout): boolean {
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
  host: WorkerHost,
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
      const answer = host.confirm(data.question);
      return answer === null ? "interrupt" : { kind: "confirm", id: data.id, answer };
    }
    case "ask": {
      const answer = message.asks === "ask" ? host.ask(data.question) : undefined;
      return answer === null ? "interrupt" : { kind: "ask", id: data.id, answer };
    }
    case "choose": {
      const answer = message.asks === "choose" ? host.line(data.question) : undefined;
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
function workerFailed(event: ErrorEvent, request: CommandRequest, host: WorkerHost): Outcome {
  return host.failed(request, new InternalError(`The sandbox worker failed: ${event.message}`));
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
  host: WorkerHost,
  worker: Worker,
  end: (outcome: Outcome) => void,
) {
  const writes = message.writes === true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let interrupted = false;
  const said = (text: string, exitCode: number): Outcome => ({
    ...host.failed(message.request, new InterruptedError(text)),
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

/**
 * Starts one command in a fresh sandbox Worker from the host's entry; `onMcp` receives the
 * MCP messages it sends.
 */
export function startWorker(
  message: WorkerMessage,
  host: WorkerHost,
  onMcp?: (message: JSONRPCMessage) => void,
): WorkerHandle {
  const permissions = workerPermissions(message.plan);
  // `mcp` has its own entry, the one whose graph holds the MCP SDK (src/cli/worker_modules.ts).
  const options: WorkerOptions = { type: "module", deno: { permissions } };
  const worker = new Worker(host.entry(message.mcp === true), options);
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
  const ctrlC = interruption(message, host, worker, (outcome) => end(outcome));
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
      const answer = answerQuestion(data, message, host);
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
      end(workerFailed(event, message.request, host));
    };
  });
  if (startsHelperEarly(host.walksRoots(message.request), message.setup)) {
    const channel = new MessageChannel();
    worker.postMessage({ ...message, scanPort: channel.port1 }, [channel.port1]);
    startHelper(channel.port2);
  } else worker.postMessage(message);
  return { post: (m) => worker.postMessage(m), done };
}

/** Runs one command in a fresh sandbox Worker from the host's entry and returns its outcome. */
export function runInWorker(message: WorkerMessage, host: WorkerHost): Promise<Outcome> {
  return startWorker(message, host).done;
}
