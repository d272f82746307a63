/**
 * Test helpers for MCP: the real CLI's server over stdio driven by the SDK client, and the
 * JSON document inside a tool result.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { childEnv } from "../child_env.ts";
import { REPO } from "../helpers.ts";

/** A stdio transport to `skillrt …args` and what the server has written on stderr so far. */
export interface SkillrtTransport {
  transport: StdioClientTransport;
  stderr: () => string;
  /** Resolves once the server's stderr has ended (it exited), or after `ms`. */
  stderrEnded: (ms: number) => Promise<void>;
}

/**
 * The SDK's stdio transport to `skillrt --home HOME mcp …extra`, with the environment Deno
 * needs ({@link childEnv}: the SDK passes only HOME, PATH and a few more) and the server's
 * stderr read as it comes (an unread pipe would stall a chatty server). `cwd` is the folder
 * the server runs in, as the user's (`INIT_CWD`): the work dir of `skill_run`'s scripts.
 */
export function skillrtTransport(
  home: string,
  extra: string[] = [],
  cwd = REPO,
): SkillrtTransport {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp", ...extra],
    cwd,
    env: childEnv(cwd === REPO ? {} : { INIT_CWD: cwd }),
    stderr: "pipe",
  });
  let said = "";
  const decoder = new TextDecoder();
  const ended = new Promise<void>((resolve) => transport.stderr?.on("end", () => resolve()));
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    said += decoder.decode(chunk, { stream: true });
  });
  const stderrEnded = (ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
    return Promise.race([ended, bound]).finally(() => clearTimeout(timer));
  };
  return { transport, stderr: () => said, stderrEnded };
}

/**
 * Connects a new SDK client over `t`. A server that dies at start shows its stderr in the
 * error, not only the SDK's "Connection closed".
 */
export async function connectOver(t: SkillrtTransport): Promise<Client> {
  const client = new Client({ name: "skillrt-test", version: "1.0.0" });
  try {
    await client.connect(t.transport);
  } catch (error) {
    await t.stderrEnded(5_000);
    throw new Error(`the MCP server did not start: ${error}\nits stderr:\n${t.stderr()}`);
  }
  return client;
}

/** Starts `skillrt --home HOME mcp …extra` (in `cwd`) and connects the SDK's stdio client to it. */
export function connectStdio(home: string, extra: string[] = [], cwd?: string): Promise<Client> {
  return connectOver(skillrtTransport(home, extra, cwd));
}

/** A text block of MCP content. */
export type TextContent = { type: string; text: string };

/** The JSON document of a tool result's first text block. */
export const firstText = (r: { content: unknown }) =>
  JSON.parse((r.content as TextContent[])[0].text);
