import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cli, cliJson, makeTree, removeTrees } from "../helpers.ts";
import { serveFolder, sources } from "./site_helpers.ts";

const WK = ".well-known/agent-skills";

Deno.test("[T-2] hub keygen: a 0600 private key, KEYFILE.pub and stdout the public key line; never overwrites", async () => {
  const work = makeTree({ "home/skills/.keep": "" });
  try {
    const r = await cli(["--home", `${work}/home`, "hub", "keygen", "--out", `${work}/team.key`]);
    equal(r.code, 0, r.stderr);
    match(r.stdout, /^ed25519:[A-Za-z0-9+/]{43}=\n$/);
    equal(Deno.readTextFileSync(`${work}/team.key.pub`), r.stdout);
    equal(Deno.statSync(`${work}/team.key`).mode! & 0o777, 0o600);
    match(Deno.readTextFileSync(`${work}/team.key`), /^ed25519-private:/);
    const before = Deno.readTextFileSync(`${work}/team.key`);
    const again = await cli([
      "--home",
      `${work}/home`,
      "hub",
      "keygen",
      "--out",
      `${work}/team.key`,
    ]);
    equal(again.code, 1);
    equal(
      again.stderr,
      `skillrt: '${work}/team.key' already exists; a key is never overwritten.\n`,
    );
    equal(Deno.readTextFileSync(`${work}/team.key`), before);
  } finally {
    removeTrees(work);
  }
});

Deno.test("[T-2][HUB-5] a signed index installs as trusted with the key label in the lock; tampered index or signature refused; unsigned stays community", async () => {
  const src = sources();
  const work = makeTree({ "home/skills/.keep": "", "other/skills/.keep": "" });
  const site = `${work}/site`;
  const key = await cli(["--home", `${work}/home`, "hub", "keygen", "--out", `${work}/k`]);
  const line = key.stdout.trim();
  const config = `skills:\n  hub:\n    trusted_keys:\n      team: "${line}"\n`;
  Deno.writeTextFileSync(`${work}/home/config.yaml`, config);
  const served = serveFolder(site);
  const url = `${served.base}/${WK}/index.json`;
  const home = `${work}/home`;
  const install = (name: string, h = home) =>
    cliJson(["--home", h, "hub", "install", `${url}#${name}`, "--yes"]);
  try {
    const pub = await cliJson([
      "--home",
      home,
      "hub",
      "publish",
      src,
      "--out",
      site,
      "--sign",
      `${work}/k`,
      "--base-url",
      served.base,
    ]);
    equal(pub.code, 0, pub.stderr);
    equal(pub.json.signed_by, line);
    match(
      Deno.readTextFileSync(`${site}/${WK}/index.json.sig`),
      new RegExp(`^${line.replace(/[+/]/g, "\\$&")} `),
    );
    const a = await install("alpha");
    equal(a.code, 0, a.stderr);
    deepEqual([a.json.trust_level, a.json.signed_by], ["trusted", "team"]);
    const lock = JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
    deepEqual([lock.installed.alpha.trust_level, lock.installed.alpha.signed_by], [
      "trusted",
      "team",
    ]);
    const check = await cliJson(["--home", home, "hub", "check", "alpha"]);
    deepEqual(check.json.skills, [{ name: "alpha", status: "up_to_date" }]);
    // Signed by a key the user does not trust: community, with a warning.
    const stranger = await install("alpha", `${work}/other`);
    equal(stranger.code, 0, stranger.stderr);
    equal(stranger.json.trust_level, "community");
    deepEqual(stranger.json.warnings, [
      `The index is signed by ${line}, which is not in skills.hub.trusted_keys.`,
    ]);
    // A changed index: refused, never downgraded; hub check says so too.
    const indexText = Deno.readTextFileSync(`${site}/${WK}/index.json`);
    Deno.writeTextFileSync(`${site}/${WK}/index.json`, indexText.replace("Beta does", "Beta did"));
    const tampered = await install("beta");
    equal(tampered.code, 1);
    equal(
      tampered.json.error,
      `Refusing '${url}': its signature does not verify (the index or its signature was changed).`,
    );
    const rechecked = await cliJson(["--home", home, "hub", "check", "alpha"]);
    equal((rechecked.json.skills as { status: string }[])[0].status, "unavailable");
    // A changed signature: refused.
    Deno.writeTextFileSync(`${site}/${WK}/index.json`, indexText);
    const sig = Deno.readTextFileSync(`${site}/${WK}/index.json.sig`);
    // Flip a character in the middle of the signature's last line (never a padding bit).
    const lines = sig.trimEnd().split("\n");
    const last = lines.at(-1)!;
    const at = Math.floor(last.length / 2);
    lines[lines.length - 1] = last.slice(0, at) + (last[at] === "A" ? "B" : "A") +
      last.slice(at + 1);
    const flipped = lines.join("\n") + "\n";
    Deno.writeTextFileSync(`${site}/${WK}/index.json.sig`, flipped);
    const badSig = await install("beta");
    equal(badSig.code, 1);
    match(String(badSig.json.error), /signature does not verify|signature file is malformed/);
    ok(!existsPath(`${home}/skills/beta`));
    // Published again without --sign: the signature goes, the skill is community.
    equal((await cliJson(["--home", home, "hub", "publish", src, "--out", site])).code, 0);
    ok(!existsPath(`${site}/${WK}/index.json.sig`));
    const unsigned = await install("beta");
    equal(unsigned.code, 0, unsigned.stderr);
    equal(unsigned.json.trust_level, "community");
    equal(unsigned.json.signed_by, undefined);
    // A skill installed from a signed index does not silently accept an unsigned one.
    const bound = await cliJson(["--home", home, "hub", "check", "alpha"]);
    deepEqual(bound.json.skills, [{
      name: "alpha",
      status: "unavailable",
      reason:
        "'alpha' is bound to the key 'team' it was installed from; the index is no longer signed.",
    }]);
  } finally {
    await served.close();
    removeTrees(src, work);
  }
});

function existsPath(p: string): boolean {
  try {
    Deno.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
