/**
 * What the tests of `mcp --http` share: the real CLI started as a server on 127.0.0.1 (waited
 * for until it listens, its stderr lines kept), the SDK's Streamable HTTP client, and a raw
 * `initialize` for requests made with `fetch`.
 *
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { freePort } from "../../bench/mcp_load.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { REPO } from "../helpers.ts";
import { equal, match, ok } from "node:assert/strict";

/** One text item of a result's content. */
export type TextContent = { type: string; text: string };

/** The JSON document of a tool result's first text. */
export const firstText = (r: { content: unknown }) =>
  JSON.parse((r.content as TextContent[])[0].text);

/** A server started by {@linkcode startHttp}. */
export interface Running {
  /** Its endpoint on 127.0.0.1. */
  url: string;
  /** Its port. */
  port: number;
  /** Its stderr, a line an entry. */
  log: string[];
  /** Stops it by its PID (SIGTERM); resolves to its exit code. */
  stop(): Promise<number>;
}

/** Starts `mcp --http` as a real CLI process and waits until it listens. */
export async function startHttp(
  home: string,
  extra: string[] = [],
  host = "127.0.0.1",
): Promise<Running> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...WARDEN_FLAGS,
      `${REPO}/main.ts`,
      "--home",
      home,
      "mcp",
      "--http",
      "--host",
      host,
      "--port",
      String(port),
      ...extra,
    ],
    cwd: REPO,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  let listening: () => void = () => {};
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        log.push(line);
        if (line.includes("listening on")) listening();
      }
    }
    listening();
  })();
  await ready;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    log,
    stop: async () => {
      child.kill("SIGTERM");
      const status = await child.status;
      await reading;
      return status.code;
    },
  };
}

/** The SDK's client connected to `url` (with a bearer token when given). */
export async function connect(url: string, token?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: "skillrt-http-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/** A raw `initialize` request. */
export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

/** The headers of a raw JSON-RPC POST. */
export const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Asserts what the demo home answers a client: a list, a view, a prompt and a resource. */
export async function readsTheDemoHome(client: Client): Promise<void> {
  const list = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
  ok(list.skills.some((s: { name: string }) => s.name === "docker-basics"));
  const view = firstText(
    await client.callTool({ name: "skill_view", arguments: { name: "docker-basics" } }),
  );
  equal(view.name, "docker-basics");
  const prompt = await client.getPrompt({ name: "release-notes", arguments: {} });
  match((prompt.messages[0].content as TextContent).text, /invoked the "release-notes" skill/);
  const read = await client.readResource({ uri: "skill://docker-basics/references/layers.md" });
  ok((read.contents[0] as { text: string }).text.startsWith("# Layer caching"));
}
