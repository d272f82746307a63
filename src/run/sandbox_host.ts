/**
 * What this machine offers for running scripts ([RUN-4]): the Deno executable, a usable
 * bubblewrap (found on PATH and proved by starting an empty sandbox — user namespaces may
 * be off), the system folders as they are (a folder, or a link such as `/bin` → `usr/bin`)
 * and Deno's own cache. Found by the warden (or the library in-process), which may look;
 * the Worker is handed it as data.
 *
 * @module
 */
import { basename, joinPath } from "../home/paths.ts";
import { readEnv } from "../home/host.ts";
import { onPath } from "../home/readiness_probe.ts";
import { BOX_CAPS, SYSTEM_FOLDERS } from "./bwrap_args.ts";
import type { SandboxHost, SystemEntry } from "./host_kinds.ts";
import { machineTurnsFolder } from "./work_dir_turns.ts";

export type { SandboxHost };

/** The line that installs bubblewrap on Debian and Ubuntu. */
export const BWRAP_INSTALL = "apt-get install bubblewrap";

/** The first folder on PATH holding `name` as a program. */
function which(name: string): string | undefined {
  const path = readEnv("PATH") ?? "";
  for (const dir of path.split(":")) {
    if (dir.startsWith("/") && onPath(name, dir)) return joinPath(dir, name);
  }
  return undefined;
}

/** The Deno executable: this process's when it is Deno itself (not a compiled skillrt), else PATH's. */
function denoExecutable(): string | undefined {
  const own = Deno.execPath();
  return /^deno(\.exe)?$/.test(basename(own)) ? own : which("deno");
}

/** Starts an empty sandbox: undefined when it works, else why not (one line). */
function bwrapProblem(bwrap: string): string | undefined {
  try {
    const out = new Deno.Command(bwrap, {
      // With the box's capabilities: a setuid bwrap refuses them to a user who is not root.
      args: [
        "--ro-bind",
        "/",
        "/",
        "--unshare-all",
        "--die-with-parent",
        ...BOX_CAPS,
        "--",
        "true",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (out.success) return undefined;
    const line = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    return `bubblewrap cannot start a sandbox here (${line}); user namespaces may be off`;
  } catch (error) {
    return `bubblewrap could not be started (${(error as Error).message.split("\n")[0]})`;
  }
}

/** The system folders present here, each a folder or a link. */
function systemEntries(): SystemEntry[] {
  const out: SystemEntry[] = [];
  for (const path of SYSTEM_FOLDERS) {
    try {
      const info = Deno.lstatSync(path);
      if (info.isSymlink) out.push({ path, link: Deno.readLinkSync(path) });
      else if (info.isDirectory) out.push({ path });
    } catch {
      // Not on this system.
    }
  }
  return out;
}

/** Deno's module cache: `DENO_DIR`, else the platform's cache folder. */
function denoCache(): string | undefined {
  const dir = readEnv("DENO_DIR");
  if (dir) return dir;
  const cache = readEnv("XDG_CACHE_HOME") ??
    (readEnv("HOME") ? joinPath(readEnv("HOME")!, ".cache") : undefined);
  return cache ? joinPath(cache, "deno") : undefined;
}

/** Looks at this machine once: Deno, bubblewrap (started once to prove it works), the system folders. */
export function probeSandboxHost(): SandboxHost {
  const host: SandboxHost = { os: Deno.build.os, system: systemEntries() };
  const deno = denoExecutable();
  if (deno) host.deno = deno;
  const denoDir = denoCache();
  if (denoDir) host.denoDir = denoDir;
  const turns = machineTurnsFolder(readEnv("XDG_RUNTIME_DIR"), readEnv("HOME"));
  if (turns) host.turns = turns;
  if (Deno.build.os !== "linux") {
    host.bwrapProblem = `bubblewrap runs on Linux only; this is ${Deno.build.os}`;
    return host;
  }
  const bwrap = which("bwrap");
  const problem = bwrap
    ? bwrapProblem(bwrap)
    : `bubblewrap (bwrap) is not installed: ${BWRAP_INSTALL}`;
  if (problem === undefined) host.bwrap = bwrap;
  else host.bwrapProblem = bwrap ? `${problem}; see ${BWRAP_INSTALL}` : problem;
  return host;
}
