import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { verifyAgainstIndex } from "../../src/hub/well_known.ts";
import { sha256Hex } from "../../src/hash/sha256.ts";
import { indexUrl, matchSkills, parseIndex, skillDigest } from "../../src/hub/well_known_index.ts";
import { parseSource } from "../../src/hub/source.ts";
import { downloadLine, formatBytes } from "../../src/hub/progress.ts";
import { cliJson, makeTree, REPO, snapshot, tempDir, usageGrant } from "../helpers.ts";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";

const enc = new TextEncoder();
const hex = (text: string) => sha256Hex(enc.encode(text));

Deno.test("[HUB-1] well-known index: the skill digest of the discovery draft's worked example", () => {
  const files = [
    { path: "scripts/run.sh", hex: hex("#!/bin/sh\n") },
    { path: "SKILL.md", hex: hex("# Hello\n") },
  ];
  equal(files[1].hex, "90f8ec5669cd34183b9b0fdf8b94f5efb4c3672876330f4aa76088c2b4ad17be");
  equal(
    skillDigest(files),
    "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e",
  );
});

Deno.test("[HUB-1] well-known index: parsing, versions, unsafe entries skipped with a reason", () => {
  equal(indexUrl("https://ex.test"), "https://ex.test/.well-known/agent-skills/index.json");
  equal(
    indexUrl("https://ex.test/docs/"),
    "https://ex.test/docs/.well-known/agent-skills/index.json",
  );
  equal(indexUrl("http://h:1/i.json"), "http://h:1/i.json");
  throws(() => indexUrl("ftp://h/x"), {
    message: "Index 'ftp://h/x' is not an http(s) URL.",
  });
  const d = `sha256:${"a".repeat(64)}`;
  const doc = parseIndex(
    JSON.stringify({
      version: "0.2.0",
      skills: [
        {
          name: "good",
          description: "Good one",
          digest: d,
          files: [{ path: "SKILL.md", digest: d }],
        },
        { name: "climb", description: "x", files: [{ path: "../etc/passwd", digest: d }] },
        { name: "abs", description: "x", files: [{ path: "/SKILL.md", digest: d }] },
        { name: "nomd", description: "x", files: [{ path: "README.md", digest: d }] },
        { name: "Bad--Name", description: "x", files: [{ path: "SKILL.md" }] },
        { name: "twice", description: "once", files: [{ path: "SKILL.md" }] },
        { name: "twice", description: "twice", files: [{ path: "SKILL.md" }] },
      ],
    }),
    "u",
  );
  deepEqual(doc.skills.map((s) => s.name), ["good"]);
  deepEqual(doc.problems, [
    "Skipped 'twice' of 'u': 2 entries name it, so none is kept.",
    `Skipped an entry of 'u': 'climb' lists an unsafe file path "../etc/passwd".`,
    `Skipped an entry of 'u': 'abs' lists an unsafe file path "/SKILL.md".`,
    "Skipped an entry of 'u': 'nomd' lists no SKILL.md.",
    `Skipped an entry of 'u': name "Bad--Name" is not a valid skill name.`,
  ]);
  // A v0.1 index: no version, files as plain strings.
  const old = parseIndex(
    JSON.stringify({ skills: [{ name: "old", description: "d", files: ["SKILL.md"] }] }),
    "u",
  );
  deepEqual([old.version, old.skills[0].files], ["0.1.0", [{ path: "SKILL.md" }]]);
  throws(() => parseIndex(`{"version":"1.0.0","skills":[]}`, "u"), {
    message: "Index 'u' has version '1.0.0', which this skillrt does not know.",
  });
  throws(() => parseIndex("[", "u"), { message: "Index 'u' is not valid JSON." });
  deepEqual(
    matchSkills(doc.skills, "GOOD one").map((s) => s.name),
    ["good"],
  );
  deepEqual(matchSkills(doc.skills, "good two"), []);
});

Deno.test("[HUB-1] well-known sources: a bare name with indexes, an index URL with #name", () => {
  const i = "http://127.0.0.1:5/.well-known/agent-skills/index.json";
  deepEqual(parseSource("pdf-tools", undefined, [i]), {
    kind: "well-known",
    name: "pdf-tools",
    indexes: [i],
    hosts: ["127.0.0.1:5"],
  });
  deepEqual(parseSource(`${i}#pdf-tools`), {
    kind: "well-known",
    name: "pdf-tools",
    indexes: [i],
    hosts: ["127.0.0.1:5"],
  });
  // Without an index a bare name is no source: a local folder is spelled as a path ([IO-5]).
  throws(() => parseSource("pdf-tools"), /is not a source: spell a local folder/);
  deepEqual(parseSource("./pdf-tools"), { kind: "local", path: "./pdf-tools" });
});

Deno.test("[HUB-7] progress lines", () => {
  deepEqual([formatBytes(512), formatBytes(1536), formatBytes(3 * 1024 * 1024)], [
    "512 B",
    "1.5 KiB",
    "3.0 MiB",
  ]);
  equal(
    downloadLine("http://h/a.zip", 2048, 4096),
    "Downloading http://h/a.zip: 2.0 KiB of 4.0 KiB",
  );
});

interface Served {
  [path: string]: Uint8Array;
}

async function tarGz(files: Record<string, string>): Promise<Uint8Array> {
  const dir = makeTree(files);
  const out = `${tempDir()}/p.tar.gz`;
  const r = await new Deno.Command("tar", { args: ["-czf", out, "-C", dir, ...Object.keys(files)] })
    .output();
  equal(r.success, true);
  return Deno.readFileSync(out);
}

function entry(name: string, description: string, files: Record<string, string>) {
  const list = [];
  for (const [path, text] of Object.entries(files)) {
    list.push({ path, digest: `sha256:${hex(text)}`, hex: hex(text) });
  }
  return {
    name,
    description,
    digest: skillDigest(list),
    files: list.map(({ path, digest }) => ({ path, digest })),
  };
}

const PDF = {
  "SKILL.md": "---\nname: pdf-tools\ndescription: Work with PDF files\n---\n\nUse it.\n",
  "references/forms.md": "# Forms\n",
};
const PACKED = { "SKILL.md": "---\nname: packed\ndescription: Comes as a package\n---\n\nBody.\n" };

Deno.test("[HUB-1][HUB-2][HUB-6] a well-known index on 127.0.0.1: search, install by name (files and package), digests enforced, check", async () => {
  const served: Served = {};
  let index: Record<string, unknown> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/.well-known/agent-skills/index.json") return Response.json(index);
    const body = served[path];
    return body ? new Response(body.slice()) : new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const url = `${base}/.well-known/agent-skills/index.json`;
  const put = (skill: string, files: Record<string, string>) => {
    for (const [p, t] of Object.entries(files)) {
      served[`/.well-known/agent-skills/${skill}/${p}`] = enc.encode(t);
    }
  };
  try {
    put("pdf-tools", PDF);
    const pkg = await tarGz(PACKED);
    served["/.well-known/agent-skills/packed.tar.gz"] = pkg;
    const packed = {
      ...entry("packed", "Comes as a package", PACKED),
      package: { url: "packed.tar.gz", digest: `sha256:${sha256Hex(pkg)}` },
    };
    index = {
      version: "0.2.0",
      skills: [entry("pdf-tools", "Work with PDF files", PDF), packed],
    };
    const home = makeTree({
      "skills/.keep": "",
      "config.yaml": `skills:\n  hub:\n    indexes:\n      - ${base}\n`,
    });
    const search = await cliJson(["--home", home, "hub", "search", "pdf"]);
    equal(search.code, 0, search.stderr);
    deepEqual(search.json.results, [{
      name: "pdf-tools",
      description: "Work with PDF files",
      index: url,
      files: 2,
      package: false,
    }]);
    const plan = (await cliJson(["--home", home, "sandbox", "hub", "install", "pdf-tools"])).json
      .plan as Record<string, string[]>;
    deepEqual(plan.net, [`127.0.0.1:${server.addr.port}`]);
    const spelled = await cliJson([
      "--home",
      home,
      "sandbox",
      "hub",
      "install",
      `${url}#pdf-tools`,
    ]);
    deepEqual(
      (spelled.json.plan as Record<string, string[]>).write,
      [
        `${home}/skills/.hub`,
        ...usageGrant(home), // the install records its provenance ([U-1]: created_by hub)
        `${home}/skills/pdf-tools`,
      ].sort(),
    );
    ok(
      !(spelled.json.plan as Record<string, string[]>).read.some((p) => p.includes("agent-skills")),
    );
    ok(
      String(spelled.json.deno_command).endsWith(` ${REPO}/main.ts hub install '${url}#pdf-tools'`),
    );

    const r = await cliJson(["--home", home, "hub", "install", "pdf-tools", "--yes"]);
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.name, r.json.trust_level, r.json.warnings], ["pdf-tools", "community", []]);
    equal(Deno.readTextFileSync(`${home}/skills/pdf-tools/references/forms.md`), "# Forms\n");
    const lock = JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
    equal(lock.installed["pdf-tools"].identifier, `${url}#pdf-tools`);

    const p = await cliJson(["--home", home, "hub", "install", "packed", "--yes"]);
    equal(p.code, 0, p.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/packed/SKILL.md`), PACKED["SKILL.md"]);

    const check = await cliJson(["--home", home, "hub", "check"]);
    deepEqual((check.json.skills as { status: string }[]).map((s) => s.status), [
      "up_to_date",
      "up_to_date",
    ]);
    // The publisher changes a file and its digests: an update is available.
    const v2 = { ...PDF, "references/forms.md": "# Forms v2\n" };
    put("pdf-tools", v2);
    index = {
      version: "0.2.0",
      skills: [entry("pdf-tools", "Work with PDF files", v2), packed],
    };
    const again = await cliJson(["--home", home, "hub", "check", "pdf-tools"]);
    equal((again.json.skills as { status: string }[])[0].status, "update_available");
    const up = await cliJson(["--home", home, "hub", "update", "pdf-tools", "--yes"]);
    equal(up.code, 0, up.stderr);
    equal(Deno.readTextFileSync(`${home}/skills/pdf-tools/references/forms.md`), "# Forms v2\n");

    // A file that does not match its digest: refused, nothing changes.
    const home2 = makeTree({ "skills/.keep": "" });
    put("pdf-tools", { ...v2, "references/forms.md": "# Tampered\n" });
    const before = snapshot(home2);
    const bad = await cliJson([
      "--home",
      home2,
      "hub",
      "install",
      "pdf-tools",
      "--index",
      base,
      "--yes",
    ]);
    equal(bad.code, 1);
    equal(bad.json.success, false);
    equal(bad.json.error, "Refusing 'pdf-tools': 'references/forms.md' does not match its digest.");
    equal(snapshot(home2), before);

    // A package on another host than the index: refused (the plan grants only the index's host).
    index = {
      version: "0.2.0",
      skills: [{
        ...packed,
        package: {
          ...packed.package,
          url: `http://localhost:${server.addr.port}/.well-known/agent-skills/packed.tar.gz`,
        },
      }],
    };
    const other = await cliJson([
      "--home",
      home2,
      "hub",
      "install",
      "packed",
      "--index",
      base,
      "--yes",
    ]);
    equal(other.code, 1);
    equal(
      other.json.error,
      `Refusing 'http://localhost:${server.addr.port}/.well-known/agent-skills/packed.tar.gz': it is not on the index's host '127.0.0.1:${server.addr.port}'.`,
    );
    const missing = await cliJson([
      "--home",
      home2,
      "hub",
      "install",
      "nothing-here",
      "--index",
      base,
      "--yes",
    ]);
    equal(missing.json.error, `No skill 'nothing-here' in the index: ${url}.`);
    ok(!missing.stderr.includes("    at "));
  } finally {
    await server.shutdown();
  }
});

Deno.test("[HUB-1] hub search without an index is a usage error (exit 2)", async () => {
  const home = makeTree({ "skills/.keep": "" });
  const r = await cliJson(["--home", home, "hub", "search", "pdf"]);
  equal(r.code, 2);
  equal(
    r.json.error,
    "No well-known index to search: pass --index URL or set skills.hub.indexes in config.yaml.",
  );
});

/** Runs the CLI with stdout and stderr on a real pty (script(1)); returns what the pty showed. */
async function underPty(args: string[]): Promise<string> {
  const home = makeTree({ "skills/.keep": "" });
  const argv = [
    Deno.execPath(),
    "run",
    ...WARDEN_FLAGS,
    `${REPO}/main.ts`,
    "--home",
    home,
    ...args,
  ];
  const line = argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  equal(out.code, 0, text);
  return text;
}

Deno.test("[HUB-7] progress on stderr only when it is a terminal (a real pty from script(1))", async () => {
  const pkg = await tarGz(PACKED);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(pkg.slice()),
  );
  const source = `http://127.0.0.1:${server.addr.port}/files/packed.tar.gz`;
  try {
    const quiet = await cliJson([
      "--home",
      makeTree({ "skills/.keep": "" }),
      "hub",
      "install",
      source,
      "--yes",
    ]);
    equal(quiet.code, 0, quiet.stderr);
    equal(quiet.stderr, "");
    const text = await underPty(["hub", "install", source, "--yes"]);
    ok(text.includes(`Downloading ${source}: `), text);
    ok(text.includes("Scanned 'packed': safe, 0 findings."), text);
    ok(text.includes("Installed 'packed' at packed (community, safe)."), text);
    // A git clone is a download too.
    const repo = makeTree({ "SKILL.md": PACKED["SKILL.md"].replace("packed", "cloned") });
    for (
      const args of [["init", "-q", "-b", "main"], ["add", "."], ["commit", "-qm", "v1"]]
    ) {
      const r = await new Deno.Command("git", {
        args: ["-c", "user.name=t", "-c", "user.email=t@e", ...args],
        cwd: repo,
      }).output();
      equal(r.success, true);
    }
    const cloned = await underPty([
      "hub",
      "install",
      `git+file://${repo}#main`,
      "--name",
      "cloned",
      "--yes",
    ]);
    ok(cloned.includes(`Cloning file://${repo} at main: done.`), cloned);
  } finally {
    await server.shutdown();
  }
});

Deno.test("[HUB-1] files checked against the index: v0.1 warns, a missing file refuses", () => {
  const data = enc.encode("# Hi\n");
  const old = { name: "old", description: "d", files: [{ path: "SKILL.md" }] };
  deepEqual(verifyAgainstIndex(old, [{ path: "SKILL.md", data }]), [
    "'old' comes from an index without file digests; its integrity is unverified.",
  ]);
  const two = { ...old, files: [{ path: "SKILL.md" }, { path: "a.md" }] };
  throws(() => verifyAgainstIndex(two, [{ path: "SKILL.md", data }]), {
    message: "Refusing 'old': 'a.md' is missing.",
  });
  const wrongSkill = {
    ...old,
    digest: `sha256:${"0".repeat(64)}`,
    files: [{ path: "SKILL.md", digest: `sha256:${sha256Hex(data)}` }],
  };
  throws(() => verifyAgainstIndex(wrongSkill, [{ path: "SKILL.md", data }]), {
    message: "Refusing 'old': the files do not match the skill digest.",
  });
});
