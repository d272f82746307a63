/**
 * [HUB-1][X-2] GitHub's API answers a tarball request with a redirect to another host
 * (`codeload.github.com`). The sandbox plan of a GitHub source grants that host too — and
 * only it: a redirect anywhere else fails with one skillrt line naming the host, never
 * Deno's "Requires net access". Real servers on 127.0.0.1 play the API, its codeload
 * host and a third host nothing grants.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { parseSource } from "../../src/hub/source.ts";
import { cliJson, makeTree, removeTrees, skill, snapshot, tempDir } from "../helpers.ts";

/** A GitHub-style tarball: one top folder holding the repository's root skill. */
async function tarball(top: string): Promise<Uint8Array> {
  const dir = tempDir();
  try {
    Deno.mkdirSync(`${dir}/${top}`);
    Deno.writeTextFileSync(`${dir}/${top}/SKILL.md`, skill("tools", "Team tools", "", "Tools.\n"));
    const out = `${dir}/t.tar.gz`;
    const tar = await new Deno.Command("tar", { args: ["-czf", out, "-C", dir, top] }).output();
    equal(tar.success, true);
    return Deno.readFileSync(out);
  } finally {
    removeTrees(dir);
  }
}

const serve = (handler: (path: string, req: Request) => Response) =>
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => handler(new URL(req.url).pathname, req),
  );

Deno.test("[HUB-1] a GitHub source's hosts: api.github.com brings codeload.github.com; another base only itself, or its github_codeload", () => {
  const hosts = (github?: Parameters<typeof parseSource>[1]) => {
    const source = parseSource("team/tools", github);
    return source.kind === "github" ? source.hosts : [];
  };
  deepEqual(hosts(), ["api.github.com", "codeload.github.com"]);
  deepEqual(hosts("https://ghe.example.com/api/v3"), ["ghe.example.com"]);
  deepEqual(hosts({ base: "http://127.0.0.1:1", codeload: "http://127.0.0.1:2/" }), [
    "127.0.0.1:1",
    "127.0.0.1:2",
  ]);
});

Deno.test("[HUB-1][X-2] the API's redirect to its codeload host installs; a redirect to a third host is one skillrt line and writes nothing", async () => {
  const bytes = await tarball("team-tools-1234567");
  const thirdHits: string[] = [];
  const third = serve((path) => {
    thirdHits.push(path);
    return new Response(bytes.slice());
  });
  const codeload = serve((path) =>
    path === "/team/tools/tar.gz/main"
      ? new Response(bytes.slice())
      : new Response("no", { status: 404 })
  );
  const to = (server: Deno.HttpServer<Deno.NetAddr>, path: string) =>
    `http://127.0.0.1:${server.addr.port}${path}`;
  const api = serve((path) => {
    if (path === "/repos/team/tools/tarball/main") {
      return Response.redirect(to(codeload, "/team/tools/tar.gz/main"), 302);
    }
    if (path === "/repos/team/tools/tarball/away") {
      return Response.redirect(to(third, "/team/tools/tar.gz/main"), 302);
    }
    return new Response("no", { status: 404 });
  });
  const [a, c, t] = [api, codeload, third].map((s) => `127.0.0.1:${s.addr.port}`);
  const config = (extra: string) => `skills:\n  hub:\n    github_base: http://${a}\n${extra}`;
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": config(`    github_codeload: http://${c}\n`),
  });
  const install = (ref: string) =>
    cliJson(["--home", home, "hub", "install", `team/tools@${ref}`, "--yes"]);
  try {
    const plan = await cliJson(["--home", home, "sandbox", "hub", "install", "team/tools@main"]);
    deepEqual((plan.json.plan as { net: string[] }).net, [a, c]);
    const before = snapshot(home);
    const away = await install("away");
    equal(away.code, 3, away.stdout); // a host the sandbox does not grant ([X-2])
    equal(
      away.json.error,
      `Cannot download 'http://${a}/repos/team/tools/tarball/away': it redirects to '${t}', a host this source's sandbox does not grant.`,
    );
    ok(!away.stdout.includes("Requires") && !away.stderr.includes("Requires"), away.stderr);
    deepEqual(thirdHits, [], "the third host was never reached");
    equal(snapshot(home), before);
    // Without github_codeload a base other than api.github.com grants only itself.
    Deno.writeTextFileSync(`${home}/config.yaml`, config(""));
    const bare = await install("main");
    equal(
      bare.json.error,
      `Cannot download 'http://${a}/repos/team/tools/tarball/main': it redirects to '${c}', a host this source's sandbox does not grant.`,
    );
    Deno.writeTextFileSync(`${home}/config.yaml`, config(`    github_codeload: http://${c}\n`));
    const ok_ = await install("main");
    equal(ok_.code, 0, ok_.stderr);
    equal(
      Deno.readTextFileSync(`${home}/skills/tools/SKILL.md`),
      skill("tools", "Team tools", "", "Tools.\n"),
    );
  } finally {
    await Promise.all([api.shutdown(), codeload.shutdown(), third.shutdown()]);
    removeTrees(home);
  }
});
