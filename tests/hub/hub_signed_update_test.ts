/**
 * [T-2][HUB-6] A skill installed from a signed index stays bound to it: `hub update`
 * installs from the one fetch it verified (a mirror that answers the second fetch
 * unsigned, or older, gets nowhere), signed by the same trusted key, never older than
 * what is installed; `hub check` says so instead of `up_to_date`.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { signBytes } from "../../src/hub/signing.ts";
import { parseIndex } from "../../src/hub/well_known_index.ts";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";

const WK = ".well-known/agent-skills";
const INDEX = `/${WK}/index.json`;

/** A published site as served: URL path → bytes. */
type Site = Map<string, Uint8Array>;

function siteOf(dir: string): Site {
  const site: Site = new Map();
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${dir}${rel}`)) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory) walk(path);
      else site.set(path, Deno.readFileSync(`${dir}${path}`));
    }
  };
  walk("");
  return site;
}

/** `site` with its index changed by `edit` and signed again with the key in `keyFile`. */
async function resigned(
  site: Site,
  keyFile: string,
  edit: (doc: Record<string, unknown>) => void,
): Promise<Site> {
  const doc = JSON.parse(new TextDecoder().decode(site.get(INDEX)));
  edit(doc);
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  const signature = await signBytes(Deno.readTextFileSync(keyFile), bytes);
  return new Map([...site, [INDEX, bytes], [`${INDEX}.sig`, new TextEncoder().encode(signature)]]);
}

const sequenceOf = (site: Site) =>
  JSON.parse(new TextDecoder().decode(site.get(INDEX))).sequence as number;

/**
 * A mirror on 127.0.0.1 that answers each fetch of the index from the next site of the
 * queue (the last one stays), and every other file from the site of the latest index.
 */
function mirror() {
  let queue: Site[] = [];
  let current: Site = new Map();
  let fetches = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === INDEX) {
      fetches++;
      if (queue.length > 0) current = queue.shift()!;
    }
    const body = current.get(path);
    return body ? new Response(body.slice()) : new Response("no", { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}${INDEX}`,
    /** The next index fetches are answered from these sites, in order. */
    answer: (...sites: Site[]) => {
      queue = sites;
      fetches = 0;
    },
    fetches: () => fetches,
    close: () => server.shutdown(),
  };
}

/** A home trusting the keys made here, a skill source to publish, and a mirror. */
async function team(labels: string[]) {
  const work = makeTree({ "home/skills/.keep": "", "src/alpha/SKILL.md": "" });
  const home = `${work}/home`;
  const keys: Record<string, string> = {};
  for (const label of labels) {
    const made = await cli(["--home", home, "hub", "keygen", "--out", `${work}/${label}.key`]);
    equal(made.code, 0, made.stderr);
    keys[label] = made.stdout.trim();
  }
  const trusted = labels.map((l) => `      ${l}: "${keys[l]}"\n`).join("");
  Deno.writeTextFileSync(`${home}/config.yaml`, `skills:\n  hub:\n    trusted_keys:\n${trusted}`);
  const served = mirror();
  /** Publishes alpha with `body` into `site`, signed by `label` (or not), and returns what is served. */
  const publish = async (body: string, site: string, label?: string) => {
    Deno.writeTextFileSync(`${work}/src/alpha/SKILL.md`, skill("alpha", "Alpha", "", body));
    const base = served.url.slice(0, -INDEX.length); // the site the signed index names
    const sign = label ? ["--sign", `${work}/${label}.key`, "--base-url", base] : [];
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "publish",
      `${work}/src`,
      "--out",
      `${work}/${site}`,
      ...sign,
    ]);
    equal(r.code, 0, r.stderr);
    return siteOf(`${work}/${site}`);
  };
  const hub = (...args: string[]) => cliJson(["--home", home, "hub", ...args]);
  const lock = () => JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
  const body = () => Deno.readTextFileSync(`${home}/skills/alpha/SKILL.md`).split("---\n\n")[1];
  return {
    work,
    keys,
    served,
    publish,
    hub,
    lock,
    body,
    close: async () => {
      await served.close();
      removeTrees(work);
    },
  };
}

Deno.test("[T-2][HUB-6] hub update installs what it verified: a second fetch answered unsigned changes nothing; an unsigned index is refused and hub check says why", async () => {
  const t = await team(["team"]);
  try {
    const v1 = await t.publish("v1\n", "site", "team");
    const v2 = await t.publish("v2\n", "site", "team");
    const v3 = await t.publish("v3\n", "site", "team");
    deepEqual([sequenceOf(v1), sequenceOf(v2), sequenceOf(v3)], [1, 2, 3]);
    const unsigned = (site: Site) => new Map([...site].filter(([p]) => p !== `${INDEX}.sig`));
    t.served.answer(v1);
    const installed = await t.hub("install", `${t.served.url}#alpha`, "--yes");
    equal(installed.code, 0, installed.stderr);
    deepEqual([installed.json.trust_level, installed.json.signed_by], ["trusted", "team"]);
    const bound = t.lock().installed.alpha;
    deepEqual([bound.signed_by, bound.signing_key, bound.index_sequence], [
      "team",
      t.keys.team,
      1,
    ]);
    // The mirror answers signed to the plan (which reads the index for an artifact's host,
    // [IO-1]) and to the update's one fetch, and any further one unsigned.
    t.served.answer(v2, v2, unsigned(v2));
    const updated = await t.hub("update", "alpha", "--yes");
    equal(updated.code, 0, updated.stderr);
    const [result] = updated.json.updated as Record<string, unknown>[];
    deepEqual([result.trust_level, result.signed_by], ["trusted", "team"]);
    equal(t.served.fetches(), 2, "the plan's fetch and one fetch judged and installed");
    const after = t.lock().installed.alpha;
    deepEqual([after.trust_level, after.signed_by, after.index_sequence, t.body()], [
      "trusted",
      "team",
      2,
      "v2\n",
    ]);
    // Now only unsigned: a newer version is not taken, and check does not say up_to_date.
    t.served.answer(unsigned(v3));
    const reason =
      "'alpha' is bound to the key 'team' it was installed from; the index is no longer signed.";
    const checked = await t.hub("check", "alpha");
    deepEqual(checked.json.skills, [{ name: "alpha", status: "unavailable", reason }]);
    const lockText = Deno.readTextFileSync(`${t.work}/home/skills/.hub/lock.json`);
    const refused = await t.hub("update", "alpha", "--yes");
    equal(refused.code, 1, refused.stdout);
    deepEqual(refused.json.refused, [{ name: "alpha", error: reason }]);
    equal(Deno.readTextFileSync(`${t.work}/home/skills/.hub/lock.json`), lockText);
    equal(t.body(), "v2\n");
    // Unsigned but the same content as installed: still not up_to_date.
    t.served.answer(unsigned(v2));
    deepEqual((await t.hub("check", "alpha")).json.skills, [{
      name: "alpha",
      status: "unavailable",
      reason,
    }]);
  } finally {
    await t.close();
  }
});

Deno.test("[T-2][HUB-6] no rollback: newer then older signed indexes, the same sequence with other content, another trusted key — each refused with its reason", async () => {
  const t = await team(["team", "other"]);
  try {
    const v1 = await t.publish("v1\n", "site", "team");
    const v2 = await t.publish("v2\n", "site", "team");
    Deno.mkdirSync(`${t.work}/fork`);
    await new Deno.Command("cp", { args: ["-a", `${t.work}/site/.`, `${t.work}/fork`] }).output();
    const v3 = await t.publish("v3\n", "site", "team");
    const v3b = await t.publish("v3, another\n", "fork", "team");
    deepEqual([sequenceOf(v3), sequenceOf(v3b)], [3, 3]);
    t.served.answer(v2);
    equal((await t.hub("install", `${t.served.url}#alpha`, "--yes")).code, 0);
    // Newer on the update's fetch (after the plan's), older on the next: the newer one installs.
    t.served.answer(v3, v3, v1);
    const updated = await t.hub("update", "alpha", "--yes");
    equal(updated.code, 0, updated.stderr);
    deepEqual([t.body(), t.lock().installed.alpha.index_sequence], ["v3\n", 3]);
    const refusals: [Site, string][] = [
      [v1, "'alpha': the index's sequence 1 is older than the installed 3 (a rollback)."],
      [
        v3b,
        "'alpha': the index has the installed sequence 3 but other content (a signed update raises the sequence).",
      ],
      [
        await resigned(v2, `${t.work}/team.key`, (doc) => delete doc.sequence),
        "'alpha': the signed index has no sequence, so a new version cannot be told from a rollback.",
      ],
      [
        await t.publish("v4\n", "site", "other"),
        "'alpha' is bound to the key 'team' it was installed from; the index is signed by 'other' instead.",
      ],
    ];
    const lockText = Deno.readTextFileSync(`${t.work}/home/skills/.hub/lock.json`);
    for (const [site, reason] of refusals) {
      t.served.answer(site);
      const checked = await t.hub("check", "alpha");
      deepEqual(checked.json.skills, [{ name: "alpha", status: "unavailable", reason }]);
      const refused = await t.hub("update", "alpha", "--yes");
      equal(refused.code, 1, refused.stdout);
      deepEqual(refused.json.refused, [{ name: "alpha", error: reason }]);
      equal(Deno.readTextFileSync(`${t.work}/home/skills/.hub/lock.json`), lockText);
      equal(t.body(), "v3\n");
    }
    // The same version signed by the bound key, at a higher sequence: taken.
    const v4 = await t.publish("v4\n", "site", "team");
    equal(sequenceOf(v4), 4);
    t.served.answer(v4);
    const taken = await t.hub("update", "alpha", "--yes");
    equal(taken.code, 0, taken.stderr);
    deepEqual([t.body(), t.lock().installed.alpha.index_sequence], ["v4\n", 4]);
    // Another skill changes (sequence 5, alpha as it is): the update records the sequence
    // it saw, so the index of sequence 4 — alpha the same — is a rollback from now on.
    Deno.mkdirSync(`${t.work}/src/beta`);
    Deno.writeTextFileSync(`${t.work}/src/beta/SKILL.md`, skill("beta", "Beta"));
    t.served.answer(await t.publish("v4\n", "site", "team"));
    const skipped = await t.hub("update", "alpha", "--yes");
    deepEqual(skipped.json.skipped, [{ name: "alpha", status: "up_to_date" }]);
    equal(t.lock().installed.alpha.index_sequence, 5);
    t.served.answer(v4);
    deepEqual((await t.hub("check", "alpha")).json.skills, [{
      name: "alpha",
      status: "unavailable",
      reason: "'alpha': the index's sequence 4 is older than the installed 5 (a rollback).",
    }]);
    // The label now names another key: the skill stays bound to the key it came with.
    t.served.answer(await t.publish("v4\n", "site", "other"));
    Deno.writeTextFileSync(
      `${t.work}/home/config.yaml`,
      `skills:\n  hub:\n    trusted_keys:\n      team: "${t.keys.other}"\n`,
    );
    deepEqual((await t.hub("check", "alpha")).json.skills, [{
      name: "alpha",
      status: "unavailable",
      reason:
        "'alpha' is bound to the key 'team' it was installed from; the index is signed by another key that 'team' now names (reinstall with hub install --force to take it).",
    }]);
  } finally {
    await t.close();
  }
});

Deno.test("[T-2] a signed index that does not bind an entry's files by digest gives it no trust", async () => {
  const t = await team(["team"]);
  try {
    const site = await resigned(
      await t.publish("v1\n", "site", "team"),
      `${t.work}/team.key`,
      (doc) => { // made a v0.1 index: no $schema, no artifact, files as plain paths
        delete doc.$schema;
        for (const entry of doc.skills as Record<string, unknown>[]) {
          for (const field of ["type", "url", "digest"]) delete entry[field];
          entry.files = (entry.files as { path: string }[]).map((f) => f.path);
        }
      },
    );
    t.served.answer(site);
    const r = await t.hub("install", `${t.served.url}#alpha`, "--yes");
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.trust_level, r.json.signed_by, r.json.warnings], ["community", undefined, [
      "'alpha' comes from an index without file digests; its integrity is unverified.",
      "'alpha' is in an index signed by 'team' without digests that bind its files; it is not trusted.",
    ]]);
    equal(t.lock().installed.alpha.signing_key, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("[T-2] an index's sequence is a whole number from 0, or the index is refused", () => {
  for (const bad of [-1, 1.5, "3", null]) {
    throws(() => parseIndex(JSON.stringify({ version: "0.2.0", sequence: bad, skills: [] }), "u"), {
      message: `Index 'u' has an invalid sequence ${JSON.stringify(bad)} (a whole number from 0).`,
    });
  }
  equal(parseIndex('{"version":"0.2.0","sequence":7,"skills":[]}', "u").sequence, 7);
  equal(parseIndex('{"version":"0.2.0","skills":[]}', "u").sequence, undefined);
});

Deno.test("[T-2] hub publish --sequence N: a site rebuilt from nothing starts at N; the sequence never goes below what the site had", async () => {
  const work = makeTree({ "home/skills/.keep": "", "src/alpha/SKILL.md": skill("alpha", "A") });
  const publish = (...extra: string[]) =>
    cliJson([
      "--home",
      `${work}/home`,
      "hub",
      "publish",
      `${work}/src`,
      "--out",
      `${work}/site`,
      ...extra,
    ]);
  const written = () => sequenceOf(siteOf(`${work}/site`));
  try {
    const bad = await publish("--sequence", "-3");
    equal(bad.code, 2, bad.stdout);
    equal(bad.json.error, "--sequence '-3' is not a whole number from 0.");
    deepEqual([...Deno.readDirSync(work)].map((e) => e.name).sort(), ["home", "src"]);
    const first = await publish("--sequence", "40");
    deepEqual([first.code, first.json.sequence, written()], [0, 40, 40]);
    equal((await publish()).json.sequence, 40, "the same entries keep it");
    Deno.writeTextFileSync(`${work}/src/alpha/SKILL.md`, skill("alpha", "A, changed"));
    equal((await publish("--sequence", "10")).json.sequence, 41, "never below the site's");
    equal(written(), 41);
  } finally {
    removeTrees(work);
  }
});
