/**
 * [IO-1] The final Agent Skills discovery index (v0.2.0), v0.1 at both paths, and the
 * refusals: sites written by an RFC-following generator (`discovery_index.ts`) with real
 * `.tar.gz` and `.zip` artifacts (the system's `tar` and `zip`) and a bare SKILL.md,
 * served from 127.0.0.1.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { sha256Hex } from "../../src/hash/sha256.ts";
import { cliJson, makeTree, removeTrees, skill, snapshot } from "../helpers.ts";
import { installFromIndex, serveFolder } from "./site_helpers.ts";
import {
  archiveOf,
  SCHEMA_V02,
  V01_DIR,
  V02_DIR,
  writeV01Site,
  writeV02Site,
} from "./discovery_index.ts";

/** True when the system's `zip` runs (the tests that need a real .zip are ignored without it). */
const HAS_ZIP = (() => {
  try {
    return new Deno.Command("zip", { args: ["-v"], stdout: "null" }).outputSync().success;
  } catch {
    return false; // not installed
  }
})();
/** Said in a test's name when it is ignored for want of `zip`. */
const NEEDS_ZIP = HAS_ZIP ? "" : " (ignored: the system's zip program is not installed)";

const STYLE = { "SKILL.md": skill("code-style", "Keep code in the house style") };
const DEPLOY = {
  "SKILL.md": skill("deploy-kit", "Deploy the site with the kit"),
  "scripts/deploy.sh": "#!/bin/sh\necho deploying\n",
  "references/steps.md": "# Steps\n\nBuild, then upload.\n",
};
const FORMS = {
  "SKILL.md": skill("form-filler", "Fill in PDF forms"),
  "references/FORMS.md": "# Forms\n\nField by field.\n",
};

/** A home with nothing installed. */
const newHome = () => makeTree({ "skills/.keep": "" });

function installed(home: string, name: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    equal(Deno.readTextFileSync(`${home}/skills/${name}/${path}`), text, `${name}/${path}`);
  }
}

Deno.test({
  name:
    "[IO-1] a v0.2.0 index by an RFC-following generator: search and install a skill-md, a .tar.gz and a .zip artifact (path, relative and absolute URLs); unknown fields ignored, an unknown type skipped" +
    NEEDS_ZIP,
  ignore: !HAS_ZIP,
  fn: async () => {
    const site = makeTree({});
    const served = serveFolder(site);
    try {
      const { index } = writeV02Site({
        "code-style": { files: STYLE },
        "deploy-kit": { files: DEPLOY, url: "relative" },
        "form-filler": { files: FORMS, archive: "zip", url: served.base },
      }, site);
      // Fields the RFC does not define are ignored; an entry of a type it does not define is skipped.
      const doc = {
        ...index,
        publisher: { name: "Example" },
        skills: [
          ...index.skills.map((e) => ({ ...e, "x-mirror": "https://elsewhere.test/" })),
          { ...index.skills[0], name: "plug-in", type: "plugin" },
        ],
      };
      makeTree({ [`${V02_DIR.slice(1)}/index.json`]: JSON.stringify(doc) }, site);
      const url = `${served.base}${V02_DIR}/index.json`;
      const home = newHome();
      const search = await cliJson(["--home", home, "hub", "search", "", "--index", served.base]);
      equal(search.code, 0, search.stderr);
      deepEqual(search.json.results, [
        {
          name: "code-style",
          description: "Keep code in the house style",
          index: url,
          files: 1,
          package: false,
          type: "skill-md",
        },
        {
          name: "deploy-kit",
          description: "Deploy the site with the kit",
          index: url,
          files: 0,
          package: true,
          type: "archive",
        },
        {
          name: "form-filler",
          description: "Fill in PDF forms",
          index: url,
          files: 0,
          package: true,
          type: "archive",
        },
      ]);
      deepEqual(search.json.problems, [
        `Skipped an entry of '${url}': 'plug-in' has the unknown type "plugin".`,
      ]);
      for (
        const [name, files] of [["code-style", STYLE], ["deploy-kit", DEPLOY], [
          "form-filler",
          FORMS,
        ]] as const
      ) {
        const r = await installFromIndex(home, name, served.base);
        equal(r.code, 0, r.stderr);
        deepEqual([r.json.name, r.json.trust_level, r.json.warnings], [name, "community", []]);
        installed(home, name, files);
      }
      const lock = JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
      equal(lock.installed["form-filler"].identifier, `${url}#form-filler`);
      const check = await cliJson(["--home", home, "hub", "check"]);
      deepEqual((check.json.skills as { status: string }[]).map((s) => s.status), [
        "up_to_date",
        "up_to_date",
        "up_to_date",
      ]);
      // The publisher ships a new .zip (a new digest) at a URL without an extension: the
      // format is told by its first bytes; check sees the update and update installs it.
      const v2 = { ...FORMS, "references/FORMS.md": "# Forms\n\nField by field, then sign.\n" };
      const zip = archiveOf(v2, "zip");
      makeTree({ "dl/form-filler": zip }, site);
      const entry = {
        ...index.skills[2],
        url: `${served.base}/dl/form-filler`,
        digest: `sha256:${sha256Hex(zip)}`,
      };
      const newer = { ...doc, skills: [index.skills[0], index.skills[1], entry] };
      makeTree({ [`${V02_DIR.slice(1)}/index.json`]: JSON.stringify(newer) }, site);
      const again = await cliJson(["--home", home, "hub", "check", "form-filler"]);
      deepEqual(again.json.skills, [{ name: "form-filler", status: "update_available" }]);
      const up = await cliJson(["--home", home, "hub", "update", "form-filler", "--yes"]);
      equal(up.code, 0, up.stderr);
      installed(home, "form-filler", v2);
    } finally {
      await served.close();
      removeTrees(site);
    }
  },
});

/** Runs an install that must be refused with `error`, and shows that it changed nothing. */
async function refused(home: string, args: string[], error: string): Promise<void> {
  const before = snapshot(home);
  const r = await cliJson(["--home", home, "hub", "install", ...args, "--yes"]);
  deepEqual([r.code, r.json.success, r.json.error], [1, false, error]);
  ok(!r.stderr.includes("    at "), r.stderr);
  equal(snapshot(home), before);
}

Deno.test({
  name:
    "[IO-1][HUB-2] each artifact is checked against its digest before it is used: a changed SKILL.md, .tar.gz or .zip is refused with nothing written; archive refusals and URLs off the index's origin" +
    NEEDS_ZIP,
  ignore: !HAS_ZIP,
  fn: async () => {
    const site = makeTree({});
    const served = serveFolder(site);
    const wk = `${site}${V02_DIR}`;
    try {
      const { index } = writeV02Site({
        "code-style": { files: STYLE },
        "deploy-kit": { files: DEPLOY },
        "form-filler": { files: FORMS, archive: "zip" },
      }, site);
      const home = newHome();
      const opts = ["--index", served.base];
      Deno.writeTextFileSync(
        `${wk}/code-style/SKILL.md`,
        skill("code-style", "Now something else"),
      );
      await refused(
        home,
        ["code-style", ...opts],
        "Refusing 'code-style': the SKILL.md does not match its digest.",
      );
      // A changed archive is refused by its digest — before it is read: this one even climbs out.
      const climbing = climbingTarGz();
      Deno.writeFileSync(`${wk}/deploy-kit.tar.gz`, climbing);
      await refused(
        home,
        ["deploy-kit", ...opts],
        "Refusing 'deploy-kit': the archive does not match its digest.",
      );
      const zip = Deno.readFileSync(`${wk}/form-filler.zip`);
      zip[zip.length - 30] ^= 1;
      Deno.writeFileSync(`${wk}/form-filler.zip`, zip);
      await refused(
        home,
        ["form-filler", ...opts],
        "Refusing 'form-filler': the archive does not match its digest.",
      );

      // An archive that matches its digest still meets the [HUB-2] refusals, and holds the skill at its root.
      const archived = (name: string, file: string, bytes: Uint8Array) => {
        Deno.writeFileSync(`${wk}/${file}`, bytes);
        const entry = {
          name,
          type: "archive",
          description: "x",
          url: file,
          digest: `sha256:${sha256Hex(bytes)}`,
        };
        Deno.writeTextFileSync(
          `${wk}/index.json`,
          JSON.stringify({ $schema: SCHEMA_V02, skills: [entry] }),
        );
      };
      archived("deploy-kit", "deploy-kit.tar.gz", climbing);
      await refused(
        home,
        ["deploy-kit", ...opts],
        "Refusing the archive: entry '../escape.md' climbs out with '..'.",
      );
      const nested = Object.fromEntries(
        Object.entries(FORMS).map(([p, t]) => [`form-filler/${p}`, t]),
      );
      archived("form-filler", "form-filler.zip", archiveOf(nested, "zip"));
      await refused(
        home,
        ["form-filler", ...opts],
        "Refusing 'form-filler': the archive has no SKILL.md at its root.",
      );

      // A url climbing out of the index's origin is refused by the source grammar (one on
      // another host is an artifact on a CDN: tests/hub/hub_discovery_cdn_test.ts).
      for (
        const [url, error] of [
          [
            "../../etc/SKILL.md",
            "Refusing 'code-style': its URL '../../etc/SKILL.md' climbs with a '.' or '..' segment.",
          ],
          [
            "code-style/%2e%2e/%2E%2E/SKILL.md",
            "Refusing 'code-style': its URL 'code-style/%2e%2e/%2E%2E/SKILL.md' climbs with a '.' or '..' segment.",
          ],
          [
            "code-style/SKILL.md#x",
            "Refusing 'code-style': its URL 'code-style/SKILL.md#x' has a '#' fragment.",
          ],
          [
            "file:///etc/passwd",
            "Refusing 'code-style': its URL 'file:///etc/passwd' is not https or http.",
          ],
        ]
      ) {
        const doc = { $schema: SCHEMA_V02, skills: [{ ...index.skills[0], url }] };
        Deno.writeTextFileSync(`${wk}/index.json`, JSON.stringify(doc));
        await refused(home, ["code-style", ...opts], error);
      }
    } finally {
      await served.close();
      removeTrees(site);
    }
  },
});

/** A real `.tar.gz` (the system's tar, `-P` keeping the name) whose second entry is `../escape.md`. */
function climbingTarGz(): Uint8Array {
  const dir = makeTree({ "in/SKILL.md": DEPLOY["SKILL.md"], "escape.md": "x\n" });
  const r = new Deno.Command("tar", {
    args: ["-czPf", `${dir}/out.tar.gz`, "SKILL.md", "../escape.md"],
    cwd: `${dir}/in`,
  }).outputSync();
  equal(r.success, true, new TextDecoder().decode(r.stderr));
  return Deno.readFileSync(`${dir}/out.tar.gz`);
}

Deno.test("[IO-1] an index with an unknown $schema is refused with a line naming it, for search and install; nothing written", async () => {
  const site = makeTree({});
  const served = serveFolder(site);
  try {
    const { index } = writeV02Site({ "code-style": { files: STYLE } }, site);
    const url = `${served.base}${V02_DIR}/index.json`;
    const home = newHome();
    const future = "https://schemas.agentskills.io/discovery/0.3.0/schema.json";
    for (
      const [schema, line] of [
        [
          future,
          `Index '${url}' has the $schema '${future}', which this skillrt does not know (it reads ${SCHEMA_V02}).`,
        ],
        [2, `Index '${url}' has an invalid $schema 2.`],
      ] as const
    ) {
      Deno.writeTextFileSync(
        `${site}${V02_DIR}/index.json`,
        JSON.stringify({ ...index, $schema: schema }),
      );
      const search = await cliJson([
        "--home",
        home,
        "hub",
        "search",
        "code",
        "--index",
        served.base,
      ]);
      deepEqual([search.code, search.json.error], [1, line]);
      await refused(home, ["code-style", "--index", served.base], line);
    }
  } finally {
    await served.close();
    removeTrees(site);
  }
});

Deno.test("[IO-1] v0.1 indexes: at /.well-known/skills/ when the site has none at /.well-known/agent-skills/, and at the v0.2.0 path without $schema; v0.2.0 is tried first", async () => {
  const v01only = writeV01Site({ "deploy-kit": DEPLOY });
  const v01here = writeV01Site({ "code-style": STYLE }, V02_DIR);
  const both = writeV01Site({ "code-style": { "SKILL.md": skill("code-style", "The old one") } });
  writeV02Site({ "code-style": { files: STYLE } }, both);
  const sites = [v01only, v01here, both].map(serveFolder);
  const [old, here, twice] = sites;
  try {
    const home = newHome();
    const search = async (base: string) => {
      const r = await cliJson(["--home", home, "hub", "search", "", "--index", base]);
      equal(r.code, 0, r.stderr);
      return r.json.results as Record<string, unknown>[];
    };
    deepEqual(await search(old.base), [{
      name: "deploy-kit",
      description: "Deploy the site with the kit",
      index: `${old.base}${V01_DIR}/index.json`,
      files: 3,
      package: false,
    }]);
    deepEqual((await search(here.base)).map((h) => [h.name, h.index]), [
      ["code-style", `${here.base}${V02_DIR}/index.json`],
    ]);
    deepEqual((await search(twice.base)).map((h) => [h.description, h.type]), [
      ["Keep code in the house style", "skill-md"],
    ]);
    const unverified = (name: string) => [
      `'${name}' comes from an index without file digests; its integrity is unverified.`,
    ];
    const a = await installFromIndex(home, "deploy-kit", old.base);
    equal(a.code, 0, a.stderr);
    deepEqual(a.json.warnings, unverified("deploy-kit"));
    installed(home, "deploy-kit", DEPLOY);
    // The v0.1 index spelled out, with #name: installed, and hub check fetches it again there.
    const spelled = (h: string, url: string) =>
      cliJson(["--home", h, "hub", "install", url, "--yes"]);
    const b = await spelled(home, `${here.base}${V02_DIR}/index.json#code-style`);
    equal(b.code, 0, b.stderr);
    installed(home, "code-style", STYLE);
    const home2 = newHome();
    const c = await spelled(home2, `${old.base}${V01_DIR}/index.json#deploy-kit`);
    equal(c.code, 0, c.stderr);
    for (const h of [home, home2]) {
      const check = await cliJson(["--home", h, "hub", "check"]);
      deepEqual(
        (check.json.skills as { status: string }[]).map((s) => s.status),
        h === home ? ["up_to_date", "up_to_date"] : ["up_to_date"],
      );
    }
    // A site with neither: one line naming both paths.
    const none = serveFolder(makeTree({}));
    sites.push(none);
    const missing = await cliJson(["--home", home, "hub", "search", "x", "--index", none.base]);
    deepEqual([missing.code, missing.json.error], [
      1,
      `Cannot download '${none.base}${V02_DIR}/index.json' (nor '${none.base}${V01_DIR}/index.json'): HTTP 404.`,
    ]);
  } finally {
    for (const s of sites) await s.close();
    removeTrees(v01only, v01here, both);
  }
});
