import { deepEqual, equal, match, ok } from "node:assert/strict";
import {
  cli,
  cliJson,
  copyTree,
  eventually,
  makeTree,
  removeTrees,
  REPO,
  skill,
} from "../helpers.ts";
import {
  connect,
  firstText,
  HEADERS,
  INIT,
  readsTheDemoHome,
  startHttp,
} from "./mcp_http_helpers.ts";

Deno.test("[T-3][MCP-1] the SDK's Streamable HTTP client: list, view, a prompt, a resource; read-only; sessions closed and logged", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const server = await startHttp(home);
  try {
    const { client, transport } = await connect(server.url);
    const tools = await client.listTools();
    deepEqual(tools.tools.map((t: { name: string }) => t.name), [
      "skills_list",
      "skill_view",
      "skills_search",
    ]);
    await readsTheDemoHome(client);
    // Read-only: no skill_manage, and nothing written.
    const write = await client.callTool({
      name: "skill_manage",
      arguments: {
        action: "create",
        name: "sneaky",
        content: "---\nname: sneaky\ndescription: x\n---\n\nx\n",
      },
    }).then(() => undefined, (e: { code: number; message: string }) => e);
    equal(write?.code, -32602); // not offered: an unknown tool
    equal(
      write?.message,
      "MCP error -32602: Unknown tool 'skill_manage'; the tools are skills_list, skill_view, skills_search.",
    );
    let made = true;
    try {
      Deno.statSync(`${home}/skills/sneaky`);
    } catch {
      made = false;
    }
    equal(made, false);
    const session = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    const after = await fetch(server.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    equal(after.status, 404);
    await after.body?.cancel();
    // Too large a body: 413 before anything is parsed.
    const big = await fetch(server.url, {
      method: "POST",
      headers: HEADERS,
      body: "x".repeat(2 * 1024 * 1024),
    });
    equal(big.status, 413);
    await big.body?.cancel();
    // A browser page reaching the tokenless loopback server by another name: 403.
    const rebound = await fetch(server.url, {
      method: "POST",
      headers: { ...HEADERS, origin: "http://evil.test" },
      body: JSON.stringify(INIT),
    });
    equal(rebound.status, 403);
    await rebound.body?.cancel();
  } finally {
    equal(await server.stop(), 0);
    removeTrees(home);
  }
  ok(server.log.some((l) => /^skillrt mcp: POST tools\/call skill_view 200 \d+\.\dms$/.test(l)));
  ok(server.log.some((l) => /^skillrt mcp: DELETE - 200 /.test(l)));
  ok(server.log.some((l) => /^skillrt mcp: POST - 413 /.test(l)));
});

Deno.test("[T-3] a bind that is not loopback needs a token file; without the bearer token every request gets 401", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const secret = makeTree({ "token": "s3cret-token-for-tests-0123456789\n" });
  Deno.chmodSync(`${secret}/token`, 0o600); // a token file only its owner can read
  try {
    const refused = await cli(["--home", home, "mcp", "--http", "--host", "0.0.0.0"]);
    equal(refused.code, 2);
    match(
      refused.stderr,
      /^skillrt: Serving on '0\.0\.0\.0' \(not loopback\) needs --token-file FILE/,
    );
    const server = await startHttp(home, ["--token-file", `${secret}/token`], "0.0.0.0");
    try {
      const plan = await cliJson([
        "--home",
        home,
        "sandbox",
        "mcp",
        "--http",
        "--host",
        "0.0.0.0",
        "--port",
        String(server.port),
        "--token-file",
        `${secret}/token`,
      ]);
      deepEqual((plan.json.plan as { net: string[] }).net, [`0.0.0.0:${server.port}`]);
      for (const auth of [undefined, "Bearer wrong-token-for-tests-0123456789", "Basic x"]) {
        const r = await fetch(server.url, {
          method: "POST",
          headers: { ...HEADERS, ...(auth ? { authorization: auth } : {}) },
          body: JSON.stringify(INIT),
        });
        deepEqual([r.status, await r.text()], [401, "Unauthorized\n"]);
      }
      const { client } = await connect(server.url, "s3cret-token-for-tests-0123456789");
      equal((await client.listTools()).tools.length, 3);
      await client.close();
    } finally {
      equal(await server.stop(), 0);
    }
  } finally {
    removeTrees(home, secret);
  }
});

Deno.test("[T-3][A-1] --allow-writes offers skill_manage over HTTP, and writes still go through write approval", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  write_approval: true\n");
  const server = await startHttp(home, ["--allow-writes", "--session-ttl", "1"]);
  try {
    const { client, transport } = await connect(server.url);
    ok((await client.listTools()).tools.some((t: { name: string }) => t.name === "skill_manage"));
    const staged = firstText(
      await client.callTool({
        name: "skill_manage",
        arguments: {
          action: "create",
          name: "from-http",
          content: "---\nname: from-http\ndescription: Made over HTTP\n---\n\nBody.\n",
        },
      }),
    );
    deepEqual([staged.success, staged.staged], [true, true]);
    let made = true;
    try {
      Deno.statSync(`${home}/skills/from-http`);
    } catch {
      made = false;
    }
    equal(made, false);
    // An idle session expires (--session-ttl 1): its id then gets 404.
    const session = transport.sessionId!;
    // Asked again only after the TTL has passed (asking touches the session), then until
    // it has expired: a busy machine sweeps later, never sooner.
    await new Promise((r) => setTimeout(r, 1_500));
    let status = 0;
    await eventually(async () => {
      const r = await fetch(server.url, {
        method: "POST",
        headers: { ...HEADERS, "mcp-session-id": session },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      status = r.status;
      await r.body?.cancel();
      if (status !== 404) await new Promise((r) => setTimeout(r, 1_500));
      return status === 404;
    });
    equal(status, 404);
    await client.close().catch(() => {});
  } finally {
    equal(await server.stop(), 0);
    removeTrees(home);
  }
});

Deno.test("[T-3][C-3] mcp --http on a port another program holds: one line naming the port, exit 2", async () => {
  const home = makeTree({ "skills/fine/SKILL.md": skill("fine", "Fine.") });
  const holder = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = String(holder.addr.port);
  const message =
    `Port ${port} on 127.0.0.1 is already in use by another program; pick a free one with --port N.`;
  try {
    for (const extra of [[], ["--stateless"]]) {
      const r = await cli(["--home", home, "mcp", "--http", "--port", port, ...extra]);
      deepEqual([r.code, r.stdout, r.stderr], [2, "", `skillrt: ${message}\n`], extra.join(" "));
    }
    const j = await cliJson(["--home", home, "mcp", "--http", "--port", port]);
    deepEqual([j.code, j.json], [2, { success: false, error: message }]);
  } finally {
    holder.close();
    removeTrees(home);
  }
});
