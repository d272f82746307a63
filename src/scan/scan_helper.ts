/**
 * The scan helper Worker's entry ([X-1], SPEC §19): created by the warden next to a
 * command's Worker with the same permission plan, it receives a message port, then the
 * units of a scan through it, and walks and reads each unit it claims until none is left.
 *
 * @module
 */
import { helperResult, type ToHelper } from "./parallel.ts";
import { walkUnit } from "./walk_shared.ts";

interface HelperScope {
  onmessage: ((event: MessageEvent<{ port: MessagePort }>) => void) | null;
  close(): void;
}

const scope = globalThis as unknown as HelperScope;

scope.onmessage = (event) => {
  const port = event.data.port;
  port.onmessage = (message: MessageEvent<ToHelper>) => {
    const data = message.data;
    if (data.kind === "done") return scope.close();
    for (let id; (id = Atomics.add(data.claims, 0, 1)) < data.tasks.length;) {
      port.postMessage(helperResult(id, walkUnit(data.tasks[id])));
    }
  };
};
