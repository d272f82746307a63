/**
 * The bubblewrap line of a script ([RUN-2]): fresh namespaces (the network kept only when
 * declared — bwrap cannot filter hosts), `--die-with-parent`, `--new-session`, the system
 * folders read-only, of `/etc` only what programs need to start (and to resolve names
 * when the network is declared: no passwd, no shadow, no host keys), the skill folder
 * read-only, the work dir writable (or only the declared paths in it), a private `/tmp`
 * and home, the environment the one given (bwrap is started with exactly it: a declared
 * value never stands on a command line, which every user of the machine may read), `/proc` and `/dev` of its
 * own, no capability kept for the script (a root box could remount its read-only binds
 * writable); then the prelude (`box_init.ts`) checks the binds, closes inherited
 * descriptors, sets the limits and drops the two capabilities it needed. Pure.
 *
 * @module
 */
import { isInside } from "../home/paths.ts";
import { BOX_LIMITS, boxInitArgv, type BoxPrograms } from "./box_init.ts";
import { type Grant, keptNames } from "./grant.ts";
import type { SystemEntry } from "./host_kinds.ts";
import { SANDBOX_PATH } from "./script_kind.ts";

export type { SystemEntry };

/** The top-level system folders bound read-only when present. */
export const SYSTEM_FOLDERS: readonly string[] = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
];

/** Files of `/etc` every program may need to start. */
export const ETC_BASE: readonly string[] = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
];

/** Files of `/etc` for name resolution and TLS, only when the network is declared. */
export const ETC_NET: readonly string[] = [
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/gai.conf",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
];

/**
 * The box's capabilities: none but the three the prelude needs (the box's `pid_max` and
 * its read-only binds; dropping every capability before the script; looking through
 * folders the script cannot list). A root box would otherwise keep them all
 * and could remount its read-only binds writable.
 */
export const BOX_CAPS: readonly string[] = [
  "--cap-drop",
  "ALL",
  "--cap-add",
  "CAP_SYS_ADMIN",
  "--cap-add",
  "CAP_SETPCAP",
  "--cap-add",
  "CAP_DAC_READ_SEARCH",
];

/** The private home inside the sandbox (in its private `/tmp`). */
export const SANDBOX_HOME = "/tmp/.home";

/** What the sandbox runs and with what around it. */
export interface BwrapSpec {
  /** The bwrap executable. */
  bwrap: string;
  /** The host's system folders as found ({@linkcode SystemEntry}). */
  system: readonly SystemEntry[];
  /** The grant. */
  grant: Grant;
  /** What runs inside: the interpreter (or deno) with its arguments, the script, its arguments. */
  command: readonly string[];
  /** Extra read-only files bound in: host path → path inside (the deno executable). */
  extra?: readonly [string, string][];
  /** The prelude's programs inside the box. */
  box: BoxPrograms;
  /** The kept-read-only paths of the grant that do not exist (an empty read-only folder goes there). */
  absent: readonly string[];
  /** What is bound read-only at the skill folder (its snapshot, [RUN-3]); the skill folder when absent. */
  skillSource?: string;
  /** The work dir's identity when it was checked (`device:inode`): the box refuses another folder there. */
  workDirId: string;
}

/** The declared reads bound on their own (outside the skill and the work dir). */
function boundReads(grant: Grant): string[] {
  return grant.read.filter((p) => !isInside(grant.skillDir, p) && !isInside(grant.workDir, p));
}

/** Whether the whole work dir is writable (no narrower write declared). */
function wholeWorkDir(grant: Grant): boolean {
  return grant.write.includes(grant.workDir);
}

/** What a script may write: the whole work dir, or the declared paths in it. */
export function writableRoots(grant: Grant): string[] {
  return wholeWorkDir(grant) ? [grant.workDir] : grant.write;
}

/** The system folders read-only (links as links), and of `/etc` what programs need to start (and to resolve names with `net`). */
export function systemArgs(system: readonly SystemEntry[], net: boolean): string[] {
  const out: string[] = [];
  for (const entry of system) {
    if (entry.link !== undefined) out.push("--symlink", entry.link, entry.path);
    else out.push("--ro-bind", entry.path, entry.path);
  }
  for (const file of [...ETC_BASE, ...(net ? ETC_NET : [])]) out.push("--ro-bind-try", file, file);
  return out;
}

/**
 * The work dir (or the declared paths in it) writable, declared reads; then every
 * kept-read-only path: bound read-only over itself, or an empty read-only folder where
 * there is none — no script plants a skill, an agent's settings or a git hook; last the
 * skill (its snapshot, bound at its path) read-only, so that what runs is what was
 * approved even where a declared read or the work dir holds the skill folder.
 */
function placeArgs(
  grant: Grant,
  absent: readonly string[],
  source = grant.skillDir,
): string[] {
  const whole = wholeWorkDir(grant);
  const out = [whole ? "--bind" : "--ro-bind", grant.workDir, grant.workDir];
  if (!whole) { for (const path of grant.write) out.push("--bind-try", path, path); }
  for (const path of boundReads(grant)) out.push("--ro-bind-try", path, path);
  for (const path of keptReadOnly(grant, absent)) {
    if (absent.includes(path)) out.push("--tmpfs", path, "--remount-ro", path);
    else out.push("--ro-bind", path, path);
  }
  // The skill (its approved snapshot) last: no declared read or work dir holding it covers it.
  out.push("--ro-bind", source, grant.skillDir);
  return out;
}

/** The kept-read-only paths bound: an absent one only where the work dir is writable. */
function keptReadOnly(grant: Grant, absent: readonly string[]): string[] {
  return wholeWorkDir(grant) ? grant.readOnly : grant.readOnly.filter((p) => !absent.includes(p));
}

/** What the prelude checks: every declared bind is itself, every kept path read-only. */
function checksOf(spec: BwrapSpec) {
  const { grant } = spec;
  const system = spec.system.filter((e) => e.link === undefined).map((e) => e.path);
  const writes = wholeWorkDir(grant) ? [] : grant.write;
  return {
    anchors: [grant.skillDir, grant.workDir, ...system],
    bound: [...boundReads(grant), ...writes],
    readOnly: keptReadOnly(grant, spec.absent),
    made: wholeWorkDir(grant) ? spec.absent : [],
    workDirId: spec.workDirId,
    writable: writableRoots(grant),
    keptNames: keptNames(),
  };
}

/** The whole bwrap line. */
export function bwrapArgv(spec: BwrapSpec): string[] {
  const net = spec.grant.net === true || spec.grant.net.length > 0;
  return [
    spec.bwrap,
    "--unshare-all",
    ...(net ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    ...BOX_CAPS,
    ...systemArgs(spec.system, net),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    // Memory a script could fill by writing files: a bounded shm, a read-only /dev, a bounded /tmp.
    "--size",
    String(BOX_LIMITS.shmBytes),
    "--tmpfs",
    "/dev/shm",
    "--remount-ro",
    "/dev",
    "--size",
    String(BOX_LIMITS.tmpBytes),
    "--tmpfs",
    "/tmp",
    "--dir",
    SANDBOX_HOME,
    ...(spec.extra ?? []).flatMap(([from, to]) => ["--ro-bind", from, to]),
    ...placeArgs(spec.grant, spec.absent, spec.skillSource),
    "--chdir",
    spec.grant.workDir,
    "--",
    ...boxInitArgv(spec.box, checksOf(spec)),
    ...spec.command,
  ];
}

/** The base environment of every script: the sandbox's PATH, its private HOME, LANG. */
export function baseEnv(lang: string | undefined, home = SANDBOX_HOME): Record<string, string> {
  return { PATH: SANDBOX_PATH, HOME: home, LANG: lang ?? "C.UTF-8", TMPDIR: "/tmp" };
}
