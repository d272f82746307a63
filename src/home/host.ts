/**
 * Facts about the machine a command runs on: platform, environments ([L0-3]), the
 * names of set environment variables ([V-4]), the user's home and the cwd. The warden
 * gathers them (it may read the environment) and hands them to the Worker (which may not).
 *
 * @module
 */

import type { SandboxHost } from "../run/host_kinds.ts";

/** What the runtime needs to know about its host; plain data, safe to post to a Worker. */
export interface HostFacts {
  /** The platform in Hermes' naming: `linux`, `darwin`, `win32`, … */
  platform: string;
  /** Detected environments: any of `kanban`, `docker`, `s6`. */
  environments: string[];
  /** Names of environment variables that are set to a non-empty value. */
  envNames: string[];
  /** The user's home folder, when known. */
  userHome?: string;
  /** The working directory. */
  cwd: string;
  /** PATH, HOME and LANG for inline-shell commands ([P-4]); nothing else of the environment. */
  shellEnv?: Record<string, string>;
  /** The sandboxes for skills' scripts ([RUN-4]), when the warden looked (commands that run them). */
  sandbox?: SandboxHost;
}

/** Maps Deno's OS names to the platform names skills declare ([L0-2]). */
export function platformName(os: string): string {
  return os === "windows" ? "win32" : os;
}

/**
 * True inside Termux, as Hermes tells it: `TERMUX_VERSION` set, or `PREFIX` under
 * Termux's `com.termux/files/usr`. A Linux build of Deno there still says `linux`.
 */
export function isTermux(env: (name: string) => string | undefined = readEnv): boolean {
  return Boolean(env("TERMUX_VERSION")) || (env("PREFIX") ?? "").includes("com.termux/files/usr");
}

/**
 * The platform of this host ([L0-2], [L0-9]): Deno's OS name in Hermes' naming, and
 * `android` inside Termux whatever Deno says, so `termux` and `android` tags match there.
 */
export function hostPlatform(
  os: string = Deno.build.os,
  env: (name: string) => string | undefined = readEnv,
): string {
  return isTermux(env) ? "android" : platformName(os);
}

/** Reads an environment variable, or undefined when it is unset or not permitted. */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Detects the environments of [L0-3] on this machine. */
export function detectEnvironments(env: (name: string) => string | undefined = readEnv): string[] {
  const found: string[] = [];
  if (env("HERMES_KANBAN_TASK") || env("HERMES_KANBAN_BOARD")) found.push("kanban");
  if (exists("/.dockerenv") || /docker|containerd|kubepods/.test(readText("/proc/1/cgroup"))) {
    found.push("docker");
  }
  if (exists("/run/s6") || exists("/package/admin/s6-overlay")) found.push("s6");
  return found;
}

/** This project's folder (where `deno task` runs its tasks), when running from source. */
const PROJECT_DIR = import.meta.url.startsWith("file:")
  ? decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "")
  : undefined;

/**
 * The user's working directory ([C-6]): the process's, except under `deno task`, which
 * runs in the project folder and names the user's folder in `INIT_CWD` — trusted only
 * then, so a stale `INIT_CWD` elsewhere changes nothing.
 */
export function userCwd(initCwd: string | undefined, projectDir = PROJECT_DIR): string {
  let cwd = ".";
  try {
    cwd = Deno.cwd();
  } catch {
    return cwd;
  }
  if (initCwd && initCwd.startsWith("/") && projectDir !== undefined && cwd === projectDir) {
    try {
      if (Deno.statSync(initCwd).isDirectory) return initCwd;
    } catch {
      // Not a folder: keep the process's.
    }
  }
  return cwd;
}

/** Gathers the host facts in this process (as far as its permissions allow). */
export function detectHost(): HostFacts {
  let names: string[] = [];
  try {
    names = Object.entries(Deno.env.toObject()).filter(([, v]) => v !== "").map(([k]) => k);
  } catch {
    names = [];
  }
  const cwd = userCwd(readEnv("INIT_CWD"));
  const home = readEnv("HOME") ?? readEnv("USERPROFILE");
  const shellEnv: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG"]) {
    const value = readEnv(name);
    if (value !== undefined) shellEnv[name] = value;
  }
  return {
    platform: hostPlatform(),
    environments: detectEnvironments(),
    envNames: names.sort(),
    ...(home ? { userHome: home } : {}),
    cwd,
    shellEnv: shellEnv,
  };
}

/**
 * Expands `~`, `${VAR}` and `$VAR` in a path ([H-3]); unset variables are left as written.
 */
export function expandPath(
  path: string,
  env: (name: string) => string | undefined,
  userHome: string | undefined,
): string {
  let out = path.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, a, b) => env(a ?? b) ?? whole,
  );
  if (userHome && (out === "~" || out.startsWith("~/"))) out = userHome + out.slice(1);
  return out;
}
