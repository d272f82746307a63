/**
 * Test helpers for MCP: the real CLI's server over stdio driven by the SDK client, and the
 * JSON document inside a tool result.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { WARDEN_FLAGS } from "../src/sandbox/warden_flags.ts";
import { REPO } from "./helpers.ts";

/** Starts `skillrt --home HOME mcp …extra` and connects the SDK's stdio client to it. */
export async function connectStdio(home: string, extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "mcp", ...extra],
    cwd: REPO,
    stderr: "pipe",
  });
  const client = new Client({ name: "skillrt-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A text block of MCP content. */
export type TextContent = { type: string; text: string };

/** The JSON document of a tool result's first text block. */
export const firstText = (r: { content: unknown }) =>
  JSON.parse((r.content as TextContent[])[0].text);
