/**
 * What a skill declares its scripts may do ([RUN-1]): `metadata.skillrt.permissions` in its
 * frontmatter, or, for a skill that ships Codex's `agents/openai.yaml`, that file's
 * `permissions` (`network`, `fs_read`, `fs_write`) read the same way. Pure: a parsed
 * mapping in, the declaration out (or the one-line reason it is malformed). Nothing here
 * decides what is granted: that is `grant.ts`.
 *
 * @module
 */
import { isMapping } from "../mapping.ts";

/** A skill's declared permissions, as written (paths not yet resolved). */
export interface Declared {
  /** Where they were declared: the frontmatter, Codex's file, or nowhere (the defaults). */
  from: "skillrt" | "codex" | "none";
  /** Extra paths to read, relative to the skill folder (`$WORKDIR/…`: the work dir). */
  read: string[];
  /** Paths to write, relative to the work dir; absent: the whole work dir. */
  write?: string[];
  /** Hosts to reach (`host` or `host:port`); `true`: any host. */
  net: string[] | true;
  /** Environment variable names passed from the user's environment. */
  env: string[];
  /** Programs a Deno script may run. */
  run: string[];
}

/** Nothing declared: the defaults of [RUN-1]. */
export const NOTHING_DECLARED: Declared = { from: "none", read: [], net: [], env: [], run: [] };

/** The longest list one kind may hold, and the longest entry. */
const MAX_ENTRIES = 64;
const MAX_ENTRY = 512;

/** A list of strings, or the reason it is not one. */
function stringList(value: unknown, key: string): string[] | string {
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string" || v.length > MAX_ENTRY)) {
    return `'${key}' must be a list of strings`;
  }
  if (list.length > MAX_ENTRIES) return `'${key}' lists more than ${MAX_ENTRIES} entries`;
  return list as string[];
}

/** `net` as declared: a list of hosts, `true` (any), or `false`/absent (none). */
function netOf(value: unknown, key: string): string[] | true | string {
  if (value === true) return true;
  if (value === false) return [];
  return stringList(value, key);
}

/** The declaration out of a `permissions` mapping with the given key names. */
function declaredOf(
  value: unknown,
  from: "skillrt" | "codex",
  keys: { read: string; write: string; net: string; env?: string; run?: string },
): Declared | { problem: string } {
  if (!isMapping(value)) return { problem: "permissions must be a mapping" };
  const read = stringList(value[keys.read], keys.read);
  const write = value[keys.write] === undefined
    ? undefined
    : stringList(value[keys.write], keys.write);
  const net = netOf(value[keys.net], keys.net);
  const env = keys.env ? stringList(value[keys.env], keys.env) : [];
  const run = keys.run ? stringList(value[keys.run], keys.run) : [];
  for (const part of [read, write, net, env, run]) {
    if (typeof part === "string") return { problem: part };
  }
  return {
    from,
    read: read as string[],
    ...(write === undefined ? {} : { write: write as string[] }),
    net: net as string[] | true,
    env: env as string[],
    run: run as string[],
  };
}

/**
 * The permissions a skill declares: `metadata.skillrt.permissions` of its frontmatter
 * first; else the `permissions` of its `agents/openai.yaml` (parsed, when it has one);
 * else nothing declared.
 */
export function declaredPermissions(
  frontmatter: Record<string, unknown>,
  codex?: unknown,
): Declared | { problem: string } {
  const metadata = isMapping(frontmatter.metadata) ? frontmatter.metadata : {};
  const skillrt = isMapping(metadata.skillrt) ? metadata.skillrt : {};
  if (skillrt.permissions !== undefined) {
    return declaredOf(skillrt.permissions, "skillrt", {
      read: "read",
      write: "write",
      net: "net",
      env: "env",
      run: "run",
    });
  }
  if (isMapping(codex) && codex.permissions !== undefined) {
    return declaredOf(codex.permissions, "codex", {
      read: "fs_read",
      write: "fs_write",
      net: "network",
    });
  }
  return NOTHING_DECLARED;
}
