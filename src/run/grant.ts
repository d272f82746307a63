/**
 * The grant of one script run ([RUN-1]): what the skill declared, resolved against the
 * skill folder and the work dir, and checked. Refused before anything runs, with a
 * one-line reason: a work dir that is `/`, the user's home, the skillrt home or holds
 * them, or lies in the skillrt home or the skill; a write outside the work dir; any path
 * reaching the user's home, `/` or the skillrt home (checked as written and as its real
 * path, so a link inside the skill cannot widen it); a malformed host, program or
 * variable name, or one the env policy refuses. Pure: `realPath` is handed in.
 *
 * @module
 */
import { skillFolderTops } from "../home/agents.ts";
import { isInside, joinPath, resolvePath } from "../home/paths.ts";
import { isCommandName } from "../view/requirements.ts";
import type { Declared } from "./permissions.ts";
import { envNameRefusal } from "./env_policy.ts";
import { keptPlaceOf } from "./kept_places.ts";

/** The folders a run is placed in, all absolute and real. */
export interface Places {
  /** The skill folder (read-only to the script). */
  skillDir: string;
  /** The work dir (the script's working directory, writable). */
  workDir: string;
  /** The user's home directory, when known. */
  userHome?: string;
  /** The skillrt home. */
  skillrtHome: string;
  /** Its real path (or that of its local root's folder), when it differs. */
  skillrtHomeReal?: string;
  /** The skills folders (roots, plugins), real: kept read-only when inside the work dir. */
  roots?: readonly string[];
  /** Whether a folder is shaped as a git repository (`kept_places.ts`); never when absent. */
  isRepository?: (folder: string) => boolean;
}

/** What a script is granted. Paths are absolute; the skill folder and work dir are always read. */
export interface Grant {
  /** The skill folder. */
  skillDir: string;
  /** The work dir. */
  workDir: string;
  /** Every path it may read: the skill folder, the work dir, then the declared ones. */
  read: string[];
  /** Every path it may write (the work dir, or the declared paths inside it). */
  write: string[];
  /** Hosts it may reach; `true`: any. */
  net: string[] | true;
  /** Names passed from the user's environment (PATH, HOME, LANG are the sandbox's own). */
  env: string[];
  /** Programs a Deno script may run. */
  run: string[];
  /**
   * Never written, whatever else is ([X-6]): the skills folders inside the work dir, and
   * its would-be skills and agent folders and `.git` (existing or not: nothing planted
   * there runs or loads later outside the box).
   */
  readOnly: string[];
}

/** A grant, or why there is none. */
export type GrantVerdict = { grant: Grant } | { refused: string };

/** The prefix of a read path relative to the work dir. */
export const WORKDIR_PREFIX = "$WORKDIR";

const HOST =
  /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9-]{0,62})?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62})?)*)(:[0-9]{1,5})?$/;

/**
 * Folders where programs keep their unix sockets (a tmux server, ssh-agent, D-Bus, a
 * database): a read-only bind still lets a script `connect()` to a socket, and drive a
 * program outside the box with the user's rights. No declared read may reach them (the
 * session's runtime folder, `$XDG_RUNTIME_DIR`, lies in `/run/user`).
 */
const SOCKET_FOLDERS = ["/tmp", "/var/tmp", "/run", "/var/run", "/dev/shm"];

/**
 * Why a declared read is or holds a folder of sockets, or undefined (a folder below one
 * is looked through for sockets by the box itself before the script starts: `box_init.ts`).
 */
function reachesSockets(path: string): string | undefined {
  for (const place of SOCKET_FOLDERS) {
    if (isInside(path, place)) {
      return `it holds ${place}, where programs keep sockets a script could connect to`;
    }
  }
  return undefined;
}

/** Why `path` reaches a place no grant may: `/`, the user's home, the skillrt home. */
function reachesForbidden(path: string, places: Places): string | undefined {
  if (path === "/") return "it is /";
  const forbidden: [string, string | undefined][] = [
    ["the skillrt home", places.skillrtHome],
    ["the skillrt home", places.skillrtHomeReal],
    ["your home", places.userHome],
  ];
  for (const [label, place] of forbidden) {
    if (place !== undefined && (isInside(place, path) || isInside(path, place))) {
      return `it reaches ${label} (${place})`;
    }
  }
  return undefined;
}

/** Why the work dir may not be one, or undefined. */
export function workDirRefusal(places: Places): string | undefined {
  const { workDir, skillDir, userHome, skillrtHome } = places;
  if (workDir === "/") return "the work dir may not be /";
  if (userHome !== undefined && isInside(workDir, userHome)) {
    return `the work dir may not be your home or hold it (${userHome}); pass --workdir DIR`;
  }
  for (const home of [skillrtHome, places.skillrtHomeReal ?? skillrtHome]) {
    if (isInside(workDir, home) || isInside(home, workDir)) {
      return `the work dir may not be in or hold the skillrt home (${home})`;
    }
  }
  if (isInside(workDir, skillDir) || isInside(skillDir, workDir)) {
    return "the work dir may not be in or hold the skill folder, which stays read-only";
  }
  const root = places.roots?.find((r) => isInside(r, workDir));
  if (root !== undefined) return `the work dir may not be in the skills folder '${root}'`;
  const kept = keptPlaceOf(workDir, keptNames(), places.isRepository);
  return kept === undefined ? undefined : `the work dir may not be there: ${kept}`;
}

/** A declared read path, absolute: relative to the skill folder, or `$WORKDIR/…`. */
function readPath(entry: string, places: Places): string {
  if (entry === WORKDIR_PREFIX || entry.startsWith(`${WORKDIR_PREFIX}/`)) {
    return resolvePath(places.workDir, entry.slice(WORKDIR_PREFIX.length + 1) || ".");
  }
  return resolvePath(places.skillDir, entry);
}

/** Resolves declared reads; the reason for the first refused one, or the paths. */
function reads(declared: Declared, places: Places, real: (p: string) => string): string[] | string {
  const out = [places.skillDir, places.workDir];
  for (const entry of declared.read) {
    for (const path of new Set([readPath(entry, places), real(readPath(entry, places))])) {
      const inside = isInside(places.skillDir, path) || isInside(places.workDir, path);
      const why = inside ? undefined : reachesForbidden(path, places) ?? reachesSockets(path);
      if (why !== undefined) return `read '${entry}' is refused: ${why}`;
    }
    out.push(real(readPath(entry, places)));
  }
  return [...new Set(out)];
}

/** Resolves declared writes, each inside the work dir; the reason for the first refused one. */
function writes(
  declared: Declared,
  places: Places,
  real: (p: string) => string,
): string[] | string {
  if (declared.write === undefined) return [places.workDir];
  const out: string[] = [];
  for (const entry of declared.write) {
    const path = resolvePath(places.workDir, entry);
    if (!isInside(places.workDir, path) || !isInside(places.workDir, real(path))) {
      return `write '${entry}' is refused: a script writes inside the work dir only`;
    }
    for (const at of new Set([path, real(path)])) {
      const kept = keptPlaceOf(at, keptNames(), places.isRepository);
      if (kept !== undefined) return `write '${entry}' is refused: ${kept}`;
    }
    out.push(real(path));
  }
  return [...new Set(out)];
}

/**
 * The names of the folders no script may plant or change, at any depth of what it writes:
 * a git repository's (`.git`: its config runs commands on `git status`) and the agents'
 * folders (their settings and skills) — kept read-only at the work dir's top, and below it
 * by the box (`box_init.ts`).
 */
export function keptNames(): string[] {
  return [...skillFolderTops(), ".git"];
}

/** The work dir's `.git` and would-be skills folders, then the roots inside it. */
function readOnlyIn(places: Places): string[] {
  const tops = keptNames().map((t) => joinPath(places.workDir, t));
  const roots = (places.roots ?? []).filter((r) => isInside(places.workDir, r));
  return [...new Set([...tops, ...roots.filter((r) => !tops.some((t) => isInside(t, r)))])];
}

/** Checks hosts, names and programs; the first refusal, or undefined. */
function namesRefusal(declared: Declared, places: Places): string | undefined {
  if (declared.net !== true) {
    const bad = declared.net.find((h) => h !== "*" && !HOST.test(h));
    if (bad !== undefined) return `net '${bad}' is not a host or host:port`;
  }
  for (const name of declared.env) {
    const why = envNameRefusal(name);
    if (why !== undefined) return `env '${name}' is refused: ${why}`;
  }
  for (const program of declared.run) {
    if (program.startsWith("/")) {
      const why = reachesForbidden(resolvePath("/", program), places);
      if (why !== undefined) return `run '${program}' is refused: ${why}`;
    } else if (!isCommandName(program)) return `run '${program}' is not a program name or path`;
  }
  return undefined;
}

// deno-lint-ignore no-control-regex
const UNLISTABLE = /[,\u0000-\u001f\u007f]/;

/**
 * Why a computed grant cannot be handed on, or undefined: a path or program holding a
 * comma (Deno's permission lists are comma-separated: `a,/root` would be two grants) or
 * a control character — as declared or as its real path.
 */
function unlistable(grant: Grant): string | undefined {
  const bad = [...grant.read, ...grant.write, ...grant.run, ...grant.readOnly].find((p) =>
    UNLISTABLE.test(p)
  );
  return bad === undefined
    ? undefined
    : `'${
      bad.replace(UNLISTABLE, "?")
    }' holds a comma or a control character, which no permission list can carry`;
}

/**
 * The grant for `declared` in `places`, or the one-line reason it is refused. `realPath`
 * gives a path's real path (the path itself when it does not exist).
 */
export function grantFor(
  declared: Declared,
  places: Places,
  realPath: (p: string) => string = (p) => p,
): GrantVerdict {
  const why = workDirRefusal(places) ?? namesRefusal(declared, places);
  if (why !== undefined) return { refused: why };
  const read = reads(declared, places, realPath);
  if (typeof read === "string") return { refused: read };
  const write = writes(declared, places, realPath);
  if (typeof write === "string") return { refused: write };
  const net = declared.net === true || declared.net.includes("*")
    ? true
    : [...new Set(declared.net)];
  const grant: Grant = {
    skillDir: places.skillDir,
    workDir: places.workDir,
    read,
    write,
    net,
    env: [...new Set(declared.env)],
    run: [...new Set(declared.run)],
    readOnly: readOnlyIn(places),
  };
  const bad = unlistable(grant);
  return bad === undefined ? { grant } : { refused: bad };
}
