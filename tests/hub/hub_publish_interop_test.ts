/**
 * [IO-2] `hub publish` writes the final discovery index v0.2.0: a client that knows only
 * the RFC's fields (`$schema`, `name`, `type`, `url`, `digest`) installs from it; an index
 * made by an RFC-following generator from the same skills installs the same way through
 * skillrt; a signed publish still verifies, over the exact bytes of `index.json`.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { verifySignature } from "../../src/hub/signing.ts";
import { cli, cliJson, makeTree, removeTrees, skill } from "../helpers.ts";
import { installFromIndex, publishTo, serveFolder, sources } from "./site_helpers.ts";
import { SCHEMA_V02, V02_DIR, writeV02Site } from "./discovery_index.ts";

/** SHA-256 by WebCrypto, apart from skillrt's own hashing. */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes.slice()));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Another client, as small as the RFC allows: it checks `$schema`, and for each entry
 * fetches `url` (resolved against the index URL), checks `digest`, and unpacks a
 * `skill-md` as the SKILL.md and an `archive` with the system's `tar` into `into/<name>`.
 * It knows no other field. Returns the names it installed.
 */
async function rfcClient(indexUrl: string, into: string): Promise<string[]> {
  const index = await (await fetch(indexUrl)).json();
  if (index.$schema !== SCHEMA_V02) throw new Error(`unknown $schema ${index.$schema}`);
  const names: string[] = [];
  for (const { name, type, url, digest } of index.skills) {
    const response = await fetch(new URL(url, indexUrl));
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (await sha256(bytes) !== digest) throw new Error(`${name}: digest mismatch`);
    const dir = `${into}/${name}`;
    Deno.mkdirSync(dir, { recursive: true });
    if (type === "skill-md") Deno.writeFileSync(`${dir}/SKILL.md`, bytes);
    else if (type === "archive") {
      Deno.writeFileSync(`${into}/${name}.artifact`, bytes);
      const r = new Deno.Command("tar", { args: ["-xzf", `${into}/${name}.artifact`, "-C", dir] })
        .outputSync();
      Deno.removeSync(`${into}/${name}.artifact`);
      if (!r.success) throw new Error(`${name}: ${new TextDecoder().decode(r.stderr)}`);
    } else continue;
    names.push(name);
  }
  return names;
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${dir}/${rel}`)) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(p);
      else out[p] = Deno.readTextFileSync(`${dir}/${p}`);
    }
  };
  walk("");
  return out;
}

Deno.test("[IO-2] hub publish's index is read by a client that knows only the RFC's fields: it installs both skills (skill-md and archive)", async () => {
  const src = sources();
  const work = makeTree({ "home/skills/.keep": "", "other/skills/.keep": "" });
  const pub = await publishTo(`${work}/home`, src, `${work}/site`);
  equal(pub.code, 0, pub.stderr);
  const served = serveFolder(`${work}/site`);
  try {
    const names = await rfcClient(`${served.base}${V02_DIR}/index.json`, `${work}/other/skills`);
    deepEqual(names, ["alpha", "beta"]);
    deepEqual(tree(`${work}/other/skills/alpha`), tree(`${src}/alpha`));
    deepEqual(tree(`${work}/other/skills/beta`), tree(`${src}/tools/beta`));
    const list = await cliJson(["--home", `${work}/other`, "list"]);
    deepEqual(
      (list.json.skills as { name: string; description: string }[]).map((
        s,
      ) => [s.name, s.description]),
      [
        ["alpha", "Alpha does things"],
        ["beta", "Beta does other things"],
      ],
    );
    // With --base-url the URLs are absolute, and that client reads them too.
    const base = await publishTo(`${work}/home`, src, `${work}/site`, "--base-url", served.base);
    equal(base.code, 0, base.stderr);
    const raw = JSON.parse(Deno.readTextFileSync(`${work}/site${V02_DIR}/index.json`));
    deepEqual(raw.skills.map((s: { url: string }) => s.url), [
      `${served.base}${V02_DIR}/alpha.tar.gz`,
      `${served.base}${V02_DIR}/beta/SKILL.md`,
    ]);
    removeTrees(`${work}/other/skills`);
    deepEqual(await rfcClient(`${served.base}${V02_DIR}/index.json`, `${work}/other/skills`), [
      "alpha",
      "beta",
    ]);
  } finally {
    await served.close();
    removeTrees(src, work);
  }
});

Deno.test("[IO-2] an index by hub publish and one by an RFC-following generator install the same way", async () => {
  const src = sources();
  const work = makeTree({ "a/skills/.keep": "", "b/skills/.keep": "" });
  const pub = await publishTo(`${work}/a`, src, `${work}/ours`);
  equal(pub.code, 0, pub.stderr);
  writeV02Site({
    alpha: { files: tree(`${src}/alpha`) },
    beta: { files: tree(`${src}/tools/beta`) },
  }, `${work}/theirs`);
  const ours = serveFolder(`${work}/ours`);
  const theirs = serveFolder(`${work}/theirs`);
  try {
    const hashes = [];
    for (const [home, site] of [[`${work}/a`, ours], [`${work}/b`, theirs]] as const) {
      for (const name of ["alpha", "beta"]) {
        const r = await installFromIndex(home, name, site.base);
        equal(r.code, 0, r.stderr);
        deepEqual([r.json.trust_level, r.json.warnings], ["community", []]);
      }
      const lock = JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
      hashes.push(["alpha", "beta"].map((n) => lock.installed[n].content_hash));
    }
    deepEqual(hashes[0], hashes[1]);
    deepEqual(tree(`${work}/a/skills/alpha`), tree(`${work}/b/skills/alpha`));
  } finally {
    await ours.close();
    await theirs.close();
    removeTrees(src, work);
  }
});

Deno.test("[IO-2][T-2] a signed v0.2.0 publish: the signature covers the exact bytes of index.json; installs trusted; the same content in other bytes is refused", async () => {
  const src = sources();
  const work = makeTree({ "home/skills/.keep": "" });
  const home = `${work}/home`;
  const key = await cli(["--home", home, "hub", "keygen", "--out", `${work}/k`]);
  const line = key.stdout.trim();
  Deno.writeTextFileSync(
    `${home}/config.yaml`,
    `skills:\n  hub:\n    trusted_keys:\n      team: "${line}"\n`,
  );
  const served = serveFolder(`${work}/site`);
  try {
    const sign = ["--sign", `${work}/k`, "--base-url", served.base];
    const pub = await publishTo(home, src, `${work}/site`, ...sign);
    equal(pub.code, 0, pub.stderr);
    const file = `${work}/site${V02_DIR}/index.json`;
    const bytes = Deno.readFileSync(file);
    const sig = Deno.readTextFileSync(`${file}.sig`);
    deepEqual(await verifySignature(bytes, sig, { team: line }, "i"), { key: line, label: "team" });
    // The signed bytes name the site: an extra top-level field other clients ignore.
    equal(JSON.parse(new TextDecoder().decode(bytes)).site, served.base);
    // Other clients read the signed index as any other: the signature is beside it.
    deepEqual(await rfcClient(`${served.base}${V02_DIR}/index.json`, makeTree({})), [
      "alpha",
      "beta",
    ]);
    const a = await installFromIndex(home, "alpha", served.base);
    equal(a.code, 0, a.stderr);
    deepEqual([a.json.trust_level, a.json.signed_by], ["trusted", "team"]);
    // The same document written in other bytes (compact JSON): the signature no longer holds.
    Deno.writeTextFileSync(file, JSON.stringify(JSON.parse(new TextDecoder().decode(bytes))));
    const b = await installFromIndex(home, "beta", served.base);
    deepEqual([b.code, b.json.error], [
      1,
      `Refusing '${served.base}${V02_DIR}/index.json': its signature does not verify (the index or its signature was changed).`,
    ]);
    ok(!Deno.readDirSync(`${home}/skills`).some((e) => e.name === "beta"));
  } finally {
    await served.close();
    removeTrees(src, work);
  }
});

Deno.test("[IO-2] the same skills published twice give the same index bytes; a skill's artifact type follows its files", async () => {
  const work = makeTree({ "home/skills/.keep": "", "src/one/SKILL.md": skill("one", "One file") });
  const publish = (out: string) => publishTo(`${work}/home`, `${work}/src`, `${work}/${out}`);
  try {
    equal((await publish("s1")).code, 0);
    equal((await publish("s2")).code, 0);
    const text = (out: string) => Deno.readTextFileSync(`${work}/${out}${V02_DIR}/index.json`);
    equal(text("s1"), text("s2"));
    deepEqual(JSON.parse(text("s1")).skills.map((s: { type: string }) => s.type), ["skill-md"]);
  } finally {
    removeTrees(work);
  }
});
