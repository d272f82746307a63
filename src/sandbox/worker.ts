/**
 * The sandbox Worker's entry: receives one command with the warden's setup and plan,
 * runs it with only the permissions of that plan, and posts back what to print. It asks
 * the warden for environment values it may not read itself, and speaks MCP through it.
 *
 * @module
 */
import { executeCommand } from "../cli/execute.ts";
import { writeAll } from "../cli/write_all.ts";
import type { JSONRPCMessage } from "../deps/mcp.ts";
import type { Channel } from "../mcp/channel_transport.ts";
import { helperBatchesParsed, type ScanHelper } from "../scan/parallel.ts";
import type { EnvAsk } from "../preprocess/env_access.ts";
import type { ProcessGroups } from "../preprocess/process_group.ts";
import type { SetupQuestion } from "../home/skill_setup.ts";
import type { ReadinessAnswer, ReadinessAsk } from "../home/readiness_probe.ts";
import type { FromWorker, ToWorker, WorkerMessage } from "./run_worker.ts";
import { interrupt, setInterruptGroups, untilInterrupted } from "../interruption.ts";

/** The parts of a Worker's global scope this entry uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerMessage | ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
const waiting = new Map<number, (values: Record<string, string>) => void>();
const asking = new Map<number, (answer: boolean | undefined) => void>();
const prompting = new Map<number, (answer: string | null | undefined) => void>();
const askingLine = new Map<number, (answer: string | undefined) => void>();
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

function confirmWithWarden(question: string): Promise<boolean | undefined> {
  const id = nextId++;
  scope.postMessage({ kind: "confirm", id, question });
  return untilInterrupted(new Promise((resolve) => asking.set(id, resolve)));
}

function promptWithWarden(question: SetupQuestion): Promise<string | null | undefined> {
  const id = nextId++;
  scope.postMessage({ kind: "ask", id, question });
  return untilInterrupted(new Promise((resolve) => prompting.set(id, resolve)));
}

function askLineOfWarden(question: string): Promise<string | undefined> {
  const id = nextId++;
  scope.postMessage({ kind: "choose", id, question });
  return untilInterrupted(new Promise((resolve) => askingLine.set(id, resolve)));
}

const readying = new Map<number, (answer: ReadinessAnswer) => void>();

/** This Worker may neither read PATH nor stat outside its plan: the warden looks up ([V-9]). */
function askReadiness(ask: ReadinessAsk): Promise<ReadinessAnswer> {
  const id = nextId++;
  scope.postMessage({ kind: "ready", id, ask });
  return new Promise((resolve) => readying.set(id, resolve));
}

function askWarden(asks: EnvAsk[]): Promise<Record<string, string>> {
  if (asks.length === 0) return Promise.resolve({});
  const id = nextId++;
  scope.postMessage({ kind: "env", id, asks });
  return new Promise((resolve) => waiting.set(id, resolve));
}

/** This Worker may not signal processes: the warden kills inline-shell process groups. */
const groupsByWarden: ProcessGroups = {
  started: (pgid) => scope.postMessage({ kind: "group", pgid, live: true }),
  kill: (pgid) => scope.postMessage({ kind: "group", pgid, live: false }),
};

setInterruptGroups(groupsByWarden);

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

scope.onmessage = async (event) => {
  const data = event.data;
  if ("kind" in data) {
    if (data.kind === "env") {
      waiting.get(data.id)?.(data.values);
      waiting.delete(data.id);
    } else if (data.kind === "ready") {
      readying.get(data.id)?.(data.answer);
      readying.delete(data.id);
    } else if (data.kind === "confirm") {
      asking.get(data.id)?.(data.answer);
      asking.delete(data.id);
    } else if (data.kind === "ask") {
      prompting.get(data.id)?.(data.answer);
      prompting.delete(data.id);
    } else if (data.kind === "choose") {
      askingLine.get(data.id)?.(data.answer);
      askingLine.delete(data.id);
    } else if (data.kind === "scan-helper-failed") helperFailed();
    else if (data.kind === "cancel") interrupt();
    else if (data.kind === "mcp") {
      if (mcpListener) mcpListener(data.message);
      else early.push(data.message);
    } else if (mcpClose) mcpClose();
    else early.push("close");
    return;
  }
  takesAll = data.scanTrace === true;
  if (data.scanPort) helper = { port: data.scanPort, failed: scanHelperFailed, takesAll };
  const outcome = await executeCommand(data.request, {
    setup: data.setup,
    plan: data.plan,
    envValues: askWarden,
    readiness: askReadiness,
    processGroups: groupsByWarden,
    confirm: confirmWithWarden,
    ask: promptWithWarden,
    choose: askLineOfWarden,
    channel,
    scanHelper: askScanHelper,
    watchHelper: askWatchHelper,
  });
  if (takesAll) outcome.stderr += `skillrt: scan helper parsed ${helperBatchesParsed()} batches\n`;
  if (data.writeStdout) {
    writeAll(Deno.stdout, outcome.stdout);
    outcome.stdout = "";
  }
  scope.postMessage({ kind: "outcome", outcome });
  scope.close();
};
