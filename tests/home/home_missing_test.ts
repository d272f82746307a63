/**
 * [C-8][H-1] A home that does not exist is said plainly: `list` names it (and, for an
 * explicit --home, does not suggest a `create` that would refuse), a failing command adds
 * where the home came from, and the MCP server says it on stderr at start-up and in
 * skills_list's hint — a wrong HERMES_HOME in an MCP client's configuration shows.
 */
import { deepEqual, ok } from "node:assert/strict";
import { cli, makeTree, removeTrees } from "../helpers.ts";
import { denoCacheDir } from "../child_env.ts";
import { connectOver, firstText, skillrtTransport } from "../mcp/mcp_helpers.ts";

Deno.test("[C-8] a missing home: list and a failing view say it and where it came from", async () => {
  const parent = makeTree({});
  const home = `${parent}/nohome`;
  try {
    const list = await cli(["--home", home, "list"]);
    deepEqual([list.code, list.stdout, list.stderr], [
      1,
      "",
      `skillrt: The home '${home}' (--home) does not exist; check the path, or make it first: mkdir -p '${home}/skills'.\n`,
    ]);
    const named = await cli(["list", "--categories"], { env: { HERMES_HOME: home } });
    deepEqual([named.code, named.stderr], [
      1,
      `skillrt: The home '${home}' (HERMES_HOME) does not exist; check the path, or make it first: mkdir -p '${home}/skills'.\n`,
    ]);
    // The default home is only not made yet: list says how to start, exit 0.
    const fresh = await cli(["list"], { env: { HOME: parent, DENO_DIR: denoCacheDir() } });
    deepEqual([fresh.code, fresh.stdout.split("\n")[0]], [
      0,
      `No skills found: the home '${parent}/.hermes' does not exist.`,
    ]);
    const view = await cli(["--home", home, "view", "x"]);
    deepEqual([view.code, view.stderr], [
      1,
      `skillrt: Skill 'x' not found.\nskillrt: the home '${home}' (--home) does not exist; check the path.\n`,
    ]);
    const env = await cli(["view", "x"], { env: { HERMES_HOME: home } });
    ok(env.stderr.endsWith(`the home '${home}' (HERMES_HOME) does not exist; check the path.\n`));
    deepEqual(Array.from(Deno.readDirSync(parent)), [], "nothing made");
  } finally {
    removeTrees(parent);
  }
});

Deno.test("[MCP-1][C-8] the MCP server under a missing home: stderr at start-up, skills_list's hint", async () => {
  const parent = makeTree({});
  const home = `${parent}/nope`;
  const server = skillrtTransport(home);
  const client = await connectOver(server);
  try {
    const doc = firstText(await client.callTool({ name: "skills_list", arguments: {} }));
    deepEqual([doc.count, doc.hint], [
      0,
      `The home '${home}' does not exist: check HERMES_HOME or --home in the MCP client's configuration.`,
    ]);
    ok(
      server.stderr().includes(
        `skillrt: the home '${home}' (--home) does not exist; check the path. skills_list will find no skills.\n`,
      ),
      server.stderr(),
    );
  } finally {
    await client.close();
    removeTrees(parent);
  }
});
