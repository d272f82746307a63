/**
 * [T-5] `mcp --http --stateless`: no sessions, every request answered on its own by the real
 * CLI over real HTTP on 127.0.0.1, driven by the SDK's client and by `fetch`; the checks of
 * [T-3] still hold; replicas on one home see an edit on the next call.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { STATELESS_METHOD } from "../../src/mcp/http.ts";
import { STATELESS_INSTRUCTIONS } from "../../src/mcp/server.ts";
import { assertAbsent, cli, copyTree, makeTree, removeTrees, REPO, tempDir } from "../helpers.ts";
import {
  connect,
  firstText,
  HEADERS,
  INIT,
  readsTheDemoHome,
  startHttp,
} from "./mcp_http_helpers.ts";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });

const VIEW = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "skill_view", arguments: { name: "docker-basics" } },
};

const NOT_ALLOWED = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: -32000, message: STATELESS_METHOD },
  id: null,
});

Deno.test("[T-5] stateless: the SDK's client with no session; a call with no initialize; GET and DELETE 405; the instructions say list_changed is not sent; --allow-writes still under approval", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  Deno.writeTextFileSync(`${home}/config.yaml`, "skills:\n  write_approval: true\n");
  const server = await startHttp(home, ["--stateless", "--allow-writes"]);
  try {
    const { client, transport } = await connect(server.url);
    equal(transport.sessionId, undefined);
    equal(client.getInstructions(), STATELESS_INSTRUCTIONS);
    match(client.getInstructions()!, /list_changed is not sent/);
    deepEqual(client.getServerCapabilities(), {
      tools: {},
      prompts: {},
      resources: {},
      completions: {},
    });
    await readsTheDemoHome(client);
    await client.close();
    // Raw: no answer carries a session id, and a call needs no initialize before it.
    const init = await post(server.url, INIT);
    deepEqual([init.status, init.headers.get("mcp-session-id")], [200, null]);
    equal((await init.json()).result.instructions, STATELESS_INSTRUCTIONS);
    const alone = await post(server.url, VIEW);
    deepEqual([alone.status, alone.headers.get("mcp-session-id")], [200, null]);
    const answer = await alone.json();
    deepEqual([answer.id, answer.result.structuredContent.name], [7, "docker-basics"]);
    // Requests at once, each answered by its own server: every answer is its request's.
    const names = ["docker-basics", "hello", "release-notes", "k8s-debug"];
    const answers = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const r = await post(server.url, {
          ...VIEW,
          id: 100 + i,
          params: { name: "skill_view", arguments: { name: names[i % 4] } },
        });
        const a = await r.json();
        return [a.id, a.result.structuredContent.name];
      }),
    );
    deepEqual(answers, Array.from({ length: 24 }, (_, i) => [100 + i, names[i % 4]]));
    // A write with no session: offered, and staged for approval, nothing written.
    const staged = await post(server.url, {
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: {
        name: "skill_manage",
        arguments: {
          action: "create",
          name: "from-stateless",
          content: "---\nname: from-stateless\ndescription: Made statelessly\n---\n\nBody.\n",
        },
      },
    });
    const doc = (await staged.json()).result.structuredContent;
    deepEqual([doc.success, doc.staged], [true, true]);
    assertAbsent(`${home}/skills/from-stateless`);
    // A made-up session id is no session to find: the request is answered on its own.
    const forged = await post(server.url, VIEW, { "mcp-session-id": "no-such-session" });
    deepEqual([forged.status, forged.headers.get("mcp-session-id")], [200, null]);
    equal((await forged.json()).result.structuredContent.name, "docker-basics");
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(server.url, {
        method,
        headers: { accept: "text/event-stream", "mcp-session-id": "no-such-session" },
      });
      deepEqual([r.status, r.headers.get("allow"), await r.text()], [405, "POST", NOT_ALLOWED]);
    }
  } finally {
    equal(await server.stop(), 0);
    removeTrees(home);
  }
  ok(server.log.some((l) => /^skillrt mcp: POST tools\/call skill_view 200 \d+\.\dms$/.test(l)));
  ok(server.log.some((l) => /^skillrt mcp: GET - 405 /.test(l)));
  ok(server.log.some((l) => /^skillrt mcp: DELETE - 405 /.test(l)));
});

/** The status line of a raw POST of {@linkcode VIEW} with the given Host header (fetch sets its own). */
async function rawStatusLine(port: number, host: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const body = JSON.stringify(VIEW);
    const head = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n` +
      `Connection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(head + body));
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    return new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0];
  } finally {
    conn.close();
  }
}

Deno.test("[T-5][T-3] stateless: the token, Host and Origin, path and body limit are refused as before", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const secret = makeTree({ "token": "s3cret-token-for-tests-0123456789\n" });
  Deno.chmodSync(`${secret}/token`, 0o600); // a token file only its owner can read
  const guarded = await startHttp(
    home,
    ["--stateless", "--token-file", `${secret}/token`],
    "0.0.0.0",
  );
  const open = await startHttp(home, ["--stateless"]);
  try {
    for (const auth of [undefined, "Bearer wrong-token-for-tests-0123456789", "Basic x"]) {
      const r = await post(guarded.url, VIEW, auth ? { authorization: auth } : {});
      deepEqual([r.status, await r.text()], [401, "Unauthorized\n"]);
    }
    // The token comes before the method: a GET without it is 401, not 405.
    const get = await fetch(guarded.url);
    deepEqual([get.status, await get.text()], [401, "Unauthorized\n"]);
    const { client } = await connect(guarded.url, "s3cret-token-for-tests-0123456789");
    equal((await client.listTools()).tools.length, 3);
    await client.close();
    // A page reaching the tokenless loopback server by another name (DNS rebinding): 403.
    for (const host of ["evil.test", `evil.test:${open.port}`]) {
      match(await rawStatusLine(open.port, host), /^HTTP\/1\.1 403 /);
    }
    for (const origin of ["http://evil.test", `http://127.0.0.1.evil.test:${open.port}`]) {
      const r = await post(open.url, VIEW, { origin });
      equal(r.status, 403);
      match((await r.json()).error.message, /^Forbidden: this server answers only to its local/);
    }
    const elsewhere = await post(open.url.replace(/\/mcp$/, "/other"), VIEW);
    equal(elsewhere.status, 404);
    await elsewhere.body?.cancel();
    const big = await fetch(open.url, {
      method: "POST",
      headers: HEADERS,
      body: "x".repeat(2 << 20),
    });
    equal(big.status, 413);
    await big.body?.cancel();
    // The same with no declared length: a streamed body is counted as it comes.
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 40) c.enqueue(chunk);
        else c.close();
      },
    });
    const streamed = await fetch(open.url, { method: "POST", headers: HEADERS, body: stream });
    equal(streamed.status, 413);
    await streamed.body?.cancel();
  } finally {
    equal(await guarded.stop(), 0);
    equal(await open.stop(), 0);
    removeTrees(home, secret);
  }
  ok(open.log.some((l) => /^skillrt mcp: POST - 413 /.test(l)));
});

Deno.test("[T-5] two stateless replicas on one home: an edit on disk is seen through both on the next call", async () => {
  const home = copyTree(`${REPO}/examples/home`);
  const file = `${home}/skills/devops/docker-basics/SKILL.md`;
  const replicas = [await startHttp(home, ["--stateless"]), await startHttp(home, ["--stateless"])];
  const clients = await Promise.all(replicas.map((r) => connect(r.url)));
  const described = async () => {
    const seen: string[] = [];
    for (const { client } of clients) {
      const view = await client.callTool({
        name: "skill_view",
        arguments: { name: "docker-basics" },
      });
      const list = await client.callTool({ name: "skills_list", arguments: {} });
      const listed = firstText(list).skills.find((s: { name: string }) =>
        s.name === "docker-basics"
      );
      seen.push(firstText(view).description, listed.description);
    }
    return seen;
  };
  try {
    const before = await described();
    deepEqual(before, Array(4).fill(before[0]));
    match(before[0], /^Write small, cacheable Dockerfiles/);
    const text = Deno.readTextFileSync(file);
    Deno.writeTextFileSync(
      file,
      text.replace(/^description: .*$/m, "description: Edited on disk, seen by every replica."),
    );
    deepEqual(await described(), Array(4).fill("Edited on disk, seen by every replica."));
  } finally {
    for (const { client } of clients) await client.close();
    for (const r of replicas) equal(await r.stop(), 0);
    removeTrees(home);
  }
});

Deno.test("[T-5][RUN-3] --stateless without --http or with --session-ttl, and --allow-run over --http without a token, are usage errors that write nothing", async () => {
  const home = tempDir();
  const cases: [string[], string][] = [
    [
      ["mcp", "--stateless", "--allow-writes"],
      "--stateless goes with --http: only the HTTP server can be stateless.",
    ],
    [
      ["sandbox", "mcp", "--stateless"],
      "--stateless goes with --http: only the HTTP server can be stateless.",
    ],
    [
      ["mcp", "--http", "--stateless", "--session-ttl", "5", "--allow-writes"],
      "--session-ttl does not go with --stateless: it keeps no sessions.",
    ],
    ...[["mcp", "--http", "--allow-run"], [
      "sandbox",
      "mcp",
      "--http",
      "--stateless",
      "--allow-run",
    ]]
      .map((args): [string[], string] => [
        args,
        "--allow-run over --http needs --token-file FILE: without a token every local user of this machine could run your skills' scripts.",
      ]),
  ];
  try {
    for (const [args, message] of cases) {
      const r = await cli(["--home", home, ...args]);
      deepEqual([r.code, r.stderr.split("\n")[0]], [2, `skillrt: ${message}`], args.join(" "));
      deepEqual([...Deno.readDirSync(home)], [], args.join(" "));
    }
    assertAbsent(`${home}/skills`);
  } finally {
    removeTrees(home);
  }
});
