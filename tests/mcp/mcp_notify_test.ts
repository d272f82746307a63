/**
 * [MCP-1][IO-4] `list_changed` goes only to a client that has initialized: a change the
 * watched runtime reports before `initialize` (the watchers opening right after start report
 * one) sends nothing, and the same change after it is sent. A real runtime with `watch: true`
 * on a temporary home, the real SDK server, a raw in-memory client that records every message.
 */
import { deepEqual, ok } from "node:assert/strict";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SkillRuntime } from "../../src/runtime.ts";
import { createSkillServer } from "../../src/mcp/server.ts";
import { eventually, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

const methods = (messages: JSONRPCMessage[]) =>
  messages.map((m) => ("method" in m ? m.method : "response"));

Deno.test("[MCP-1][IO-4] no list_changed before initialize; sent after it", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const seen: JSONRPCMessage[] = [];
  client.onmessage = (m: JSONRPCMessage) => void seen.push(m);
  const server = createSkillServer({ runtime: rt, allowWrites: false, version: "test" });
  let changes = 0;
  const stop = rt.onChange(() => changes++);
  try {
    await server.connect(serverSide);
    await client.start();
    await rt.list(); // the first answer: the watchers open after it and report once
    await rt.watchStatus();
    Deno.mkdirSync(`${home}/skills/dev/b`);
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B"));
    await rt.list();
    ok(await eventually(() => changes > 0));
    await new Promise((resolve) => setTimeout(resolve, 200)); // what was sent has arrived
    deepEqual(methods(seen), []);
    const init = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    };
    await client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: init });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    ok(await eventually(() => seen.length === 1));
    const before = changes;
    Deno.writeTextFileSync(`${home}/skills/dev/b/SKILL.md`, skill("b", "B again"));
    await rt.list();
    ok(await eventually(() => changes > before));
    ok(await eventually(() => seen.length >= 3));
    deepEqual(methods(seen).slice(0, 3), [
      "response",
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
    ]);
  } finally {
    stop();
    await server.close();
    await rt.close();
    removeTrees(home);
  }
});
