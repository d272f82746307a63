/**
 * Skills as MCP resources ([MCP-1], [IO-3], [IO-4]): `skill://<name>` (Level 1),
 * `skill://<name>#<section>` ([V-8]) and `skill://<name>/<path>` (Level 2), and their
 * templates. `resources/list` (paged) follows the model's list — clients give the model
 * tools to list and read resources — so it leaves out `disable-model-invocation` skills
 * and its descriptions carry `when_to_use`; a `user-invocable: false` skill is listed (it
 * is only off the slash path, the prompts). Reads follow the same list: a
 * `disable-model-invocation` skill's URI is answered as an unknown skill's, whatever the
 * spelling of its name ([IO-3]).
 *
 * @module
 */
import {
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type Server,
} from "../deps/mcp.ts";
import type { SkillRuntime } from "../runtime.ts";
import type { Catalog } from "../scan/catalog.ts";
import { pageAfter } from "./paging.ts";
import { budgetOf, catalogOf, protocolError, type Session } from "./session.ts";
import { RPC, RpcError } from "./rpc_error.ts";

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

/** The resource templates: `skill://{name}` (Level 1), `skill://{name}#{section}` ([V-8]), `skill://{name}/{path}` (Level 2). */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "skill://{name}",
    name: "skill",
    title: "Skill",
    description: "A skill's SKILL.md, preprocessed (Level 1)",
    mimeType: "text/markdown",
  },
  {
    uriTemplate: "skill://{name}#{section}",
    name: "skill-section",
    title: "Skill section",
    description:
      "Only one section of a skill's SKILL.md, by slug (skill_view with brief lists them)",
    mimeType: "text/markdown",
  },
  {
    uriTemplate: "skill://{name}/{path}",
    name: "skill-file",
    title: "Skill file",
    description: "A file inside a skill (Level 2)",
  },
];

/** The names of the skills `resources/list` offers: the model's list. */
export async function resourceSkills(rt: SkillRuntime, catalog: Catalog) {
  const { skills } = await rt.list({ catalog, audience: "model" });
  return skills.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

async function listResources(session: Session, request: ListResourcesRequest) {
  const catalog = await catalogOf(session);
  const resources = (await resourceSkills(session.rt, catalog)).map((s) => ({
    uri: `skill://${encodeURIComponent(s.name)}`,
    name: s.name,
    title: s.name,
    description: s.description,
    mimeType: "text/markdown",
  }));
  const page = pageAfter(resources, (r) => r.name, request.params?.cursor, budgetOf(session.rt));
  return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

async function readResource(session: Session, request: ReadResourceRequest) {
  const { uri } = request.params;
  const { name, path, sections } = parseSkillUri(uri);
  const rt = session.rt;
  try {
    const catalog = await catalogOf(session);
    if (path === undefined) {
      const view = await rt.view(name, { catalog, sections, audience: "model" });
      return { contents: [{ uri, mimeType: "text/markdown", text: view.content }] };
    }
    const { result: file, data: bytes } = await rt.readFile(name, path, {
      catalog,
      audience: "model",
    });
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

/** Serves `resources/list` (paged), the templates, and reads of both. */
export function serveResources(server: Server, session: Session): void {
  server.setRequestHandler(
    ListResourcesRequestSchema,
    (r: ListResourcesRequest) => listResources(session, r),
  );
  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
  );
  server.setRequestHandler(
    ReadResourceRequestSchema,
    (r: ReadResourceRequest) => readResource(session, r),
  );
}
