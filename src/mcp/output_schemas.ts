/**
 * The `outputSchema` of each MCP tool ([IO-4]): JSON Schemas of the documents the tools
 * return as `structuredContent` (the same JSON as their text content, snake_case names).
 * They name what a client may rely on and admit more (fields are added over time).
 *
 * @module
 */

/** A JSON Schema, as MCP carries it. */
export type JsonSchema = { [key: string]: unknown };

const text = { type: "string" };
const texts = { type: "array", items: text };
const nullableText = { type: ["string", "null"] };

/** One skill in a list or a search. */
const LISTED_SKILL: JsonSchema = {
  type: "object",
  properties: {
    name: text,
    description: text,
    category: nullableText,
    tags: texts,
    score: { type: "number" },
    ambiguous: { type: "boolean" },
    matches: texts,
  },
  required: ["name", "description", "category", "tags"],
};

/** A list (or a page of one): `list`'s document with `next_cursor` when more follow. */
const LIST: JsonSchema = {
  type: "object",
  properties: {
    success: { const: true },
    skills: { type: "array", items: LISTED_SKILL },
    categories: texts,
    count: { type: "integer", minimum: 0 },
    hint: text,
    message: text,
    next_cursor: text,
    available_categories: texts,
  },
  required: ["success", "skills", "categories", "count"],
};

/** The category map a list over the budget becomes. */
const CATEGORY_MAP: JsonSchema = {
  type: "object",
  properties: {
    success: { const: true },
    categories: {
      type: "array",
      items: {
        type: "object",
        properties: { category: text, count: { type: "integer" }, description: nullableText },
        required: ["category", "count", "description"],
      },
    },
    count: { type: "integer", minimum: 0 },
    uncategorized: { type: "integer", minimum: 0 },
    hint: text,
  },
  required: ["success", "categories", "count", "uncategorized", "hint"],
};

/** A skill at Level 1 (or the part of it asked for). */
const VIEW: JsonSchema = {
  type: "object",
  properties: {
    success: { const: true },
    name: text,
    description: text,
    category: nullableText,
    tags: texts,
    content: text,
    skill_dir: text,
    disable_model_invocation: { type: "boolean" },
    user_invocable: { type: "boolean" },
    when_to_use: nullableText,
    argument_hint: nullableText,
    warnings: { type: "array" },
  },
  required: ["success", "name", "description", "content", "skill_dir"],
};

/** A file of a skill at Level 2. */
const FILE: JsonSchema = {
  type: "object",
  properties: {
    success: { const: true },
    name: text,
    file: text,
    content: nullableText,
    file_type: text,
    bytes: { type: "integer", minimum: 0 },
    binary: { type: "boolean" },
    sha256: text,
  },
  required: ["success", "name", "file", "content", "file_type", "bytes"],
};

/** What `skill_manage` answers: applied or staged, with its message. */
const MANAGE: JsonSchema = {
  type: "object",
  properties: { success: { type: "boolean" }, message: text },
  required: ["success"],
};

/** What `skill_run` answers ([RUN-3]): the script's exit code and output, and its sandbox. */
const RUN: JsonSchema = {
  type: "object",
  properties: {
    success: { type: "boolean" },
    name: text,
    script: text,
    sha256: text,
    files_sha256: text,
    sandbox: { enum: ["deno", "deno+bwrap", "bwrap"] },
    command_line: texts,
    exit_code: { type: "integer" },
    stdout: text,
    stderr: text,
    timed_out: { type: "boolean" },
    truncated: { type: "boolean" },
    notes: texts,
  },
  required: ["success", "name", "script", "sandbox", "exit_code", "stdout", "stderr"],
};

/** The output schemas, by tool. */
export const OUTPUT_SCHEMAS = {
  skills_list: { type: "object", anyOf: [LIST, CATEGORY_MAP] },
  skill_view: { type: "object", anyOf: [VIEW, FILE] },
  skills_search: LIST,
  skill_manage: MANAGE,
  skill_run: RUN,
} as const satisfies Record<string, JsonSchema>;
