/**
 * [T-2][HUB-6] A signed index names its site: two real sites on 127.0.0.1 signed with one
 * team key. Site B's index (a higher sequence) replayed by site A's mirror is refused at
 * `hub check`, `hub update` and `hub install`; a mirror that redirects to B (B's index,
 * truly read at B) is refused for a skill installed from A by the lock's site; an
 * ordinary signed update of A still installs; a signed index naming no site is refused;
 * `hub publish --sign` without `--base-url` is a usage error.
 */
import { deepEqual, equal } from "node:assert/strict";
import { signBytes } from "../../src/hub/signing.ts";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { installFromIndex, publishTo, serveFolder } from "./site_helpers.ts";

const INDEX = "/.well-known/agent-skills/index.json";

/** A server for `dir`; while `redirect` (a folder) is set, what is outside it is a 302 into it. */
function mirror(dir: string) {
  let redirect: string | undefined;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (redirect && !path.startsWith(`${redirect}/`)) {
      return Response.redirect(new URL(`${redirect}${path}`, req.url), 302);
    }
    try {
      return new Response(Deno.readFileSync(`${dir}${path}`));
    } catch {
      return new Response("no", { status: 404 });
    }
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    redirectTo: (base?: string) => redirect = base,
    close: () => server.shutdown(),
  };
}

/** Replaces what `to` holds with a copy of `from`. */
function copySite(from: string, to: string): void {
  Deno.removeSync(to, { recursive: true });
  new Deno.Command("cp", { args: ["-r", from, to] }).outputSync();
}

Deno.test("[T-2][HUB-6] a signed index replayed from another site signed with the same key is refused; an ordinary signed update still installs", async () => {
  const work = makeTree({
    "home/skills/.keep": "",
    "a/tool/SKILL.md": skill("tool", "Prod tool.", "", "PROD v1\n"),
    "b/tool/SKILL.md": skill("tool", "Staging tool.", "", "STAGING build\n"),
    "www/.keep": "",
    "siteB/.keep": "",
    "other/skills/.keep": "",
  });
  const home = `${work}/home`;
  const key = await cli(["--home", home, "hub", "keygen", "--out", `${work}/team.key`]);
  const A = mirror(`${work}/www`);
  const B = serveFolder(`${work}/siteB`);
  const hub = (...args: string[]) => cliJson(["--home", home, "hub", ...args]);
  const publish = (src: string, out: string, base: string, ...extra: string[]) =>
    hub(
      "publish",
      `${work}/${src}`,
      "--out",
      out,
      "--sign",
      `${work}/team.key`,
      "--base-url",
      base,
      ...extra,
    );
  const body = () => Deno.readTextFileSync(`${home}/skills/tool/SKILL.md`).split("---\n\n")[1];
  try {
    Deno.writeTextFileSync(
      `${home}/config.yaml`,
      `skills:\n  hub:\n    indexes: [${A.base}]\n    trusted_keys:\n      team: "${key.stdout.trim()}"\n`,
    );
    equal((await publish("a", `${work}/siteA`, A.base)).code, 0);
    equal((await publish("b", `${work}/siteB`, B.base, "--sequence", "7")).code, 0);
    copySite(`${work}/siteA`, `${work}/www`);
    const installed = await hub("install", "tool", "--yes");
    equal(installed.code, 0, installed.stderr);
    deepEqual([installed.json.trust_level, installed.json.signed_by], ["trusted", "team"]);
    const lock = () => JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
    equal(lock().installed.tool.index_site, A.base);
    // A's mirror now serves B's index and signature: refused, naming both sites.
    copySite(`${work}/siteB`, `${work}/www`);
    const replay =
      `Refusing '${A.base}${INDEX}': its signed index is for the site '${B.base}', not '${A.base}' where it was read (an index replayed from another site).`;
    const check = await hub("check");
    deepEqual(check.json.skills, [{ name: "tool", status: "unavailable", reason: replay }]);
    const update = await hub("update", "tool", "--yes");
    deepEqual([update.code, update.json.updated, update.json.skipped], [0, [], [{
      name: "tool",
      status: "unavailable",
      reason: replay,
    }]]);
    equal(body(), "PROD v1\n");
    const fresh = await installFromIndex(`${work}/other`, "tool", A.base);
    deepEqual([fresh.code, fresh.json.error], [1, replay]);
    // A redirects to its folder /staging holding B's skill signed for that site (the sandbox
    // grants A's host only): truly read there after the redirect — not the site tool came from.
    const staging = `${A.base}/staging`;
    copySite(`${work}/siteA`, `${work}/www`);
    equal((await publish("b", `${work}/www/staging`, staging, "--sequence", "9")).code, 0);
    A.redirectTo("/staging");
    const moved = await hub("check");
    deepEqual(moved.json.skills, [{
      name: "tool",
      status: "unavailable",
      reason:
        `'tool' was installed from the site '${A.base}'; this signed index is for '${staging}'.`,
    }]);
    const movedUpdate = await hub("update", "tool", "--yes");
    deepEqual([movedUpdate.code, movedUpdate.json.updated, movedUpdate.json.refused], [1, [], [{
      name: "tool",
      error:
        `'tool' was installed from the site '${A.base}'; this signed index is for '${staging}'.`,
    }]]);
    equal(body(), "PROD v1\n");
    // An ordinary signed update of A still installs.
    A.redirectTo(undefined);
    Deno.writeTextFileSync(`${work}/a/tool/SKILL.md`, skill("tool", "Prod tool.", "", "PROD v2\n"));
    equal((await publish("a", `${work}/siteA`, A.base)).code, 0);
    copySite(`${work}/siteA`, `${work}/www`);
    const ok2 = await hub("update", "tool", "--yes");
    equal(ok2.code, 0, ok2.stderr);
    equal(body(), "PROD v2\n");
    deepEqual([lock().installed.tool.index_site, lock().installed.tool.index_sequence], [
      A.base,
      2,
    ]);
  } finally {
    await A.close();
    await B.close();
    removeTrees(work);
  }
});

Deno.test("[T-2] a signed index that names no site is refused; hub publish --sign needs --base-url", async () => {
  const work = makeTree({ "home/skills/.keep": "", "src/tool/SKILL.md": skill("tool", "T.") });
  const home = `${work}/home`;
  await cli(["--home", home, "hub", "keygen", "--out", `${work}/k`]);
  const site = serveFolder(`${work}/site`);
  try {
    const publish = (...extra: string[]) =>
      publishTo(home, `${work}/src`, `${work}/site`, "--sign", `${work}/k`, ...extra);
    const bare = await publish();
    deepEqual([bare.code, bare.json.error], [
      2,
      "hub publish --sign needs --base-url URL: the signed index names the site it is served from, so it cannot be replayed from another.",
    ]);
    const pub = await publish("--base-url", site.base);
    equal(pub.code, 0, pub.stderr);
    // The same index without its site, signed again with the same key (as an old publisher would).
    const file = `${work}/site${INDEX}`;
    const { site: _named, ...rest } = JSON.parse(Deno.readTextFileSync(file));
    const bytes = new TextEncoder().encode(JSON.stringify(rest));
    Deno.writeFileSync(file, bytes);
    Deno.writeTextFileSync(
      `${file}.sig`,
      await signBytes(Deno.readTextFileSync(`${work}/k`), bytes),
    );
    const got = await installFromIndex(home, "tool", site.base);
    deepEqual([got.code, got.json.error], [
      1,
      `Refusing '${site.base}${INDEX}': its signed index names no site, so it could be replayed from anywhere (republish it with hub publish --sign --base-url URL).`,
    ]);
  } finally {
    await site.close();
    removeTrees(work);
  }
});
