/**
 * MCP logging ([IO-4]): `logging/setLevel` sets the least level a client is sent, and
 * what the server notices about the home goes out as `notifications/message` — a skill's
 * diagnostics (a malformed frontmatter, a name cut to its limit), the index's (shadowing,
 * a root that could not be read) and a root whose watcher fell back to modification
 * times. Each is sent once per session, when a request first reads a catalog holding it;
 * at most {@linkcode MAX_MESSAGES} at a time, then one line saying how many more there
 * are. Until the client sets a level, warnings and worse are sent.
 *
 * @module
 */
import type { Diagnostic } from "../diagnostics.ts";
import type { SkillIndex } from "../scan/skill_index.ts";
import type { WatchStatus } from "../scan/watch_cache.ts";

/** The protocol's levels, least severe first (RFC 5424). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One of {@linkcode LOG_LEVELS}. */
export type LogLevel = typeof LOG_LEVELS[number];

/** The params of one `notifications/message`. */
export interface LogMessage {
  /** Its level. */
  level: LogLevel;
  /** Who says it: `skillrt.scan` or `skillrt.watch`. */
  logger: string;
  /** What is said: a line for people, and the diagnostic's fields. */
  data: { message: string; code?: string; path?: string; line?: number };
}

/** The most messages sent for one catalog; the rest are counted in one line. */
export const MAX_MESSAGES = 50;

const LEVEL_OF: Record<Diagnostic["severity"], LogLevel> = {
  error: "error",
  warning: "warning",
  info: "info",
};

function fromDiagnostic(d: Diagnostic): LogMessage {
  const where = d.path === undefined
    ? ""
    : `${d.path}${d.line === undefined ? "" : `:${d.line}`}: `;
  return {
    level: LEVEL_OF[d.severity],
    logger: "skillrt.scan",
    data: { message: `${where}${d.message}`, code: d.code, path: d.path, line: d.line },
  };
}

function fromWatch(s: WatchStatus): LogMessage {
  return {
    level: "warning",
    logger: "skillrt.watch",
    data: {
      message:
        `Root ${s.root} is not watched (${s.reason}); its changes are found by modification times on each call.`,
      code: "watch.fallback",
      path: s.root,
    },
  };
}

/** The messages of one index and the roots' watch status. */
export function homeMessages(index: SkillIndex, watch: readonly WatchStatus[]): LogMessage[] {
  return [
    ...index.diagnostics.map(fromDiagnostic),
    ...index.records.flatMap((r) => r.diagnostics.map(fromDiagnostic)),
    ...watch.filter((s) => s.state === "fallback").map(fromWatch),
  ];
}

/** One session's logging: its level and what it was already sent. */
export class SessionLog {
  #level: LogLevel = "warning";
  #sent = new Set<string>();
  #seen?: { index: SkillIndex; level: LogLevel };

  /** Sets the least level sent (`logging/setLevel`). */
  setLevel(level: LogLevel): void {
    this.#level = level;
  }

  /** True when a message of this level is sent. */
  sends(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.#level);
  }

  /**
   * The messages of a catalog's index not sent before, at the level set; nothing when the
   * same index was looked at, at the same level, already.
   */
  due(index: SkillIndex, watch: readonly WatchStatus[]): LogMessage[] {
    if (this.#seen?.index === index && this.#seen.level === this.#level) return [];
    this.#seen = { index, level: this.#level };
    const fresh = homeMessages(index, watch).filter((m) => {
      const key = `${m.logger}\0${m.data.code}\0${m.data.message}`;
      if (!this.sends(m.level) || this.#sent.has(key)) return false;
      this.#sent.add(key);
      return true;
    });
    if (fresh.length <= MAX_MESSAGES) return fresh;
    const more: LogMessage = {
      level: "warning",
      logger: "skillrt.scan",
      data: {
        message: `${
          fresh.length - MAX_MESSAGES
        } more diagnostics; run 'skillrt validate' to see them all.`,
        code: "log.more",
      },
    };
    return [...fresh.slice(0, MAX_MESSAGES), more];
  }
}
