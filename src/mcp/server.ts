/**
 * The MCP server ([MCP-1]): tools `skills_list`, `skill_view`, `skills_search` (and, with
 * `--allow-writes`, `skill_manage`), every skill as a prompt (its invocation message) and
 * as resources `skill://<name>` and `skill://<name>/<path>`. Each request reads the skills
 * afresh, so edits show without a restart.
 *
 * @module
 */
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  type GetPromptRequest,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  Server,
} from "../deps/mcp.ts";
import { SkillrtError } from "../errors.ts";
import type { ManageAction } from "../manage/actions.ts";
import { SkillManager } from "../manage/manager.ts";
import type { SkillRuntime } from "../runtime.ts";

/** How the server is set up. */
export interface SkillServerOptions {
  /** A fresh runtime for each request. */
  runtime: () => SkillRuntime;
  /** Offer `skill_manage` (subject to write approval). */
  allowWrites: boolean;
  /** The server's version. */
  version: string;
}

const str = (description: string) => ({ type: "string", description });

/** The tools offered, with their JSON Schemas. */
export function toolList(allowWrites: boolean) {
  const tools = [
    {
      name: "skills_list",
      description: "List available skills (Level 0): name, description, category, tags.",
      inputSchema: {
        type: "object",
        properties: { category: str("Only skills of this top-level category") },
      },
    },
    {
      name: "skill_view",
      description:
        "Load one skill in full (Level 1), or one file inside it with file_path (Level 2).",
      inputSchema: {
        type: "object",
        properties: {
          name: str("Skill name, category/name path, or plugin:name"),
          file_path: str("A file inside the skill"),
        },
        required: ["name"],
      },
    },
    {
      name: "skills_search",
      description: "Rank skills by a query over names, tags and descriptions.",
      inputSchema: {
        type: "object",
        properties: { query: str("Words to look for") },
        required: ["query"],
      },
    },
  ];
  if (allowWrites) {
    tools.push({
      name: "skill_manage",
      description:
        "Create, edit, patch or delete a skill, or write or remove one of its files (staged when write approval is on).",
      inputSchema: {
        type: "object",
        properties: {
          action: {
            type: "string",
            enum: ["create", "edit", "patch", "delete", "write-file", "remove-file"],
            description: "What to do",
          },
          name: str("The skill"),
          category: str("create: its category"),
          content: str("create, edit, write-file: the content"),
          old: str("patch: text to replace"),
          new: str("patch: replacement"),
          file_path: str("patch: a support file instead of SKILL.md"),
          replace_all: { type: "boolean", description: "patch: replace every occurrence" },
          absorbed_into: str("delete: the skill that now holds this one's content"),
          path: str("write-file, remove-file: the support file"),
        },
        required: ["action", "name"],
      } as never,
    });
  }
  return tools;
}

function text(value: unknown, isError = false) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(value, null, 2) }],
    ...(isError ? { isError: true } : {}),
  };
}

function errorResult(error: unknown) {
  if (error instanceof SkillrtError) return text(error.toJSON(), true);
  return text({
    success: false,
    error: error instanceof Error ? error.message.split("\n")[0] : String(error),
  }, true);
}

/** Splits `skill://<name>[/<path>]`; the name may be URI-encoded. */
export function parseSkillUri(uri: string): { name: string; path?: string } {
  const m = /^skill:\/\/([^/]+)(?:\/(.+))?$/.exec(uri);
  if (!m) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Not a skill resource: '${uri}'. Use skill://<name> or skill://<name>/<path>.`,
    );
  }
  return {
    name: decodeURIComponent(m[1]),
    ...(m[2] ? { path: m[2].split("/").map(decodeURIComponent).join("/") } : {}),
  };
}

/** Creates the MCP server (not yet connected). */
export function createSkillServer(options: SkillServerOptions): Server {
  const server = new Server(
    { name: "skillrt", version: options.version },
    { capabilities: { tools: {}, prompts: {}, resources: {} } },
  );
  server.setRequestHandler(
    ListToolsRequestSchema,
    () => ({ tools: toolList(options.allowWrites) }),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request: CallToolRequest) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const rt = options.runtime();
    try {
      switch (request.params.name) {
        case "skills_list":
          // From the snapshot: a watched runtime answers from its proven-fresh cache.
          return text(
            rt.list(
              { category: typeof args.category === "string" ? args.category : undefined },
              await rt.snapshot(),
            ),
          );
        case "skills_search":
          return text(rt.search(String(args.query ?? ""), await rt.snapshot()));
        case "skill_view":
          return typeof args.file_path === "string" && args.file_path !== ""
            ? text(rt.viewFile(String(args.name), args.file_path))
            : text(await rt.view(String(args.name)));
        case "skill_manage":
          if (options.allowWrites) {
            return text(await new SkillManager(rt.setup).run(args as unknown as ManageAction));
          }
      }
      return text({ success: false, error: `Unknown tool '${request.params.name}'.` }, true);
    } catch (error) {
      return errorResult(error);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: options.runtime().list({}, await options.runtime().snapshot()).skills.map((s) => ({
      name: s.name,
      description: s.description,
      arguments: [{
        name: "instruction",
        description: "What the user asked alongside the skill",
        required: false,
      }],
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request: GetPromptRequest) => {
    try {
      const result = await options.runtime().invoke(
        request.params.name,
        request.params.arguments?.instruction,
      );
      return {
        description: `Invoke ${result.name}`,
        messages: [{ role: "user", content: { type: "text", text: result.message } }],
      };
    } catch (error) {
      throw new McpError(
        ErrorCode.InvalidParams,
        error instanceof Error ? error.message : String(error),
      );
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: options.runtime().list({}, await options.runtime().snapshot()).skills.map((s) => ({
      uri: `skill://${encodeURIComponent(s.name)}`,
      name: s.name,
      description: s.description,
      mimeType: "text/markdown",
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: "skill://{name}",
        name: "skill",
        description: "A skill's SKILL.md, preprocessed (Level 1)",
        mimeType: "text/markdown",
      },
      {
        uriTemplate: "skill://{name}/{path}",
        name: "skill-file",
        description: "A file inside a skill (Level 2)",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request: ReadResourceRequest) => {
    const { name, path } = parseSkillUri(request.params.uri);
    const rt = options.runtime();
    try {
      if (path === undefined) {
        const view = await rt.view(name);
        return {
          contents: [{ uri: request.params.uri, mimeType: "text/markdown", text: view.content }],
        };
      }
      const { result: file, data: bytes } = rt.readFile(name, path);
      if (file.content === null) {
        return {
          contents: [{
            uri: request.params.uri,
            mimeType: "application/octet-stream",
            blob: btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join("")),
          }],
        };
      }
      return {
        contents: [{
          uri: request.params.uri,
          mimeType: file.file_type === "md" ? "text/markdown" : "text/plain",
          text: file.content,
        }],
      };
    } catch (error) {
      throw new McpError(
        ErrorCode.InvalidParams,
        error instanceof Error ? error.message : String(error),
      );
    }
  });
  return server;
}
