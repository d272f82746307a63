/**
 * The MCP server ([MCP-1], [PERF-5], [IO-4]): tools `skills_list`, `skill_view`,
 * `skills_search` (and, with `--allow-writes`, `skill_manage`), each with its title,
 * annotations and output schema, answering JSON text and the same document as
 * `structuredContent`; every skill a person may invoke as a prompt (`prompts.ts`) and the
 * model's skills as resources (`resources.ts`), both listed in pages; completion of skill
 * names; logging of what the home holds that is wrong (`logging.ts`).
 *
 * One runtime serves every request from one watched catalog, so a warm call costs its
 * answer, not the home, and an edit is seen by the next call; `list_changed` goes out for
 * prompts and resources when skills change — except from a stateless server ([T-5]: one per
 * request of `mcp --http --stateless`), which sends no notification and says so. Calls are checked against the tool schemas;
 * unknown tools, prompts and resources get the protocol's errors, with messages that carry
 * no prefix of their own.
 *
 * @module
 */
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CompleteRequest,
  CompleteRequestSchema,
  ListToolsRequestSchema,
  Server,
  SetLevelAnyRequestSchema,
} from "../deps/mcp.ts";
import { SkillrtError, ValidationError } from "../errors.ts";
import { errorOutcome, failureDocument } from "../error_boundary.ts";
import { toJsonDocument } from "../json_document.ts";
import { NameTakenError } from "../manage/name_taken.ts";
import { SkillManager } from "../manage/manager.ts";
import type { Catalog } from "../scan/catalog.ts";
import type { HomeLayout } from "../home/layout.ts";
import { resolveSkill, shownOrNotFound } from "../resolve/resolve.ts";
import { complete, type CompletionRef } from "./completions.ts";
import { budgetedList, page } from "./list_budget.ts";
import { LOG_LEVELS, type LogLevel, type SessionLog } from "./logging.ts";
import { servePrompts, slashSkills } from "./prompts.ts";
import { RESOURCE_TEMPLATES, resourceSkills, serveResources } from "./resources.ts";
import { budgetOf, catalogOf, MCP_RULE, openSession, type Session } from "./session.ts";
import { checkArguments, manageAction, toolList } from "./tools.ts";
import { callRunTool } from "./run_tool.ts";
import { RPC, RpcError } from "./rpc_error.ts";

export { toolList } from "./tools.ts";
export { parseSkillUri } from "./resources.ts";
export type { SkillServerOptions } from "./session.ts";
import type { SkillServerOptions } from "./session.ts";

/** A tool's answer: the document as JSON text (for older clients) and as `structuredContent`. */
function result(value: unknown) {
  const doc = toJsonDocument(value) as Record<string, unknown>;
  return {
    content: [{ type: "text" as const, text: JSON.stringify(doc) }],
    structuredContent: doc,
  };
}

/**
 * A failed tool call: a result with `isError`, the error document of the one error boundary
 * inside ([MCP-1], `src/error_boundary.ts`).
 */
function toolError(error: unknown) {
  if (error instanceof RpcError) throw error;
  const doc = failureDocument(errorOutcome(error, MCP_RULE));
  return {
    content: [{ type: "text" as const, text: JSON.stringify(toJsonDocument(doc)) }],
    isError: true,
  };
}

async function callTool(session: Session, request: CallToolRequest) {
  const { rt, options } = session;
  const tools = toolList(options.allowWrites, options.allowRun);
  const args = checkArguments(tools, request.params.name, request.params.arguments);
  const paging = {
    limit: args.limit as number | undefined,
    cursor: args.cursor as string | undefined,
  };
  try {
    const catalog = await catalogOf(session);
    switch (request.params.name) {
      case "skills_list": {
        // The model's list ([IO-3]): no disable-model-invocation skill, when_to_use counted.
        const category = args.category as string | undefined;
        const list = await rt.list({ category, catalog, audience: "model" });
        if (list.count === 0 && !rt.setup.homeExists) {
          list.hint =
            `The home '${rt.setup.home}' does not exist: check HERMES_HOME or --home in the MCP client's configuration.`;
        }
        const categories = async () => (await rt.categories({ catalog })).categories;
        return result(await budgetedList(list, categories, { category, ...paging }, budgetOf(rt)));
      }
      case "skills_search":
        return result(
          page(await rt.search(String(args.query), { catalog, audience: "model" }), paging),
        );
      case "skill_view":
        return await skillView(session, args, catalog);
      case "skill_run":
        return result(await callRunTool(rt, args, options.runWorkDir));
      default:
        return result(await manage(args, catalog, rt.setup));
    }
  } catch (error) {
    return toolError(error);
  }
}

/**
 * `skill_manage`: an action on an existing skill names one the model may see ([IO-3]): a
 * `disable-model-invocation` skill is not found (a patch's preview would show its text).
 * A skill folder it writes is marked as the agent's before it is written, or when the user
 * approves the staged write ([RUN-3], `agent_written.ts`): its scripts run only once the
 * user approved them at a terminal.
 */
async function manage(args: Record<string, unknown>, catalog: Catalog, setup: HomeLayout) {
  const action = manageAction(args);
  if (SKILL_ACTIONS.has(action.action)) {
    const name = (action as { name: string }).name;
    shownOrNotFound(resolveSkill(name, catalog, "model"), name, catalog, "model");
  }
  let result;
  try {
    result = await new SkillManager(setup).run(action, undefined, { byAgent: true });
  } catch (error) {
    if (error instanceof NameTakenError) unnamedIfHidden(error, catalog);
    throw error;
  }
  return result;
}

/**
 * A name taken by a skill the model may not see ([IO-3]) — a create under it, or content
 * (create, edit, patch) declaring it — is refused without saying that it exists: "already
 * exists" or "would be ambiguous" would name it (its file is never written either way).
 * The answer any name a client cannot use gets; decided by the one audience check.
 */
function unnamedIfHidden(error: NameTakenError, catalog: Catalog): void {
  const { taken } = error;
  try {
    shownOrNotFound({ record: taken, flat: false }, taken.name, catalog, "model");
  } catch (hidden) {
    if (!(hidden instanceof SkillrtError) || hidden.code !== "not_found") throw hidden;
    throw new ValidationError("The name cannot be used for this skill; choose another name.");
  }
}

/** The `skill_manage` actions that change an existing skill. */
const SKILL_ACTIONS = new Set(["edit", "patch", "delete", "write-file", "remove-file"]);

/** `skill_view`: a skill, a part of it ([V-8]) or one of its files. */
async function skillView(session: Session, args: Record<string, unknown>, catalog: Catalog) {
  const name = String(args.name);
  const brief = args.brief === true;
  const section = args.section as string | string[] | undefined;
  const sections = typeof section === "string" ? [section] : section ?? [];
  if (typeof args.file_path === "string" && args.file_path !== "") {
    if (brief || sections.length) {
      throw new RpcError(
        RPC.invalidParams,
        "Invalid arguments for 'skill_view': 'brief' and 'section' read SKILL.md; they do not go with 'file_path'.",
        { field: brief ? "brief" : "section" },
      );
    }
    return result(await session.rt.viewFile(name, args.file_path, { catalog, audience: "model" }));
  }
  return result(await session.rt.view(name, { catalog, brief, sections, audience: "model" }));
}

/**
 * The skill names a completion offers, for a prompt on the slash path or a resource
 * template: the model's ([IO-3]) — a prompt's argument is text the model reads, so a
 * `disable-model-invocation` skill is not offered there either.
 */
async function namesFor(session: Session, ref: CompletionRef): Promise<string[] | undefined> {
  const catalog = await catalogOf(session);
  if (ref.type === "ref/prompt") {
    const prompts = (await slashSkills(session, catalog)).map((s) => s.name);
    if (!prompts.includes(ref.name)) return undefined;
  } else if (!RESOURCE_TEMPLATES.some((t) => t.uriTemplate === ref.uri)) return undefined;
  return (await resourceSkills(session.rt, catalog)).map((s) => s.name);
}

/**
 * What a stateless server ([T-5]) says in its initialize result: it pushes nothing, so a
 * client lists again to see what changed.
 */
export const STATELESS_INSTRUCTIONS =
  "skillrt serves this endpoint statelessly: every request is answered on its own, with no " +
  "session, and the server sends no notifications — list_changed is not sent for prompts or " +
  "resources, and no log messages. Each answer reads the skills on disk as they are now: list " +
  "again to see what changed.";

/** The capabilities offered: a stateless server offers no logging and no `list_changed`. */
function capabilitiesOf(stateless: boolean) {
  if (stateless) return { tools: {}, prompts: {}, resources: {}, completions: {} };
  return {
    tools: {},
    prompts: { listChanged: true },
    resources: { listChanged: true },
    completions: {},
    logging: {},
  };
}

/**
 * Creates the MCP server (not yet connected); it tells clients when the skills change,
 * unless it is one request's stateless server.
 */
export function createSkillServer(options: SkillServerOptions): Server {
  const stateless = options.stateless === true;
  const server = new Server(
    { name: "skillrt", version: options.version },
    {
      capabilities: capabilitiesOf(stateless),
      ...(stateless ? { instructions: STATELESS_INSTRUCTIONS } : {}),
    },
  );
  const session = openSession(server, options);
  serveTools(server, session);
  servePrompts(server, session);
  serveResources(server, session);
  server.setRequestHandler(
    CompleteRequestSchema,
    async (r: CompleteRequest) => ({
      completion: await complete(r.params.ref, r.params.argument, (ref) => namesFor(session, ref)),
    }),
  );
  if (session.log) serveNotifications(server, session.rt, session.log);
  return server;
}

/** Logging's level, and `list_changed` sent when the skills change, until the server closes. */
function serveNotifications(server: Server, rt: SkillServerOptions["runtime"], log: SessionLog) {
  server.setRequestHandler(SetLevelAnyRequestSchema, (r: { params?: { level?: unknown } }) => {
    const level = r.params?.level;
    if (!LOG_LEVELS.includes(level as LogLevel)) {
      throw new RpcError(
        RPC.invalidParams,
        `Invalid log level '${String(level)}': use one of ${LOG_LEVELS.join(", ")}.`,
        { field: "level" },
      );
    }
    log.setLevel(level as LogLevel);
    return {};
  });
  // Nothing is sent before the client has finished initializing (the watchers opening
  // right after start tell listeners once, and a client must not get that first).
  let initialized = false;
  const onInitialized = server.oninitialized;
  server.oninitialized = () => {
    initialized = true;
    onInitialized?.();
  };
  const stop = rt.onChange(() => {
    if (!initialized) return;
    void server.sendResourceListChanged().catch(() => {});
    void server.sendPromptListChanged().catch(() => {});
  });
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    closed?.();
  };
}

/** The tools: their list, and calls checked against their schemas. */
function serveTools(server: Server, session: Session): void {
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: toolList(session.options.allowWrites, session.options.allowRun) }),
  );
  server.setRequestHandler(
    CallToolRequestSchema,
    (r: CallToolRequest) => callTool(session, r),
  );
}
