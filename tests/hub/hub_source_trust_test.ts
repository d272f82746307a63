/**
 * [HUB-1][HUB-5] A source cannot point anywhere and still be trusted: every part of a
 * source is checked against its grammar before it builds a URL, path or git argument, and
 * trust follows what was fetched (the URL the bytes came from), never the spelling.
 */
import { deepEqual, equal } from "node:assert/strict";
import { showControls } from "../../src/manage/file_names.ts";
import { sha256Hex } from "../../src/hash/sha256.ts";
import { commitAll } from "./git_helpers.ts";
import { repositoryOfUrl } from "../../src/hub/github.ts";
import { assertAbsent, cliJson, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { assertStartsWith } from "../asserts.ts";

const WK = ".well-known/agent-skills";

/** A GitHub-style tarball (one top folder `<owner>-<repo>-<sha>/`) holding one skill. */
async function tarball(top: string, body: string): Promise<Uint8Array> {
  const dir = tempDir();
  try {
    const at = `${dir}/${top}/skills/helper`;
    Deno.mkdirSync(at, { recursive: true });
    Deno.writeTextFileSync(`${at}/SKILL.md`, skill("helper", "Helps", "", body));
    const out = `${dir}.tar.gz`;
    const tar = await new Deno.Command("tar", { args: ["-czf", out, "-C", dir, top] }).output();
    equal(tar.success, true);
    const bytes = Deno.readFileSync(out);
    Deno.removeSync(out);
    return bytes;
  } finally {
    removeTrees(dir);
  }
}

/**
 * A GitHub-like API on 127.0.0.1: the trusted repository's tarball and an evil one's, and
 * `/repos/anthropics/skills/tarball/moved` redirecting to the evil repository.
 */
async function githubLike() {
  const good = await tarball("anthropics-skills-1111111", "The real one.\n");
  const evil = await tarball("evil-repo-2222222", "Evil one.\n");
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    if (path === "/repos/anthropics/skills/tarball/main") return new Response(good.slice());
    if (path === "/repos/evil/repo/tarball/main") return new Response(evil.slice());
    if (path === "/repos/anthropics/skills/tarball/moved") {
      return Response.redirect(new URL("/repos/evil/repo/tarball/main", req.url), 302);
    }
    if (path === "/repos/anthropics/skills/tarball/renamed") {
      return Response.redirect(new URL("/repos/Anthropics/Skills/tarball/main", req.url), 301);
    }
    if (path === "/repos/Anthropics/Skills/tarball/main") return new Response(good.slice());
    return new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": `skills:\n  hub:\n    github_base: ${base}\n`,
  });
  const install = (source: string, ...extra: string[]) =>
    cliJson(["--home", home, "hub", "install", source, "--name", "helper", "--yes", ...extra]);
  return {
    base,
    home,
    seen,
    install,
    close: async () => {
      await server.shutdown();
      removeTrees(home);
    },
  };
}

Deno.test("[HUB-1][HUB-5] a ref that climbs out of the tarball URL is refused before anything is fetched, never installed as trusted", async () => {
  const gh = await githubLike();
  try {
    const attack = await gh.install("anthropics/skills@../../../evil/repo/tarball/main");
    equal(attack.code, 1, attack.stdout);
    equal(
      attack.json.error,
      "Source 'anthropics/skills@../../../evil/repo/tarball/main': the ref '../../../evil/repo/tarball/main' is not a valid git ref.",
    );
    assertAbsent(`${gh.home}/skills/helper`);
    assertAbsent(`${gh.home}/skills/.hub/lock.json`);
    deepEqual(gh.seen, [], "nothing was fetched");
    // The same, percent-encoded, and through the path instead of the ref: refused alike.
    for (
      const [source, part] of [
        ["anthropics/skills@%2e%2e/%2e%2e/%2e%2e/evil/repo/tarball/main", "ref"],
        ["anthropics/skills@main/..", "ref"],
        ["anthropics/skills@-main", "ref"],
        ["anthropics/skills/../../../evil/repo@main", "path"],
        ["anthropics/skills/%2e%2e@main", "path"],
        ["anthropics/sk%69lls@main", "repository"],
        ["anthropics/skills\\..\\..\\evil@main", "repository"],
        ["anthropics/skills@main\u001b[2J", "ref"],
        ["anthropics/skills@main?x=1", "ref"],
        ["anthropics-/skills@main", "owner"],
      ]
    ) {
      const r = await gh.install(source);
      equal(r.code, 1, `${source}: ${r.stdout}`);
      assertStartsWith(
        r.json.error as string,
        `Source '${showControls(source)}': the ${part} `,
        `${source}: ${r.json.error}`,
      );
    }
    // The same source as a configured collection: refused alike, for a bare-name install too.
    const config = Deno.readTextFileSync(`${gh.home}/config.yaml`);
    const attack2 = "anthropics/skills@../../../evil/repo/tarball/main";
    Deno.writeTextFileSync(`${gh.home}/config.yaml`, `${config}    collections: ["${attack2}"]\n`);
    const bare = await cliJson(["--home", gh.home, "hub", "install", "helper", "--yes"]);
    equal(bare.code, 1, bare.stdout);
    equal(
      bare.json.error,
      `No configured collection holds a skill named 'helper'. ${attack2}: Source '${attack2}': the ref '../../../evil/repo/tarball/main' is not a valid git ref.`,
    );
    Deno.writeTextFileSync(`${gh.home}/config.yaml`, config);
    assertAbsent(`${gh.home}/skills/helper`);
    deepEqual(gh.seen, [], "nothing was fetched");
    // The well-formed source still installs, trusted.
    const real = await gh.install("anthropics/skills/skills/helper@main");
    equal(real.code, 0, real.stderr);
    deepEqual([real.json.name, real.json.trust_level], ["helper", "trusted"]);
  } finally {
    await gh.close();
  }
});

Deno.test("[HUB-5] trust follows the URL the tarball came from: a redirect to another repository is community, with a warning", async () => {
  const gh = await githubLike();
  try {
    const moved = await gh.install("anthropics/skills/skills/helper@moved");
    equal(moved.code, 0, moved.stderr);
    equal(moved.json.trust_level, "community");
    deepEqual(moved.json.warnings, [
      `The tarball of 'anthropics/skills' came from '${gh.base}/repos/evil/repo/tarball/main', which is not that repository; it installs as community.`,
    ]);
    const lock = JSON.parse(Deno.readTextFileSync(`${gh.home}/skills/.hub/lock.json`));
    equal(lock.installed.helper.trust_level, "community");
    equal(new URL(lock.installed.helper.identifier).pathname, "/repos/evil/repo/tarball/main");
    // A redirect within the same repository (GitHub answers in its own spelling) stays trusted.
    const renamed = await gh.install("anthropics/skills/skills/helper@renamed", "--force");
    equal(renamed.code, 0, renamed.stderr);
    deepEqual([renamed.json.trust_level, renamed.json.warnings], ["trusted", []]);
  } finally {
    await gh.close();
  }
});

/** A tarball of one skill at its root, as an index's package. */
async function packageOf(name: string): Promise<Uint8Array> {
  const dir = makeTree({ "SKILL.md": skill(name, "From a package") });
  try {
    const out = `${dir}/p.tar.gz`;
    const tar = await new Deno.Command("tar", { args: ["-czf", out, "-C", dir, "SKILL.md"] })
      .output();
    equal(tar.success, true);
    return Deno.readFileSync(out);
  } finally {
    removeTrees(dir);
  }
}

Deno.test("[HUB-1][IO-1] a well-known entry whose URL or name escapes is refused before its bytes are fetched", async () => {
  const pkg = await packageOf("climb");
  const digest = `sha256:${sha256Hex(pkg)}`;
  const seen: string[] = [];
  let index = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    if (path === `/${WK}/index.json`) return Response.json(index);
    if (path === "/evil.tar.gz") return new Response(pkg.slice());
    return new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const url = `${base}/${WK}/index.json`;
  const home = makeTree({ "skills/.keep": "" });
  const install = (source: string) => cliJson(["--home", home, "hub", "install", source, "--yes"]);
  try {
    const escapes: [string, string][] = [
      ["../../evil.tar.gz", "climbs with a '.' or '..' segment"],
      ["%2e%2e/%2E%2E/evil.tar.gz", "climbs with a '.' or '..' segment"],
      ["..%2f..%2fevil.tar.gz", "hides '../../evil.tar.gz' in an encoded segment"],
      ["..\\..\\evil.tar.gz", "holds white space, a backslash or a control character"],
      [
        `http://x@127.0.0.1:${server.addr.port}/evil.tar.gz`,
        "names a user (an '@' before the host)",
      ],
      [`${base}/${WK}/../../evil.tar.gz`, "climbs with a '.' or '..' segment"],
    ];
    for (const [raw, why] of escapes) {
      index = {
        version: "0.2.0",
        skills: [{
          name: "climb",
          description: "From a package",
          files: [{ path: "SKILL.md" }],
          package: { url: raw, digest },
        }],
      };
      const r = await install(`${url}#climb`);
      equal(r.code, 1, `${raw}: ${r.stdout}`);
      equal(r.json.error, `Refusing 'climb': its URL '${raw}' ${why}.`);
    }
    deepEqual(
      seen.filter((p) => !p.startsWith(`/${WK}/index.json`)),
      [],
      "nothing else was fetched",
    );
    assertAbsent(`${home}/skills/climb`);
    // The name after '#' is an index entry's name, nothing else.
    for (const name of ["../climb", "climb?x=1", "Climb", "climb/../x"]) {
      const r = await install(`${url}#${name}`);
      equal(r.code, 1, r.stdout);
      equal(
        r.json.error,
        `Source '${url}#${name}': the skill name '${name}' is not a valid skill name.`,
      );
    }
    const hidden = await install(`${base}/a/%2e%2e/${WK}/index.json#climb`);
    equal(hidden.code, 1, hidden.stdout);
    equal(
      hidden.json.error,
      `Source '${base}/a/%2e%2e/${WK}/index.json#climb': the URL '${base}/a/%2e%2e/${WK}/index.json' climbs with a '.' or '..' segment.`,
    );
  } finally {
    await server.shutdown();
    removeTrees(home);
  }
});

Deno.test("[HUB-1] a git source's ref is never an option to git, and its URL and subpath are plain", async () => {
  const repo = makeTree({ "SKILL.md": skill("tool", "From git") });
  const marker = `${tempDir()}/ran`;
  const home = makeTree({ "skills/.keep": "" });
  commitAll(repo);
  const install = (source: string) =>
    cliJson(["--home", home, "hub", "install", source, "--name", "tool", "--yes"]);
  try {
    const cases: [string, string, string][] = [
      [`git+file://${repo}#--upload-pack=touch ${marker}`, "ref", `--upload-pack=touch ${marker}`],
      [`git+file://${repo}#-c`, "ref", "-c"],
      [`git+file://${repo}#main//../../etc`, "path", "../../etc"],
      [`git+file://${repo}#../main`, "ref", "../main"],
    ];
    for (const [source, part, value] of cases) {
      const r = await install(source);
      equal(r.code, 1, `${source}: ${r.stdout}`);
      equal(
        r.json.error,
        `Source '${source}': the ${part} '${value}' is not ${
          part === "ref" ? "a valid git ref" : "a plain relative path"
        }.`,
      );
    }
    const ext = await install("git+ext::sh -c touch% /tmp/x");
    equal(ext.code, 1, ext.stdout);
    equal(
      ext.json.error,
      "Source 'git+ext::sh -c touch% /tmp/x': the URL 'ext::sh -c touch% /tmp/x' holds white space, a backslash or a control character.",
    );
    assertAbsent(marker);
    assertAbsent(`${home}/skills/tool`);
    const ok = await install(`git+file://${repo}#main`);
    equal(ok.code, 0, ok.stderr);
  } finally {
    removeTrees(repo, home, marker.replace(/\/ran$/, ""));
  }
});

Deno.test("[HUB-5] the repository a tarball URL names: the API's own or codeload's, decoded and held to the grammar", () => {
  const api = "https://api.github.com";
  const cases: [string, string | undefined][] = [
    [`${api}/repos/anthropics/skills/tarball/main`, "anthropics/skills"],
    [`${api}/repos/anthropics/skills/tarball`, "anthropics/skills"],
    [
      "https://codeload.github.com/anthropics/skills/legacy.tar.gz/refs/heads/main",
      "anthropics/skills",
    ],
    ["https://codeload.github.com/evil/repo/tar.gz/main", "evil/repo"],
    [`${api}/repos/evil/repo/tarball/main`, "evil/repo"],
    [`${api}/repositories/123/tarball/main`, undefined],
    [`${api}/repos/%2e%2e/skills/tarball/main`, undefined],
    [`${api}/repos/anthropics/skills/zipball/main`, undefined],
    ["https://evil.example/repos/anthropics/skills/tarball/main", undefined],
    ["http://codeload.github.com/anthropics/skills/tar.gz/main", undefined],
  ];
  for (const [url, repository] of cases) equal(repositoryOfUrl(url, api), repository, url);
  equal(
    repositoryOfUrl("http://127.0.0.1:9/api/v3/repos/o/r/tarball/x", "http://127.0.0.1:9/api/v3"),
    "o/r",
  );
  equal(
    repositoryOfUrl("http://127.0.0.1:9/repos/o/r/tarball/x", "http://127.0.0.1:9/api/v3"),
    undefined,
  );
});
