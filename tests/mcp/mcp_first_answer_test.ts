/**
 * [PERF-6][IO-4] The first answer of a watched server never waits for its watchers: they
 * open after it (seconds at 10,000 skills), and the session log reads how each root is
 * kept fresh as it is at that moment. A root whose watcher then fails is still told to the
 * client (`watch.fallback`), on the next call. A real runtime with `watch: true`, the real
 * SDK server and client in memory, and an opener the test holds open and then fails.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { SkillRuntime } from "../../src/runtime.ts";
import { createSkillServer } from "../../src/mcp/server.ts";
import type { FsWatch } from "../../src/scan/watch_source.ts";
import { makeTree, removeTrees, skill, testHost } from "../helpers.ts";

type Message = { level: string; logger?: string; data: { code?: string; message: string } };

Deno.test("[PERF-6][IO-4] the first answers come while the watchers are still opening; a watcher failing later is logged on the next call", async () => {
  const home = makeTree({ "skills/dev/a/SKILL.md": skill("a", "A") });
  const opening: ((error: Error) => void)[] = [];
  const opener = () => new Promise<FsWatch>((_, reject) => opening.push(reject));
  const rt = new SkillRuntime({ home, host: testHost(home), watch: true, watchOpener: opener });
  const server = createSkillServer({ runtime: rt, allowWrites: false, version: "test" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "t", version: "1" });
  const got: Message[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n: { params: Message }) => void got.push(n.params),
  );
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    // Nothing ever settles the watchers here but the test: an answer that waited would never come.
    const first = await client.callTool({ name: "skills_list", arguments: {} });
    equal(first.isError, undefined);
    const view = await client.callTool({ name: "skill_view", arguments: { name: "a" } });
    equal(view.isError, undefined);
    equal(opening.length, 1); // the one root's watcher, still opening
    deepEqual(rt.watchStatusNow().map((s) => s.state), ["opening"]);
    equal(got.length, 0);
    opening[0](new Error("no inotify watches left"));
    await rt.watchStatus(); // the root has fallen back
    await client.callTool({ name: "skills_list", arguments: {} });
    deepEqual(got.map((m) => [m.level, m.logger, m.data.code]), [
      ["warning", "skillrt.watch", "watch.fallback"],
    ]);
    match(got[0].data.message, /is not watched \(no inotify watches left\)/);
  } finally {
    await client.close();
    await server.close();
    await rt.close();
    removeTrees(home);
  }
});
