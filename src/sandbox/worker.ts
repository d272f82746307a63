/**
 * The sandbox Worker's entry: receives one command with the warden's setup and plan,
 * runs it with only the permissions of that plan, and posts back what to print.
 *
 * @module
 */
import { executeCommand } from "../cli/execute.ts";
import type { Outcome } from "../cli/request.ts";
import type { WorkerMessage } from "./run_worker.ts";

/** The parts of a Worker's global scope this entry uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
  postMessage(message: Outcome): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = async (event) => {
  const { request, setup, plan } = event.data;
  scope.postMessage(await executeCommand(request, { setup, plan }));
  scope.close();
};
