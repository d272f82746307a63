/**
 * The Worker's side of the call protocol (`protocol.ts`): receives one command with the
 * warden's setup and plan, runs it with only the permissions of that plan through the
 * handler a front end's Worker entry gives {@linkcode serveWorker}, and posts back its
 * outcome. It asks the warden for environment values it may not read itself, and speaks
 * MCP through it.
 *
 * @module
 */
import { writeAll } from "./write_all.ts";
import type { JSONRPCMessage } from "../deps/mcp.ts";
import { helperUnitsWalked, type ScanHelper } from "../scan/parallel.ts";
import type { EnvAsk } from "../preprocess/env_access.ts";
import type { ProcessGroups } from "../preprocess/process_group.ts";
import type { SetupQuestion } from "../home/skill_setup.ts";
import type { ReadinessAnswer, ReadinessAsk } from "../home/readiness_probe.ts";
import type { CallHandler, Channel, FromWorker, ToWorker, WorkerMessage } from "./protocol.ts";
import { interrupt, setInterruptGroups, untilInterrupted } from "../interruption.ts";

/** A question the Worker asks the warden and waits for the answer to. */
type Asked = Extract<FromWorker, { id: number }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The parts of a Worker's global scope this entry uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerMessage | ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
/** The questions asked of the warden and not yet answered, by id: who waits for each answer. */
const pending = new Map<number, (answer: never) => void>();
let nextId = 0;
let mcpListener: ((message: JSONRPCMessage) => void) | undefined;
let mcpClose: (() => void) | undefined;
let helperFailed = () => {};
const scanHelperFailed = new Promise<void>((resolve) => (helperFailed = resolve));
let helper: ScanHelper | undefined;
let takesAll = false;

/**
 * The scan helper Worker: the one the warden started along with this Worker, else one
 * asked of the warden now: this Worker keeps one end of a new channel and sends the
 * other, which the warden hands to the helper it starts. Batches posted before the
 * helper is up wait in the channel, so the walk never waits for it.
 */
function askScanHelper(): ScanHelper {
  if (!helper) {
    const channel = new MessageChannel();
    scope.postMessage({ kind: "scan-helper", port: channel.port2 }, [channel.port2]);
    helper = { port: channel.port1, failed: scanHelperFailed, takesAll };
  }
  return helper;
}

/** A watch helper Worker asked of the warden ([PERF-5]): this end of its channel. */
function askWatchHelper(): MessagePort {
  const channel = new MessageChannel();
  scope.postMessage({ kind: "watch-helper", port: channel.port2 }, [channel.port2]);
  return channel.port1;
}

/** Asks the warden a question (`question` without its id) and waits for its answer. */
function askOfWarden<T>(question: DistributiveOmit<Asked, "id">): Promise<T> {
  const id = nextId++;
  scope.postMessage({ ...question, id } as Asked);
  return new Promise<T>((resolve) => pending.set(id, resolve as (answer: never) => void));
}

const confirmWithWarden = (question: string) =>
  untilInterrupted(askOfWarden<boolean | undefined>({ kind: "confirm", question }));
const promptWithWarden = (question: SetupQuestion) =>
  untilInterrupted(askOfWarden<string | null | undefined>({ kind: "ask", question }));
const askLineOfWarden = (question: string) =>
  untilInterrupted(askOfWarden<string | undefined>({ kind: "choose", question }));

/** This Worker may neither read PATH nor stat outside its plan: the warden looks up ([V-9]). */
const askReadiness = (ask: ReadinessAsk) => askOfWarden<ReadinessAnswer>({ kind: "ready", ask });

function askWarden(asks: EnvAsk[]): Promise<Record<string, string>> {
  if (asks.length === 0) return Promise.resolve({});
  return askOfWarden({ kind: "env", asks });
}

/** This Worker may not signal processes: the warden kills inline-shell process groups. */
const groupsByWarden: ProcessGroups = {
  started: (pgid) => scope.postMessage({ kind: "group", pgid, live: true }),
  kill: (pgid) => scope.postMessage({ kind: "group", pgid, live: false }),
};

// MCP input can arrive before the server listens: it waits here until then.
const early: (JSONRPCMessage | "close")[] = [];

const channel: Channel = {
  post: (message) => scope.postMessage({ kind: "mcp", message }),
  listen: (onMessage, onClose) => {
    mcpListener = onMessage;
    mcpClose = onClose;
    for (const item of early.splice(0)) item === "close" ? onClose() : onMessage(item);
  },
};

/** Hands a warden's message sent after the start to whoever waits for it. */
function receive(data: ToWorker): void {
  if ("id" in data) {
    const answered = pending.get(data.id);
    pending.delete(data.id);
    answered?.((data.kind === "env" ? data.values : data.answer) as never);
  } else if (data.kind === "scan-helper-failed") helperFailed();
  else if (data.kind === "cancel") interrupt();
  else if (data.kind === "mcp") {
    if (mcpListener) mcpListener(data.message);
    else early.push(data.message);
  } else if (mcpClose) mcpClose();
  else early.push("close");
}

/** Runs the call the warden started with `data` through `run`, posts its outcome, and ends. */
async function call(data: WorkerMessage, run: CallHandler): Promise<void> {
  takesAll = data.scanTrace === true;
  if (data.scanPort) helper = { port: data.scanPort, failed: scanHelperFailed, takesAll };
  const outcome = await run(data.request, {
    setup: data.setup,
    plan: data.plan,
    envValues: askWarden,
    readiness: askReadiness,
    processGroups: groupsByWarden,
    confirm: confirmWithWarden,
    ask: promptWithWarden,
    choose: askLineOfWarden,
    channel,
    scanHelper: Object.assign(askScanHelper, { started: () => helper !== undefined }),
    watchHelper: askWatchHelper,
  });
  if (takesAll) outcome.stderr += `skillrt: scan helper walked ${helperUnitsWalked()} folders\n`;
  if (data.writeStdout) {
    writeAll(Deno.stdout, outcome.stdout);
    outcome.stdout = "";
  }
  scope.postMessage({ kind: "outcome", outcome });
  scope.close();
}

/**
 * Serves the one call of this Worker with `run`, a front end's commands (its Worker entry
 * calls this once, at its start).
 */
export function serveWorker(run: CallHandler): void {
  setInterruptGroups(groupsByWarden);
  scope.onmessage = (event) => {
    const data = event.data;
    if ("kind" in data) receive(data);
    else void call(data, run);
  };
}
