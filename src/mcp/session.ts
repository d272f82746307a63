/**
 * What the request handlers of one MCP server (one session) share: the runtime, the
 * server's options, its log ([IO-4]) and the list budget; the current catalog, with what
 * it holds worth telling the client logged first; and the error conversions.
 *
 * @module
 */
import type { Server } from "../deps/mcp.ts";
import { errorOutcome, failureDocument } from "../error_boundary.ts";
import { toJsonDocument } from "../json_document.ts";
import type { SkillRuntime } from "../runtime.ts";
import type { Catalog } from "../scan/catalog.ts";
import type { ListBudget } from "./list_budget.ts";
import { SessionLog } from "./logging.ts";
import { RPC, RpcError } from "./rpc_error.ts";

/** How the server is set up. */
export interface SkillServerOptions {
  /** The runtime every request reads (made with `watch: true` for a long-lived server). */
  runtime: SkillRuntime;
  /** Offer `skill_manage` (subject to write approval). */
  allowWrites: boolean;
  /** Offer `skill_run` ([RUN-3]): approved scripts only. */
  allowRun?: boolean;
  /** `skill_run`'s work dir (relative to the working directory); the working directory when absent. */
  runWorkDir?: string;
  /** The server's version. */
  version: string;
  /**
   * One request's server of `mcp --http --stateless` ([T-5]): no notifications at all
   * (no `list_changed`, no log messages), and the initialize result's `instructions` say so.
   */
  stateless?: boolean;
}

/** One session's shared state. */
export interface Session {
  /** The runtime. */
  rt: SkillRuntime;
  /** The server's options. */
  options: SkillServerOptions;
  /** The SDK server, for notifications. */
  server: Server;
  /** The session's logging level and what it was sent; none for a stateless server. */
  log?: SessionLog;
}

/** Opens the shared state of one server. */
export function openSession(server: Server, options: SkillServerOptions): Session {
  const log = options.stateless === true ? undefined : new SessionLog();
  return { rt: options.runtime, options, server, log };
}

/** The list budget of the home's config ([PERF-5], [IO-4]). */
export function budgetOf(rt: SkillRuntime): ListBudget {
  return { skills: rt.setup.config.mcp_list_max_skills, chars: rt.setup.config.mcp_list_max_chars };
}

/** The current catalog; the diagnostics it holds that the client was not told yet are logged first. */
export async function catalogOf(session: Session): Promise<Catalog> {
  const catalog = await session.rt.currentCatalog();
  if (!session.log) return catalog;
  try {
    // The status as it is: a root found unwatchable later changes the index, and is told then.
    const due = session.log.due(catalog.index(), session.rt.watchStatusNow());
    for (const params of due) {
      await session.server.notification({ method: "notifications/message", params });
    }
  } catch {
    // A client gone, or one that cannot take notifications now: the answer still goes.
  }
  return catalog;
}

/** The sandbox rule a permission error in the MCP server is explained by ([X-2]). */
export const MCP_RULE = "the sandbox plan of 'mcp'; see 'skillrt sandbox mcp'";

/**
 * An error of the runtime as a protocol error, through the one error boundary
 * (`src/error_boundary.ts`): `notFound` when nothing is there (an error of the `not_found`
 * family, decided by its code, never by its words), an internal error for a failure of
 * skillrt itself, else invalid params.
 */
export function protocolError(error: unknown, notFound: number): RpcError {
  if (error instanceof RpcError) return error;
  const outcome = errorOutcome(error, MCP_RULE);
  const rpc = outcome.code === "not_found"
    ? notFound
    : outcome.internal
    ? RPC.internalError
    : RPC.invalidParams;
  return new RpcError(rpc, outcome.message, toJsonDocument(failureDocument(outcome)));
}
