/**
 * The environment tests give the child processes that clear their own (tests/child_env.ts),
 * and a server that dies at start showing why (tests/mcp/mcp_helpers.ts).
 */
import { equal, ok, rejects } from "node:assert/strict";
import { childEnv, denoCacheDir } from "../child_env.ts";
import { connectOver, skillrtTransport } from "../mcp/mcp_helpers.ts";
import { makeTree, removeTrees } from "../helpers.ts";

Deno.test("a child deno started with a cleared environment and another HOME finds this process's cache, certificates and PATH", () => {
  const elsewhere = makeTree({});
  const env = childEnv({
    HOME: elsewhere,
    SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt",
    EXTRA: "1",
  });
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env,
    clearEnv: true,
    stderr: "null",
  }).outputSync();
  equal(out.code, 0);
  equal(JSON.parse(new TextDecoder().decode(out.stdout)).denoDir, denoCacheDir());
  ok(denoCacheDir() !== "", "Deno's cache folder is known");
  equal(env.PATH, Deno.env.get("PATH"));
  equal(env.SSL_CERT_FILE, "/etc/ssl/certs/ca-certificates.crt");
  equal(env.EXTRA, "1");
  removeTrees(elsewhere);
});

Deno.test("an MCP server that dies at start is reported with its stderr, not only 'Connection closed'", async () => {
  const home = makeTree({ "skills/.keep": "" });
  try {
    await rejects(
      connectOver(skillrtTransport(home, ["--no-such-flag"])),
      (error: Error) => {
        ok(error.message.includes("skillrt: Unknown option '--no-such-flag'"), error.message);
        return true;
      },
    );
  } finally {
    removeTrees(home);
  }
});
