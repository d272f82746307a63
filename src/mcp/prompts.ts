/**
 * The slash path over MCP ([MCP-1], [IO-3], [IO-4]): every visible skill a person may
 * invoke as a prompt — its invocation message ([V-7]) — except those with
 * `user-invocable: false` (still in the model's list); a `disable-model-invocation` skill
 * is offered here, as only a person picks a prompt. The prompt's arguments come from the
 * skill's `argument-hint`, which its description shows. `prompts/list` is paged.
 *
 * @module
 */
import {
  type GetPromptRequest,
  GetPromptRequestSchema,
  type ListPromptsRequest,
  ListPromptsRequestSchema,
  type Server,
} from "../deps/mcp.ts";
import { loadBundles } from "../bundles/bundles.ts";
import type { ListedSkill } from "../level0/list.ts";
import type { Catalog } from "../scan/catalog.ts";
import { pageAfter } from "./paging.ts";
import { argumentsText, promptArguments } from "./prompt_arguments.ts";
import { budgetOf, catalogOf, protocolError, type Session } from "./session.ts";
import { RPC, RpcError } from "./rpc_error.ts";

const byName = (a: ListedSkill, b: ListedSkill) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** The skills offered as prompts, by name: visible, and not `user-invocable: false`. */
export async function slashSkills(session: Session, catalog: Catalog): Promise<ListedSkill[]> {
  const { skills } = await session.rt.list({ catalog });
  return skills.filter((s) => s.userInvocable !== false).sort(byName);
}

/** A skill as `prompts/list` shows it. */
function promptOf(s: ListedSkill) {
  const hint = s.argumentHint;
  return {
    name: s.name,
    title: s.name,
    description: hint === undefined ? s.description : `${s.description} Arguments: ${hint}`,
    arguments: promptArguments(hint),
  };
}

async function listPrompts(session: Session, request: ListPromptsRequest) {
  const catalog = await catalogOf(session);
  const prompts = (await slashSkills(session, catalog)).map(promptOf);
  const page = pageAfter(prompts, (p) => p.name, request.params?.cursor, budgetOf(session.rt));
  return { prompts: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** The `$ARGUMENTS` text of a call to a skill's prompt, refusing one not on the slash path. */
function promptArgs(
  session: Session,
  catalog: Catalog,
  name: string,
  given: Record<string, string>,
): string | undefined {
  // A bundle of that name is invoked as one ([B-2]): it has no hint.
  if (loadBundles(session.rt.setup.home).bundles.some((b) => b.name === name)) return undefined;
  const { record } = session.rt.resolveIn(name, catalog);
  if (record.invocation.userInvocable === false) {
    throw new RpcError(
      RPC.invalidParams,
      `Skill '${record.name}' is not offered as a prompt (user-invocable: false); the model loads it with skill_view.`,
      { name: record.name },
    );
  }
  const args = argumentsText(record.invocation.argumentHint, given);
  if ("missing" in args) {
    throw new RpcError(
      RPC.invalidParams,
      `Prompt '${record.name}' needs the argument '${args.missing}' (${record.invocation.argumentHint}).`,
      { field: args.missing },
    );
  }
  return args.text;
}

async function getPrompt(session: Session, request: GetPromptRequest) {
  const { name } = request.params;
  const given = request.params.arguments ?? {};
  try {
    const catalog = await catalogOf(session);
    const args = promptArgs(session, catalog, name, given);
    const result = await session.rt.invoke(name, given.instruction, { catalog, args });
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

/** Serves `prompts/list` (paged) and `prompts/get`. */
export function servePrompts(server: Server, session: Session): void {
  server.setRequestHandler(
    ListPromptsRequestSchema,
    (r: ListPromptsRequest) => listPrompts(session, r),
  );
  server.setRequestHandler(GetPromptRequestSchema, (r: GetPromptRequest) => getPrompt(session, r));
}
