/**
 * The sandbox Worker's entry: receives one command with the warden's setup and plan,
 * runs it with only the permissions of that plan, and posts back what to print. It asks
 * the warden for environment values it may not read itself.
 *
 * @module
 */
import { executeCommand } from "../cli/execute.ts";
import type { EnvAnswer, FromWorker, WorkerMessage } from "./run_worker.ts";

/** The parts of a Worker's global scope this entry uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerMessage | EnvAnswer>) => void) | null;
  postMessage(message: FromWorker): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
const waiting = new Map<number, (values: Record<string, string>) => void>();
let nextId = 0;

function askWarden(names: string[]): Promise<Record<string, string>> {
  if (names.length === 0) return Promise.resolve({});
  const id = nextId++;
  scope.postMessage({ kind: "env", id, names });
  return new Promise((resolve) => waiting.set(id, resolve));
}

scope.onmessage = async (event) => {
  const data = event.data;
  if ("kind" in data) {
    waiting.get(data.id)?.(data.values);
    waiting.delete(data.id);
    return;
  }
  const outcome = await executeCommand(data.request, {
    setup: data.setup,
    plan: data.plan,
    envValues: askWarden,
  });
  scope.postMessage({ kind: "outcome", outcome });
  scope.close();
};
