/**
 * The MCP server ([MCP-1], [PERF-5]): tools `skills_list`, `skill_view`, `skills_search`
 * (and, with `--allow-writes`, `skill_manage`), every skill as a prompt (its invocation
 * message) and as resources `skill://<name>`, `skill://<name>#<section>` ([V-8]) and
 * `skill://<name>/<path>`.
 *
 * One runtime serves every request from one watched catalog, so a warm call costs its
 * answer, not the home, and an edit is seen by the next call; `list_changed` goes out for
 * prompts and resources when skills change. Calls are checked against the tool schemas;
 * unknown tools, prompts and resources get the protocol's errors, with messages that carry
 * no prefix of their own.
 *
 * @module
 */
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type GetPromptRequest,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  Server,
} from "../deps/mcp.ts";
import { explainPermissionError, SkillrtError } from "../errors.ts";
import { toJsonDocument } from "../json_document.ts";
import { SkillManager } from "../manage/manager.ts";
import type { SkillRuntime } from "../runtime.ts";
import type { Catalog } from "../scan/catalog.ts";
import { budgetedList, type ListBudget, page } from "./list_budget.ts";
import { checkArguments, manageAction, RPC, RpcError, toolList } from "./tools.ts";

export { toolList } from "./tools.ts";

/** How the server is set up. */
export interface SkillServerOptions {
  /** The runtime every request reads (made with `watch: true` for a long-lived server). */
  runtime: SkillRuntime;
  /** Offer `skill_manage` (subject to write approval). */
  allowWrites: boolean;
  /** The server's version. */
  version: string;
}

function text(value: unknown, isError = false) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(toJsonDocument(value)) }],
    ...(isError ? { isError: true } : {}),
  };
}

/** A failed tool call: a result with `isError`, the error document inside ([MCP-1]). */
function toolError(error: unknown) {
  if (error instanceof RpcError) throw error;
  const explained = explainPermissionError(
    error,
    "the sandbox plan of 'mcp'; see 'skillrt sandbox mcp'",
  );
  if (explained instanceof SkillrtError) return text(explained.toJSON(), true);
  return text({
    success: false,
    error: error instanceof Error ? error.message.split("\n")[0] : String(error),
  }, true);
}

/** An error of the runtime as a protocol error: `notFound` when nothing is there, else invalid params. */
function protocolError(error: unknown, notFound: number): RpcError {
  if (error instanceof RpcError) return error;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  const missing = /not found/i.test(message);
  const data = error instanceof SkillrtError ? toJsonDocument(error.toJSON()) : undefined;
  return new RpcError(missing ? notFound : RPC.invalidParams, message, data);
}

/**
 * Splits `skill://<name>[/<path>]` or `skill://<name>#<slug>[,<slug>…]` ([V-8]); the parts
 * may be URI-encoded.
 * @throws {RpcError} `-32002` for a URI that is not a skill resource.
 */
export function parseSkillUri(uri: string): { name: string; path?: string; sections?: string[] } {
  const m = /^skill:\/\/([^/#]+)(?:\/([^#]+)|#([^#]+))?$/.exec(uri);
  if (!m) {
    throw new RpcError(
      RPC.resourceNotFound,
      `Resource not found: '${uri}'. Use skill://<name>, skill://<name>#<section> or skill://<name>/<path>.`,
      { uri },
    );
  }
  try {
    return {
      name: decodeURIComponent(m[1]),
      ...(m[2] ? { path: m[2].split("/").map(decodeURIComponent).join("/") } : {}),
      ...(m[3] ? { sections: m[3].split(",").map(decodeURIComponent) } : {}),
    };
  } catch {
    throw new RpcError(RPC.resourceNotFound, `Resource not found: '${uri}' is not a valid URI.`, {
      uri,
    });
  }
}

function budgetOf(rt: SkillRuntime): ListBudget {
  return { skills: rt.setup.config.mcp_list_max_skills, chars: rt.setup.config.mcp_list_max_chars };
}

async function callTool(rt: SkillRuntime, options: SkillServerOptions, request: CallToolRequest) {
  const tools = toolList(options.allowWrites);
  const args = checkArguments(tools, request.params.name, request.params.arguments);
  const paging = {
    limit: args.limit as number | undefined,
    cursor: args.cursor as string | undefined,
  };
  try {
    const catalog = await rt.currentCatalog();
    switch (request.params.name) {
      case "skills_list": {
        const category = args.category as string | undefined;
        const list = await rt.list({ category, catalog });
        const categories = async () => (await rt.categories({ catalog })).categories;
        return text(await budgetedList(list, categories, { category, ...paging }, budgetOf(rt)));
      }
      case "skills_search":
        return text(page(await rt.search(String(args.query), { catalog }), paging));
      case "skill_view":
        return await skillView(rt, args, catalog);
      default:
        return text(await new SkillManager(rt.setup).run(manageAction(args)));
    }
  } catch (error) {
    return toolError(error);
  }
}

/** `skill_view`: a skill, a part of it ([V-8]) or one of its files. */
async function skillView(rt: SkillRuntime, args: Record<string, unknown>, catalog: Catalog) {
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
    return text(await rt.viewFile(name, args.file_path, { catalog }));
  }
  return text(await rt.view(name, { catalog, brief, sections }));
}

async function readResource(rt: SkillRuntime, request: ReadResourceRequest) {
  const { uri } = request.params;
  const { name, path, sections } = parseSkillUri(uri);
  try {
    const catalog = await rt.currentCatalog();
    if (path === undefined) {
      const view = await rt.view(name, { catalog, sections });
      return { contents: [{ uri, mimeType: "text/markdown", text: view.content }] };
    }
    const { result: file, data: bytes } = await rt.readFile(name, path, { catalog });
    if (file.content === null) {
      const blob = btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
      return { contents: [{ uri, mimeType: "application/octet-stream", blob }] };
    }
    const mimeType = file.fileType === "md" ? "text/markdown" : "text/plain";
    return { contents: [{ uri, mimeType, text: file.content }] };
  } catch (error) {
    throw protocolError(error, RPC.resourceNotFound);
  }
}

async function getPrompt(rt: SkillRuntime, request: GetPromptRequest) {
  try {
    const result = await rt.invoke(
      request.params.name,
      request.params.arguments?.instruction,
      { catalog: await rt.currentCatalog() },
    );
    return {
      description: `Invoke ${result.name}`,
      messages: [{
        role: "user" as const,
        content: { type: "text" as const, text: result.message },
      }],
    };
  } catch (error) {
    throw protocolError(error, RPC.invalidParams);
  }
}

async function visible(rt: SkillRuntime) {
  return (await rt.list({ catalog: await rt.currentCatalog() })).skills;
}

/** Creates the MCP server (not yet connected); it tells clients when the skills change. */
export function createSkillServer(options: SkillServerOptions): Server {
  const rt = options.runtime;
  const server = new Server(
    { name: "skillrt", version: options.version },
    {
      capabilities: {
        tools: {},
        prompts: { listChanged: true },
        resources: { listChanged: true },
      },
    },
  );
  serveTools(server, options);
  servePrompts(server, rt);
  serveResources(server, rt);
  const stop = rt.onChange(() => {
    void server.sendResourceListChanged().catch(() => {});
    void server.sendPromptListChanged().catch(() => {});
  });
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    closed?.();
  };
  return server;
}

/** The tools: their list, and calls checked against their schemas. */
function serveTools(server: Server, options: SkillServerOptions): void {
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: toolList(options.allowWrites) }),
  );
  server.setRequestHandler(
    CallToolRequestSchema,
    (r: CallToolRequest) => callTool(options.runtime, options, r),
  );
}

/** Every visible skill as a prompt: its invocation message. */
function servePrompts(server: Server, rt: SkillRuntime): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await visible(rt)).map((s) => ({
      name: s.name,
      description: s.description,
      arguments: [{
        name: "instruction",
        description: "What the user asked alongside the skill",
        required: false,
      }],
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (r: GetPromptRequest) => getPrompt(rt, r));
}

/** The resource templates: `skill://{name}` (Level 1), `skill://{name}#{section}` ([V-8]), `skill://{name}/{path}` (Level 2). */
const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "skill://{name}",
    name: "skill",
    description: "A skill's SKILL.md, preprocessed (Level 1)",
    mimeType: "text/markdown",
  },
  {
    uriTemplate: "skill://{name}#{section}",
    name: "skill-section",
    description:
      "Only one section of a skill's SKILL.md, by slug (skill_view with brief lists them)",
    mimeType: "text/markdown",
  },
  {
    uriTemplate: "skill://{name}/{path}",
    name: "skill-file",
    description: "A file inside a skill (Level 2)",
  },
];

/** Every visible skill as a resource, the templates, and reads of both. */
function serveResources(server: Server, rt: SkillRuntime): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await visible(rt)).map((s) => ({
      uri: `skill://${encodeURIComponent(s.name)}`,
      name: s.name,
      description: s.description,
      mimeType: "text/markdown",
    })),
  }));
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    (r: ReadResourceRequest) => readResource(rt, r),
  );
}
