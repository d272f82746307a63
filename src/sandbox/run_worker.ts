/**
 * Running a command in a Worker created with exactly the permissions of its plan
 * ([X-1]); the warden waits for its outcome.
 *
 * @module
 */
import type { CommandRequest, Outcome } from "../cli/request.ts";
import type { Setup } from "../home/setup.ts";
import { type PermissionPlan, workerPermissions } from "./plan.ts";

/** What the warden posts to the Worker. */
export interface WorkerMessage {
  /** The parsed command. */
  request: CommandRequest;
  /** The warden's setup (config already read, roots already found). */
  setup: Setup;
  /** The plan the Worker was created with. */
  plan: PermissionPlan;
}

/** Runs one command in a fresh sandbox Worker and returns its outcome. */
export function runInWorker(message: WorkerMessage): Promise<Outcome> {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), {
    type: "module",
    deno: { permissions: workerPermissions(message.plan) },
  });
  return new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<Outcome>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      worker.terminate();
      resolve({
        exitCode: 1,
        stdout: "",
        stderr: `skillrt: The sandbox worker failed: ${event.message.split("\n")[0]}\n`,
      });
    };
    worker.postMessage(message);
  });
}
