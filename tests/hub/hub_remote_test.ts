import { deepEqual, equal, ok } from "node:assert/strict";
import { parseSource } from "../../src/hub/source.ts";
import { assertAbsent, cliJson, makeTree, REPO, tempDir } from "../helpers.ts";
import { commitAll, git } from "./git_helpers.ts";

async function archive(kind: string, ext: string): Promise<Uint8Array<ArrayBuffer>> {
  const out = `${tempDir()}/a.${ext}`;
  const r = await new Deno.Command("python3", {
    args: [`${REPO}/tests/fixtures/make_archive.py`, kind, out],
  }).output();
  equal(r.success, true);
  return Deno.readFileSync(out);
}

Deno.test("[HUB-1] source strings", () => {
  deepEqual(parseSource("git+https://h.example/a/b.git#v1//skills/x"), {
    kind: "git",
    url: "https://h.example/a/b.git",
    ref: "v1",
    subpath: "skills/x",
    host: "h.example",
  });
  deepEqual(parseSource("git+file:///tmp/repo#main"), {
    kind: "git",
    url: "file:///tmp/repo",
    ref: "main",
    subpath: undefined,
  });
  deepEqual(parseSource("https://h.example/r.git//sub"), {
    kind: "git",
    url: "https://h.example/r.git",
    ref: undefined,
    subpath: "sub",
    host: "h.example",
  });
  deepEqual(parseSource("http://127.0.0.1:8/p/t.tgz"), {
    kind: "http",
    url: "http://127.0.0.1:8/p/t.tgz",
    host: "127.0.0.1:8",
  });
  deepEqual(parseSource("anthropics/skills/skills/pdf@main", "http://127.0.0.1:9"), {
    kind: "github",
    owner: "anthropics",
    repo: "skills",
    path: "skills/pdf",
    ref: "main",
    url: "http://127.0.0.1:9/repos/anthropics/skills/tarball/main",
    api: "http://127.0.0.1:9",
    host: "127.0.0.1:9",
    hosts: ["127.0.0.1:9"],
  });
  deepEqual(parseSource("./x"), { kind: "local", path: "./x" });
});

Deno.test("[HUB-1][HUB-5] http archives and GitHub-style tarballs from a real server on 127.0.0.1; net only to that host", async () => {
  const tgz = await archive("good-tgz", "tar.gz");
  const zip = await archive("good-zip", "zip");
  // A GitHub-style tarball: one top folder, the skill under a path.
  const gh = `${tempDir()}/gh`;
  Deno.mkdirSync(`${gh}/anthropics-skills-abc123/skills/packed`, { recursive: true });
  Deno.writeTextFileSync(
    `${gh}/anthropics-skills-abc123/skills/packed/SKILL.md`,
    "---\nname: packed\ndescription: From GitHub\n---\n\nBody.\n",
  );
  const ghTar = `${gh}.tar.gz`;
  equal(
    (await new Deno.Command("tar", { args: ["-czf", ghTar, "-C", gh, "anthropics-skills-abc123"] })
      .output()).success,
    true,
  );
  const big = new Uint8Array(11 * 1024 * 1024);
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    if (path === "/files/packed.tar.gz") return new Response(tgz);
    if (path === "/files/packed.zip") return new Response(zip);
    if (path === "/files/huge.tar.gz") return new Response(big);
    if (path === "/repos/anthropics/skills/tarball/main") {
      return new Response(Deno.readFileSync(ghTar));
    }
    return new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const ext of ["tar.gz", "zip"]) {
      const home = makeTree({ "skills/.keep": "" });
      const r = await cliJson([
        "--home",
        home,
        "hub",
        "install",
        `${base}/files/packed.${ext}`,
        "--yes",
      ]);
      equal(r.code, 0, r.stderr);
      deepEqual([r.json.name, r.json.trust_level], ["packed", "community"]);
    }
    const home = makeTree({
      "skills/.keep": "",
      "config.yaml": `skills:\n  hub:\n    github_base: ${base}\n`,
    });
    const plan = (await cliJson([
      "--home",
      home,
      "sandbox",
      "hub",
      "install",
      "anthropics/skills/skills/packed@main",
    ])).json.plan as Record<string, string[]>;
    deepEqual(plan.net, [`127.0.0.1:${server.addr.port}`]);
    deepEqual(plan.run, []);
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      "anthropics/skills/skills/packed@main",
      "--yes",
    ]);
    equal(r.code, 0, r.stderr);
    deepEqual([r.json.name, r.json.trust_level], ["packed", "trusted"]);
    equal(
      JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`)).installed.packed.source,
      "anthropics/skills/skills/packed@main",
    );
    const huge = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `${base}/files/huge.tar.gz`,
      "--yes",
    ]);
    equal(huge.json.error, "Refusing the archive: the download passed 10485760 bytes.");
    const missing = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `${base}/files/nope.tar.gz`,
      "--yes",
    ]);
    equal(missing.json.error, `Cannot download '${base}/files/nope.tar.gz': HTTP 404.`);
    ok(seen.includes("/repos/anthropics/skills/tarball/main"));
  } finally {
    await server.shutdown();
  }
});

Deno.test("[HUB-1] a git repository made in a temp folder, with #ref and //subpath; the plan runs only git", async () => {
  const repo = makeTree({
    "skills/tool/SKILL.md": "---\nname: tool\ndescription: From git\n---\n\nv1\n",
  });
  commitAll(repo);
  git(repo, "tag", "v1");
  Deno.writeTextFileSync(
    `${repo}/skills/tool/SKILL.md`,
    "---\nname: tool\ndescription: From git\n---\n\nv2\n",
  );
  git(repo, "commit", "-q", "-am", "v2");
  const home = makeTree({ "skills/.keep": "" });
  const source = `git+file://${repo}#v1//skills/tool`;
  const plan = (await cliJson(["--home", home, "sandbox", "hub", "install", source])).json
    .plan as Record<string, string[]>;
  deepEqual([plan.run, plan.net], [["git"], []]);
  const r = await cliJson(["--home", home, "hub", "install", source, "--yes"]);
  equal(r.code, 0, r.stderr);
  deepEqual([r.json.name, r.json.trust_level], ["tool", "community"]);
  ok(Deno.readTextFileSync(`${home}/skills/tool/SKILL.md`).includes("v1"));
  assertAbsent(`${home}/skills/tool/.git`);
  assertAbsent(`${home}/skills/.hub/quarantine`, "no scratch folder is left");
  const bad = await cliJson([
    "--home",
    home,
    "hub",
    "install",
    `git+file://${repo}#nope`,
    "--yes",
    "--name",
    "x",
  ]);
  equal(bad.code, 1);
  ok(
    (bad.json.error as string).startsWith(`git clone of 'file://${repo}' failed:`),
    bad.json.error as string,
  );
});
