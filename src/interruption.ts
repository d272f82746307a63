/**
 * The user's Ctrl-C inside a command's Worker: the warden, told by SIGINT or by a Ctrl-C
 * typed at one of its prompts, asks the Worker to stop (`cancel`). Long steps (a clone, a
 * download, a question waiting for the terminal) end at once with an
 * {@linkcode InterruptedError}, and the command's own error handling (`finally` blocks,
 * scratch folders) runs as for any other failure; the command says what was and was not
 * changed. In the library nothing ever interrupts.
 *
 * @module
 */
import { InterruptedError } from "./errors.ts";
import type { ProcessGroups } from "./preprocess/process_group.ts";

const controller = new AbortController();

/** Aborted once the user interrupted this process's command. */
export const interruptSignal: AbortSignal = controller.signal;

/** Marks the command interrupted: what waits on {@linkcode interruptSignal} ends. */
export function interrupt(): void {
  controller.abort(new InterruptedError());
}

/** Throws an {@linkcode InterruptedError} when the command was interrupted. */
export function throwIfInterrupted(): void {
  if (controller.signal.aborted) throw new InterruptedError();
}

/**
 * Lets a Ctrl-C that came during a synchronous step (a scan) arrive — the warden's word is
 * a message, read only between tasks — and throws if it did.
 */
export async function interruptionPoint(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  throwIfInterrupted();
}

/** `promise`, or an {@linkcode InterruptedError} as soon as the command is interrupted. */
export function untilInterrupted<T>(promise: Promise<T>): Promise<T> {
  if (controller.signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new InterruptedError());
    controller.signal.addEventListener("abort", stop, { once: true });
    promise.then(resolve, reject).finally(() =>
      controller.signal.removeEventListener("abort", stop)
    );
  });
}

let groups: ProcessGroups | undefined;

/**
 * Who kills the process groups of this thread's long steps on an interruption: the
 * warden, in a command's Worker (set once by src/worker/worker.ts); nobody in the library.
 */
export function setInterruptGroups(by: ProcessGroups): void {
  groups = by;
}

/**
 * Runs `command` in a process group of its own, told to whoever kills groups on an
 * interruption: a program that waits on helpers of its own (git on its remote helper) and
 * outlives SIGTERM still ends at once, with all of them. Its group is ended with it. When
 * it died by a signal, waits (at most `settleMs`) for the interruption that sent it.
 */
export async function runInterruptible(
  program: string,
  options: Deno.CommandOptions,
  settleMs = 2_000,
): Promise<Deno.CommandOutput> {
  const child = new Deno.Command(program, { ...options, detached: true, signal: interruptSignal })
    .spawn();
  groups?.started(child.pid);
  let out: Deno.CommandOutput;
  try {
    out = await child.output();
  } finally {
    groups?.kill(child.pid);
  }
  if (out.signal !== null && !interruptSignal.aborted) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, settleMs);
      interruptSignal.addEventListener("abort", () => resolve(), { once: true });
    });
    clearTimeout(timer);
  }
  return out;
}
