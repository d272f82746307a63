/**
 * The MCP tools of [MCP-1] as data: each one's declaration — name, `title`, description,
 * `annotations` and JSON Schemas in and out ([IO-4]); a new tool fills in every field
 * (the type requires them, and `tests/mcp/mcp_interop_test.ts` holds every listed tool to
 * them) —, the check of a call's arguments against them (a bad call is a JSON-RPC
 * `-32602` naming the field), and the names Hermes uses for `skill_manage`
 * (`write_file`, `old_string`, …) mapped to skillrt's.
 *
 * @module
 */
import type { ManageAction } from "../manage/actions.ts";
import { BUNDLE_ACTIONS, SKILL_ACTIONS } from "../manage/change.ts";
import { type JsonSchema, OUTPUT_SCHEMAS } from "./output_schemas.ts";

export { RPC, RpcError } from "./rpc_error.ts";
import { RPC, RpcError } from "./rpc_error.ts";

/** One property of a tool's input schema. */
interface Property {
  /** One JSON type; `["string", "array"]` is a string or an array of strings. */
  type: "string" | "boolean" | "integer" | "array" | ["string", "array"];
  description: string;
  enum?: string[];
  minimum?: number;
  /** For arrays: the type of every item (strings only). */
  items?: { type: "string" };
  /** For arrays: at least this many items. */
  minItems?: number;
}

/**
 * What a client may assume of a tool ([IO-4]; MCP 2025-11-25 `ToolAnnotations`), every
 * hint said outright so no client falls back to the protocol's cautious defaults.
 */
export interface ToolAnnotations {
  /** True when the tool changes nothing a user would call a change. */
  readOnlyHint: boolean;
  /** True when a change may remove or overwrite what was there. */
  destructiveHint: boolean;
  /** True when calling it twice with the same arguments does no more than once. */
  idempotentHint: boolean;
  /** True when it reaches beyond this machine (false: nothing leaves it). */
  openWorldHint: boolean;
}

/** A tool as `tools/list` shows it. */
export interface ToolSpec {
  /** The tool's name. */
  name: string;
  /** Its name for people ([IO-4]). */
  title: string;
  /** What it does. */
  description: string;
  /** Its arguments. */
  inputSchema: { type: "object"; properties: Record<string, Property>; required?: string[] };
  /** The JSON Schema of the `structuredContent` it returns ([IO-4]). */
  outputSchema: JsonSchema;
  /** Its hints ([IO-4]). */
  annotations: ToolAnnotations;
}

/** The hints of a tool that reads the home and changes nothing ([IO-4]). */
const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const str = (description: string): Property => ({ type: "string", description });

/**
 * The `skill_manage` actions: skillrt's names, Hermes's (`write_file`, `remove_file`), and
 * the bundle actions of [B-3] (`bundle_create`, `bundle_edit`, `bundle_delete`).
 */
export const MANAGE_ACTIONS: readonly string[] = [
  ...SKILL_ACTIONS,
  ...SKILL_ACTIONS.filter((c) => c.includes("-")).map((c) => c.replace("-", "_")),
  ...BUNDLE_ACTIONS,
  ...BUNDLE_ACTIONS.map((c) => c.replace("-", "_")),
];

const MANAGE_PROPERTIES: Record<string, Property> = {
  action: { type: "string", enum: [...MANAGE_ACTIONS], description: "What to do" },
  name: str("The skill (or, for bundle actions, the bundle)"),
  category: str("create: its category"),
  content: str("create, edit, write-file: the content"),
  old: str("patch: text to replace (Hermes: old_string)"),
  new: str("patch: replacement (Hermes: new_string)"),
  old_string: str("patch: text to replace"),
  new_string: str("patch: replacement"),
  file_path: str("patch: a support file instead of SKILL.md; write-file, remove-file: the file"),
  file_content: str("write-file: the content (Hermes's name)"),
  replace_all: { type: "boolean", description: "patch: replace every occurrence" },
  absorbed_into: str("delete: the skill that now holds this one's content"),
  path: str("write-file, remove-file: the support file"),
  encoding: {
    type: "string",
    enum: ["utf8", "base64"],
    description: "write-file: how content is encoded (default utf8)",
  },
  skills: {
    type: "array",
    items: { type: "string" },
    minItems: 1,
    description: "bundle_create, bundle_edit: the member skills, in order",
  },
  description: str("bundle_create, bundle_edit: what the bundle is for"),
  instruction: str("bundle_create, bundle_edit: an instruction for the agent"),
};

/**
 * `skill_run` ([RUN-3]), offered only by `mcp --allow-run` (run by `run_tool.ts`): the user's
 * own local skills' scripts and scripts the user approved at the CLI, never approved by a client.
 */
export const RUN_TOOL: ToolSpec = {
  name: "skill_run",
  title: "Run a skill's script",
  description:
    "Run one script of a skill (e.g. scripts/fill.py) in a sandbox with exactly the permissions the skill declares, in the server's working directory. Only the user's own local skills' scripts and scripts the user approved at the CLI run (a skill created or changed through skill_manage waits for the user's approval at a terminal); returns its exit code, stdout and stderr.",
  outputSchema: OUTPUT_SCHEMAS.skill_run,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    // A script reaches the network only when its skill declares it.
    openWorldHint: true,
  },
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "Skill name, category/name path, or plugin:name" },
      path: { type: "string", description: "The script inside the skill, e.g. scripts/fill.py" },
      args: {
        type: "array",
        items: { type: "string" },
        description: "Its arguments, passed as they are",
      },
      timeout: {
        type: "integer",
        minimum: 1,
        description: "Seconds before it and everything it started are killed (default 120)",
      },
    },
    required: ["name", "path"],
  },
};

/** The tools offered; `skill_manage` only with writes allowed, `skill_run` only with runs allowed. */
export function toolList(allowWrites: boolean, allowRun = false): ToolSpec[] {
  const paging: Record<string, Property> = {
    limit: { type: "integer", minimum: 1, description: "At most this many skills (paging)" },
    cursor: str("Where the previous page ended (its next_cursor)"),
  };
  const tools: ToolSpec[] = [
    {
      name: "skills_list",
      title: "List skills",
      annotations: READS,
      outputSchema: OUTPUT_SCHEMAS.skills_list,
      description:
        "List available skills (Level 0): name, description, category, tags. On a large home, without a category it returns the categories with their counts; ask for one category, or search.",
      inputSchema: {
        type: "object",
        properties: { category: str("Only skills of this top-level category"), ...paging },
      },
    },
    {
      name: "skill_view",
      title: "View a skill",
      annotations: READS,
      outputSchema: OUTPUT_SCHEMAS.skill_view,
      description:
        "Load one skill in full (Level 1), or one file inside it with file_path (Level 2). For a long skill ask for the brief first, then only the sections you need.",
      inputSchema: {
        type: "object",
        properties: {
          name: str("Skill name, category/name path, or plugin:name"),
          file_path: str("A file inside the skill"),
          brief: {
            type: "boolean",
            description: "Only the outline (headings with slugs and sizes) and the first paragraph",
          },
          section: {
            type: ["string", "array"],
            items: { type: "string" },
            description: "Only this section, or these sections, by slug (as the brief lists them)",
          },
        },
        required: ["name"],
      },
    },
    {
      name: "skills_search",
      title: "Search skills",
      annotations: READS,
      outputSchema: OUTPUT_SCHEMAS.skills_search,
      description: "Rank skills by a query over names, tags and descriptions.",
      inputSchema: {
        type: "object",
        properties: { query: str("Words to look for"), ...paging },
        required: ["query"],
      },
    },
  ];
  if (allowWrites) {
    tools.push({
      name: "skill_manage",
      title: "Manage skills",
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      outputSchema: OUTPUT_SCHEMAS.skill_manage,
      description:
        "Create, edit, patch or delete a skill, or write or remove one of its files; create, edit or delete a skill bundle (staged when write approval is on).",
      inputSchema: { type: "object", properties: MANAGE_PROPERTIES, required: ["action", "name"] },
    });
  }
  if (allowRun) tools.push(RUN_TOOL);
  return tools;
}

function typeOk(value: unknown, p: Property): boolean {
  if (p.type === "array") {
    return Array.isArray(value) && value.length >= (p.minItems ?? 0) &&
      value.every((v) => typeof v === "string");
  }
  if (Array.isArray(p.type)) {
    return typeof value === "string" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string"));
  }
  if (p.type === "integer") {
    return Number.isInteger(value) && (p.minimum === undefined || (value as number) >= p.minimum);
  }
  return typeof value === p.type && (p.enum === undefined || p.enum.includes(value as string));
}

function expected(p: Property): string {
  if (p.enum) return `one of ${p.enum.join(", ")}`;
  if (Array.isArray(p.type)) return "a string or an array of strings";
  if (p.type === "integer") return `an integer${p.minimum !== undefined ? ` ≥ ${p.minimum}` : ""}`;
  if (p.type === "array") return `a list of at least ${p.minItems ?? 0} strings`;
  return `a ${p.type}`;
}

/**
 * The arguments of a call checked against the tool's schema.
 * @throws {RpcError} `-32602` for an unknown tool or a missing or mistyped field, naming
 * the field (fields the schema does not name are ignored, as JSON Schema has it).
 */
export function checkArguments(
  tools: ToolSpec[],
  name: string,
  args: unknown,
): Record<string, unknown> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    throw new RpcError(
      RPC.invalidParams,
      `Unknown tool '${name}'; the tools are ${tools.map((t) => t.name).join(", ")}.`,
    );
  }
  const given = args ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new RpcError(RPC.invalidParams, `Invalid arguments for '${name}': expected an object.`);
  }
  const record = given as Record<string, unknown>;
  const { properties, required = [] } = tool.inputSchema;
  for (const field of required) {
    if (record[field] === undefined) {
      throw new RpcError(
        RPC.invalidParams,
        `Invalid arguments for '${name}': '${field}' is required (${expected(properties[field])}).`,
        { field },
      );
    }
  }
  for (const [field, value] of Object.entries(record)) {
    const p = properties[field];
    if (!p) continue; // JSON Schema admits fields it does not name; they are ignored
    if (value !== undefined && !typeOk(value, p)) {
      throw new RpcError(
        RPC.invalidParams,
        `Invalid arguments for '${name}': '${field}' must be ${expected(p)}.`,
        { field },
      );
    }
  }
  return record;
}

/**
 * A `skill_manage` call in skillrt's terms, whichever names (skillrt's or Hermes's) it
 * used; its actor is the agent ([U-1]), whatever the arguments say.
 */
export function manageAction(args: Record<string, unknown>): ManageAction {
  return { ...callAction(args), actor: "agent" };
}

function bundleAction(action: string, args: Record<string, unknown>): ManageAction {
  const name = String(args.name);
  const text = (key: "description" | "instruction") =>
    typeof args[key] === "string" ? { [key]: args[key] as string } : {};
  const skills = Array.isArray(args.skills) ? (args.skills as string[]) : undefined;
  if (action === "bundle-delete") return { action, name };
  if (action === "bundle-create") {
    return { action, name, skills: skills ?? [], ...text("description"), ...text("instruction") };
  }
  return {
    action: "bundle-edit",
    name,
    ...(skills ? { skills } : {}),
    ...text("description"),
    ...text("instruction"),
  };
}

function callAction(args: Record<string, unknown>): ManageAction {
  const action = String(args.action).replaceAll("_", "-");
  if (BUNDLE_ACTIONS.includes(action)) return bundleAction(action, args);
  const pick = (...keys: string[]) => keys.map((k) => args[k]).find((v) => v !== undefined);
  const name = String(args.name);
  switch (action) {
    case "create":
    case "edit":
      return {
        action,
        name,
        content: String(pick("content", "file_content") ?? ""),
        ...(action === "create" && typeof args.category === "string"
          ? { category: args.category }
          : {}),
      } as ManageAction;
    case "patch":
      return {
        action: "patch",
        name,
        old: String(pick("old", "old_string") ?? ""),
        new: String(pick("new", "new_string") ?? ""),
        ...(typeof args.file_path === "string" ? { file_path: args.file_path } : {}),
        ...(args.replace_all === true ? { replace_all: true } : {}),
      };
    case "delete":
      return {
        action: "delete",
        name,
        ...(typeof args.absorbed_into === "string" ? { absorbed_into: args.absorbed_into } : {}),
      };
    case "write-file":
      return {
        action: "write-file",
        name,
        path: String(pick("path", "file_path") ?? ""),
        content: String(pick("content", "file_content") ?? ""),
        ...(args.encoding === "base64" ? { encoding: "base64" as const } : {}),
      };
    default:
      return { action: "remove-file", name, path: String(pick("path", "file_path") ?? "") };
  }
}
