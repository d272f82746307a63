/**
 * [T-4] Private GitHub repositories: the token comes from the environment variable
 * `skills.hub.github_token_env` names, the sandbox grants the Worker that one name, and
 * the token goes to the GitHub API's origin only — never to the host its redirect leads
 * to (codeload), nor anywhere else. It is never printed, logged, or kept in the lock (a
 * private tarball's redirect carries a short-lived token in its query; that is dropped
 * too). Real servers on 127.0.0.1 stand in for the API and codeload.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cliJson, fileTexts, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";
import { tarGzOf } from "./site_helpers.ts";

const CANARY = `ghp_canary${crypto.randomUUID().replaceAll("-", "")}`;
const VAR = "SKILLRT_TEST_GH_TOKEN";

const serve = (handler: (req: Request) => Response) =>
  Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);

/** An API stand-in that records each request's Authorization, and its codeload host. */
async function github() {
  const bytes = await tarGzOf(
    { "team-tools-1234567/SKILL.md": skill("tools", "Team tools") },
    "team-tools-1234567",
  );
  const seen: { host: string; path: string; authorization: string | null }[] = [];
  const record = (host: string, req: Request) =>
    seen.push({
      host,
      path: new URL(req.url).pathname,
      authorization: req.headers.get("authorization"),
    });
  const codeload = serve((req) => {
    record("codeload", req);
    return new Response(bytes.slice());
  });
  const c = `127.0.0.1:${codeload.addr.port}`;
  const api = serve((req) => {
    record("api", req);
    const path = new URL(req.url).pathname;
    // A private repository's redirect: a short-lived token in the query.
    if (path === "/repos/team/tools/tarball/main") {
      return Response.redirect(`http://${c}/team/tools/legacy.tar.gz/main?token=QUERYSECRET`, 302);
    }
    // A hop on the API's own origin keeps the token; the next, to codeload, drops it.
    if (path === "/repos/team/tools/tarball/hop") {
      return Response.redirect(
        `http://127.0.0.1:${api.addr.port}/repos/team/tools/tarball/main`,
        302,
      );
    }
    return new Response("no", { status: 404 });
  });
  const a = `127.0.0.1:${api.addr.port}`;
  const close = () => Promise.all([api.shutdown(), codeload.shutdown()]);
  return { a, c, seen, close };
}

const config = (a: string, c: string, tokenEnv = VAR) =>
  `skills:\n  hub:\n    github_base: http://${a}\n    github_codeload: http://${c}\n    github_token_env: ${tokenEnv}\n`;

Deno.test("[T-4] the GitHub token reaches the API's origin only, is granted by name, and is never printed or kept", async () => {
  const gh = await github();
  const home = makeTree({ "skills/.keep": "", "config.yaml": config(gh.a, gh.c) });
  const env = { [VAR]: CANARY };
  try {
    const plan = await cliJson(["--home", home, "sandbox", "hub", "install", "team/tools@main"], {
      env,
    });
    deepEqual((plan.json.plan as { env: string[] }).env, [VAR]);
    const r = await cliJson(["--home", home, "hub", "install", "team/tools@hop", "--yes"], { env });
    equal(r.code, 0, r.stdout + r.stderr);
    deepEqual(gh.seen, [
      { host: "api", path: "/repos/team/tools/tarball/hop", authorization: `Bearer ${CANARY}` },
      { host: "api", path: "/repos/team/tools/tarball/main", authorization: `Bearer ${CANARY}` },
      { host: "codeload", path: "/team/tools/legacy.tar.gz/main", authorization: null },
    ]);
    const lock = Deno.readTextFileSync(`${home}/skills/.hub/lock.json`);
    equal(
      JSON.parse(lock).installed.tools.identifier,
      `http://${gh.c}/team/tools/legacy.tar.gz/main`,
    );
    equal(JSON.parse(lock).installed.tools.commit, "1234567");
    const everything = [r.stdout, r.stderr, plan.stdout, fileTexts(home)].join("\n");
    ok(!everything.includes(CANARY), "the token is printed or kept somewhere");
    ok(!everything.includes("QUERYSECRET"), "the redirect's query token is kept somewhere");
    // Exported for a team: the commit, nothing of the token.
    const out = await cliJson(["--home", home, "hub", "lock", "export"], { env });
    equal((out.json.lock as { skills: { tools: { ref: string } } }).skills.tools.ref, "1234567");
    ok(!out.stdout.includes(CANARY) && !out.stdout.includes("QUERYSECRET"));
  } finally {
    await gh.close();
    removeTrees(home);
  }
});

Deno.test("[T-4] a token written into config instead of a variable's name is refused without being printed; no variable configured sends none", async () => {
  const gh = await github();
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": config(gh.a, gh.c, CANARY.toLowerCase()),
  });
  try {
    const before = snapshot(home);
    const r = await cliJson(["--home", home, "hub", "install", "team/tools@main", "--yes"]);
    equal(r.code, 1, r.stdout);
    equal(
      r.json.error,
      "skills.hub.github_token_env must name an environment variable (e.g. GITHUB_TOKEN), never hold the token.",
    );
    ok(!(r.stdout + r.stderr).includes(CANARY.toLowerCase()));
    equal(snapshot(home), before);
    equal(gh.seen.length, 0, "nothing was fetched");
    // Without github_token_env the variable is neither granted nor sent.
    Deno.writeTextFileSync(
      `${home}/config.yaml`,
      `skills:\n  hub:\n    github_base: http://${gh.a}\n    github_codeload: http://${gh.c}\n`,
    );
    const plain = await cliJson(["--home", home, "hub", "install", "team/tools@main", "--yes"], {
      env: { [VAR]: CANARY, GITHUB_TOKEN: CANARY },
    });
    equal(plain.code, 0, plain.stdout + plain.stderr);
    deepEqual(gh.seen.map((s) => s.authorization), [null, null]);
  } finally {
    await gh.close();
    removeTrees(home);
  }
});
