/**
 * The shapes of what the machine offers for running scripts ([RUN-4]): types only, with
 * no imports, so that the host facts (`src/home/host.ts`) can carry them.
 *
 * @module
 */

/** One top-level system folder of the host: a real folder, or a link (`/bin` → `usr/bin`). */
export interface SystemEntry {
  /** Its absolute path. */
  path: string;
  /** Where it links to, when it is a link. */
  link?: string;
}

/** The sandboxes this machine offers. */
export interface SandboxHost {
  /** `Deno.build.os`. */
  os: string;
  /** The Deno executable, when one was found. */
  deno?: string;
  /** The bubblewrap executable, when it is usable. */
  bwrap?: string;
  /** Why bubblewrap is not usable, with how to install it (when `bwrap` is absent). */
  bwrapProblem?: string;
  /** The host's system folders. */
  system: SystemEntry[];
  /** Deno's module cache on the host (for Deno scripts run without bubblewrap). */
  denoDir?: string;
  /**
   * The private folder the warden made for the snapshots of skills run ([RUN-3], the one
   * folder the Worker may write for them, removed by the warden at the end); the system's
   * temporary folder when absent (the library in-process).
   */
  scratch?: string;
  /** The user's folder of the work dirs' turns, machine-wide (`work_dir_turns.ts`). */
  turns?: string;
}
