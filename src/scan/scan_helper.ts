/**
 * The scan helper Worker's entry ([X-1], SPEC §19): created by the warden next to a
 * command's Worker with the same permission plan, it receives a message port, then
 * batches of skill folders through it, and reads and parses each batch it claims.
 *
 * @module
 */
import { FREE, HELPER, helperResult, readBatch, type ToHelper } from "./parallel.ts";

interface HelperScope {
  onmessage: ((event: MessageEvent<{ port: MessagePort }>) => void) | null;
  close(): void;
}

const scope = globalThis as unknown as HelperScope;

let claims: Int32Array | undefined;

scope.onmessage = (event) => {
  const port = event.data.port;
  port.onmessage = (message: MessageEvent<ToHelper>) => {
    const data = message.data;
    if (data.kind === "claims") claims = data.claims;
    else if (data.kind === "done") scope.close();
    else if (claims && Atomics.compareExchange(claims, data.id, FREE, HELPER) === FREE) {
      port.postMessage(helperResult(data.id, readBatch(data)));
    }
  };
};
