/**
 * [IO-1] A v0.2.0 index may put its artifacts on another host (a CDN): "url — absolute, or
 * a path on the index's origin". The install's grant holds the artifact's host, found by
 * reading the index while planning (two-phase planning), and nothing else; an artifact
 * moved to yet another host between planning and install is refused by the grant, in one
 * line. Real servers on 127.0.0.1 (each port is another host), real archives.
 */
import { deepEqual, equal } from "node:assert/strict";
import { cliJson, makeTree, removeTrees, restoreFrom, skill } from "../helpers.ts";
import { installFromIndex, serveFolder } from "./site_helpers.ts";
import { V02_DIR, writeV02Site } from "./discovery_index.ts";

const KIT = {
  "SKILL.md": skill("deploy-kit", "Deploy the site with the kit"),
  "scripts/deploy.sh": "#!/bin/sh\necho deploying\n",
};
const STYLE = { "SKILL.md": skill("code-style", "Keep code in the house style") };

/** A CDN holding the artifacts and the index text that points at them there. */
function cdnSite(base: string, dir: string): string {
  writeV02Site({
    "deploy-kit": { files: KIT, url: base },
    "code-style": { files: STYLE, url: base },
  }, dir);
  return Deno.readTextFileSync(`${dir}${V02_DIR}/index.json`);
}

/** An index server answering each GET of its index with the next of `versions` (the last stays). */
function serveIndex(versions: string[]) {
  let served = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    if (new URL(req.url).pathname !== `${V02_DIR}/index.json`) {
      return new Response("no", { status: 404 });
    }
    return new Response(versions[Math.min(served++, versions.length - 1)]);
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    host: `127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

Deno.test("[IO-1] an index whose artifacts lie on a CDN: the plan grants the CDN's host, the install fetches there and checks the digest", async () => {
  const dir = makeTree({});
  const cdn = serveFolder(dir);
  const index = serveIndex([cdnSite(cdn.base, dir)]);
  const home = makeTree({ "skills/.keep": "" });
  try {
    const args = ["--home", home, "hub", "install", "deploy-kit", "--index", index.base, "--yes"];
    const plan = await cliJson(["--home", home, "sandbox", ...args.slice(2), "--json"]);
    equal(plan.code, 0, plan.stderr);
    deepEqual((plan.json.plan as { net: string[] }).net, [index.host, new URL(cdn.base).host]);
    const done = await cliJson([...args, "--json"]);
    equal(done.code, 0, done.stderr);
    deepEqual([done.json.success, done.json.name, done.json.scan_verdict], [
      true,
      "deploy-kit",
      "safe",
    ]);
    equal(
      Deno.readTextFileSync(`${home}/skills/deploy-kit/scripts/deploy.sh`),
      KIT["scripts/deploy.sh"],
    );
    // A bare SKILL.md artifact on the CDN too.
    const style = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      "code-style",
      "--index",
      index.base,
      "--yes",
      "--json",
    ]);
    equal(style.code, 0, style.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/code-style/SKILL.md`), STYLE["SKILL.md"]);
  } finally {
    await index.close();
    await cdn.close();
    removeTrees(dir, home);
  }
});

Deno.test("[IO-1] an artifact moved to another host between planning and install is refused in one line, and nothing is installed", async () => {
  const first = makeTree({});
  const second = makeTree({});
  const cdn = serveFolder(first);
  const other = serveFolder(second);
  // The planning step reads the first index; the install reads the second, pointing elsewhere.
  const index = serveIndex([cdnSite(cdn.base, first), cdnSite(other.base, second)]);
  const home = makeTree({ "skills/.keep": "" });
  try {
    const done = await installFromIndex(home, "deploy-kit", index.base);
    // Not granted by the sandbox ([X-2]): exit 3.
    equal(done.code, 3, done.stderr);
    equal(done.json.success, false);
    const moved = `${other.base}${V02_DIR}/deploy-kit.tar.gz`;
    equal(
      done.json.error,
      `Cannot download '${moved}': the sandbox does not grant network access to '${
        new URL(other.base).host
      }'.`,
    );
    deepEqual(
      [...Deno.readDirSync(`${home}/skills`)].map((e) => e.name).filter((n) =>
        n !== ".keep" && n !== ".hub"
      ),
      [],
    );
  } finally {
    await index.close();
    await cdn.close();
    await other.close();
    removeTrees(first, second, home);
  }
});

Deno.test("[IO-1][T-4] a restore from a lock plans a CDN artifact's host the same way: the exported lock installs into a fresh home with --frozen", async () => {
  const dir = makeTree({});
  const cdn = serveFolder(dir);
  const index = serveIndex([cdnSite(cdn.base, dir)]);
  const homes = [makeTree({ "skills/.keep": "" }), makeTree({ "skills/.keep": "" })];
  const work = makeTree({});
  try {
    const done = await installFromIndex(homes[0], "deploy-kit", index.base);
    equal(done.code, 0, done.stderr);
    const lock = `${work}/l.json`;
    const out = await cliJson(["--home", homes[0], "hub", "lock", "export", "--out", lock]);
    equal(out.code, 0, out.stderr);
    const plan = await cliJson([
      "--home",
      homes[1],
      "sandbox",
      "hub",
      "install",
      "--from-lock",
      lock,
    ]);
    deepEqual((plan.json.plan as { net: string[] }).net, [index.host, new URL(cdn.base).host]);
    const restored = await restoreFrom(homes[1], lock, "--frozen");
    equal(restored.code, 0, restored.stdout + restored.stderr);
    equal(
      Deno.readTextFileSync(`${homes[1]}/skills/deploy-kit/scripts/deploy.sh`),
      KIT["scripts/deploy.sh"],
    );
  } finally {
    await Promise.all([index.close(), cdn.close()]);
    removeTrees(dir, work, ...homes);
  }
});
