/**
 * [IO-5] Sources as users paste them: GitHub and GitLab page URLs, git's `user@host:o/r.git`,
 * `ssh://` URLs, a commit pinned by `#<sha>` (real repositories in temp folders), GitHub
 * pages fetched from a stand-in API on 127.0.0.1 and trusted as the shorthand is, and
 * `owner/repo` never read as a folder of that name here.
 */
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { parseSource } from "../../src/hub/source.ts";
import { commitAll, git } from "./git_helpers.ts";
import { cliJson, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { tarGzOf } from "./site_helpers.ts";

const API = "http://127.0.0.1:9";
const gh = (owner: string, repo: string, path?: string, ref?: string) => ({
  kind: "github",
  owner,
  repo,
  path,
  ref,
  url: `${API}/repos/${owner}/${repo}/tarball${ref ? `/${ref}` : ""}`,
  api: API,
  host: "127.0.0.1:9",
  hosts: ["127.0.0.1:9"],
});
const gitSrc = (url: string, ref?: string, subpath?: string, host?: string) => ({
  kind: "git",
  url,
  ref,
  subpath,
  ...(host ? { host } : {}),
});

Deno.test("[IO-5] each pasted form parses to the source it names", () => {
  const table: [string, unknown][] = [
    ["https://github.com/o/r", gh("o", "r")],
    ["https://github.com/o/r/", gh("o", "r")],
    ["https://www.github.com/o/r/tree/main", gh("o", "r", undefined, "main")],
    ["https://github.com/o/r/tree/main/skills/x", gh("o", "r", "skills/x", "main")],
    ["https://github.com/o/r/blob/v1.2/skills/x/SKILL.md", gh("o", "r", "skills/x", "v1.2")],
    ["o/r/skills/x@main", gh("o", "r", "skills/x", "main")],
    [
      "https://gitlab.com/g/sub/r",
      gitSrc("https://gitlab.com/g/sub/r.git", undefined, undefined, "gitlab.com"),
    ],
    [
      "https://gitlab.com/g/sub/r/-/tree/main/skills/x",
      gitSrc("https://gitlab.com/g/sub/r.git", "main", "skills/x", "gitlab.com"),
    ],
    [
      "https://git.example.org/g/r/-/blob/v2/x/SKILL.md",
      gitSrc("https://git.example.org/g/r.git", "v2", "x", "git.example.org"),
    ],
    ["git@github.com:o/r.git", gitSrc("git@github.com:o/r.git")],
    [
      "git@gitlab.com:g/sub/r.git#v1//skills/x",
      gitSrc("git@gitlab.com:g/sub/r.git", "v1", "skills/x"),
    ],
    ["ssh://git@github.com/o/r.git", gitSrc("ssh://git@github.com/o/r.git")],
    ["git+file:///tmp/r#0123abc", gitSrc("file:///tmp/r", "0123abc")],
    ["./o/r", { kind: "local", path: "./o/r" }],
    ["~/skills/x", { kind: "local", path: "~/skills/x" }],
  ];
  for (const [source, want] of table) deepEqual(parseSource(source, API), want, source);
});

Deno.test("[IO-5] a pasted form that could move what is fetched is refused by the one grammar", () => {
  const refused: [string, RegExp][] = [
    ["https://github.com/o/r/tree/-oops/x", /the ref '-oops' is not a valid git ref/],
    ["https://github.com/o/r/tree/main/a/%2e%2e/b", /climbs with a '\.' or '\.\.' segment/],
    ["https://github.com/o/r/issues/3", /is not a repository, tree or blob page/],
    ["https://github.com/o/r/blob/main/README.md", /names a file that is not a SKILL\.md/],
    ["https://github.com/-o/r", /the owner '-o' is not a valid GitHub owner/],
    ["https://gitlab.com/g/r/-/tree/main/a b", /white space/],
    ["https://gitlab.com/r", /is not a repository, tree or blob page/],
    // Variants of the ssh option attack: a host or user git's ssh would read as an option.
    ["git@-oProxyCommand=touch%20x:o/r.git", /is not a git address/],
    ["git@-oProxyCommand:o/r.git", /is not a git address/],
    ["-oProxyCommand=x@host:o/r.git", /is not a git address/],
    [
      "ssh://-oProxyCommand=touch%20x@h/r.git",
      /user or host starting with '-' \(an option to ssh\)/,
    ],
    ["ssh://git@-oProxyCommand=x/r.git", /user or host starting with '-' \(an option to ssh\)/],
    ["ssh://-l@host/r.git", /user or host starting with '-' \(an option to ssh\)/],
    [
      "git@github.com:../../etc/r.git",
      /the path '\.\.\/\.\.\/etc\/r\.git' is not a plain relative path/,
    ],
    ["git@github.com:/etc/r.git", /is not a git address/],
    // A word is no local folder: a folder is spelled as a path.
    ["tool", /is not a source: spell a local folder or archive as a path \('\.\/tool'\)/],
  ];
  for (const [source, why] of refused) throws(() => parseSource(source, API), why, source);
});

Deno.test("[IO-5][HUB-5] GitHub page URLs are fetched from the API on 127.0.0.1 and trusted as the shorthand is; owner/repo is never a folder here", async () => {
  const top = "anthropics-skills-1111111";
  const bytes = await tarGzOf({
    [`${top}/skills/helper/SKILL.md`]: skill("api-helper", "From the API."),
  }, top);
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    return path.startsWith("/repos/anthropics/skills/tarball")
      ? new Response(bytes.slice())
      : new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": `skills:\n  hub:\n    github_base: ${base}\n`,
  });
  // A cloned hostile repository holding a folder named like the shorthand.
  const cwd = makeTree({ "anthropics/skills/SKILL.md": skill("api-helper", "A local impostor.") });
  const install = (source: string) =>
    cliJson(["--home", home, "hub", "install", source, "--yes", "--force"], { cwd });
  try {
    for (
      const [source, path] of [
        ["https://github.com/anthropics/skills/tree/main/skills/helper", "tarball/main"],
        ["https://github.com/anthropics/skills/blob/v1/skills/helper/SKILL.md", "tarball/v1"],
        ["anthropics/skills/skills/helper@main", "tarball/main"],
      ]
    ) {
      const r = await install(source);
      equal(r.code, 0, r.stderr + r.stdout);
      equal(r.json.trust_level, "trusted", source);
      equal(r.json.name, "api-helper", source); // the frontmatter's name, not 'helper'
      equal(seen.at(-1), `/repos/anthropics/skills/${path}`);
    }
    seen.length = 0;
    const shadowed = await install("anthropics/skills");
    equal(shadowed.code, 0, shadowed.stderr + shadowed.stdout);
    deepEqual(seen, ["/repos/anthropics/skills/tarball"]); // fetched, not the folder
    equal(shadowed.json.trust_level, "trusted");
    ok(Deno.readTextFileSync(`${home}/skills/api-helper/SKILL.md`).includes("From the API."));
    deepEqual(shadowed.json.warnings, [
      "A local folder 'anthropics/skills' exists; it was not installed ('anthropics/skills' is a remote source). Spell it './anthropics/skills' to install the folder.",
    ]);
    const spelled = await install("./anthropics/skills");
    equal(spelled.code, 0, spelled.stderr);
    equal(spelled.json.trust_level, "local");
    ok(Deno.readTextFileSync(`${home}/skills/api-helper/SKILL.md`).includes("impostor"));
  } finally {
    await server.shutdown();
    removeTrees(home, cwd);
  }
});

/** A repository in folder `folder-name` whose skill is named `pinned`: v1 (tagged), v2 on main, v3 on dev. */
function pinnedRepo(): { repo: string; first: string } {
  const repo = `${tempDir()}/folder-name`;
  Deno.mkdirSync(repo);
  const write = (v: string) =>
    Deno.writeTextFileSync(`${repo}/SKILL.md`, skill("pinned", `Version ${v}.`));
  write("one");
  commitAll(repo, "v1");
  git(repo, "tag", "v1");
  const rev = new Deno.Command("git", { args: ["rev-parse", "HEAD"], cwd: repo }).outputSync();
  const first = new TextDecoder().decode(rev.stdout).trim();
  write("two");
  git(repo, "commit", "-qam", "v2");
  git(repo, "checkout", "-qb", "dev");
  write("three");
  git(repo, "commit", "-qam", "v3");
  git(repo, "checkout", "-q", "main");
  return { repo, first };
}

Deno.test("[IO-5] #<sha> pins a commit (full or short), a branch and a tag are cloned; the lock records the commit; the name is the frontmatter's", async () => {
  const { repo, first } = pinnedRepo();
  const home = makeTree({ "skills/.keep": "" });
  const install = (ref: string) =>
    cliJson(["--home", home, "hub", "install", `git+file://${repo}#${ref}`, "--yes", "--force"]);
  const installed = () => Deno.readTextFileSync(`${home}/skills/pinned/SKILL.md`);
  const lock = () =>
    JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`)).installed.pinned;
  try {
    for (const ref of [first, first.slice(0, 10)]) {
      const r = await install(ref);
      equal(r.code, 0, r.stderr + r.stdout);
      equal(r.json.name, "pinned"); // not 'folder-name'
      ok(installed().includes("Version one."), ref);
      equal(lock().identifier, `file://${repo}#${first}`);
      equal(lock().source, `git+file://${repo}#${ref}`);
    }
    // The pin is kept: checked again, the source is the same commit.
    const check = await cliJson(["--home", home, "hub", "check", "pinned"]);
    equal(check.code, 0, check.stdout);
    deepEqual(check.json.skills, [{ name: "pinned", status: "up_to_date" }]);
    equal((await install("dev")).code, 0);
    ok(installed().includes("Version three."));
    equal((await install("v1")).code, 0);
    ok(installed().includes("Version one."));
    const missing = await install("0".repeat(40));
    equal(missing.code, 1);
    ok(/has no commit '0{40}'/.test(String(missing.json.error)), String(missing.json.error));
    ok(installed().includes("Version one.")); // the failed pin changed nothing
  } finally {
    removeTrees(home, repo.replace(/\/folder-name$/, ""));
  }
});

Deno.test("[IO-5] one naming rule: a folder, an archive and an index entry install under the SKILL.md's name; an index may not list it as another", async () => {
  const tree = makeTree({
    "folder-name/SKILL.md": skill("from-folder", "In a folder."),
    "site/SKILL.md": skill("other-name", "Listed under a name not its own."),
  });
  const archive = await tarGzOf(
    { "pack-main/SKILL.md": skill("From Archive", "In an archive.") },
    "pack-main",
  );
  const text = Deno.readFileSync(`${tree}/site/SKILL.md`);
  const index = {
    skills: [{ name: "listed", description: "Listed.", files: [{ path: "SKILL.md" }] }],
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/pack.tar.gz") return new Response(archive.slice());
    if (path === "/.well-known/agent-skills/index.json") return Response.json(index);
    if (path === "/.well-known/agent-skills/listed/SKILL.md") return new Response(text.slice());
    return new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const home = makeTree({ "skills/.keep": "" });
  const install = (source: string) => cliJson(["--home", home, "hub", "install", source, "--yes"]);
  try {
    const folder = await install(`${tree}/folder-name`);
    equal(folder.code, 0, folder.stdout);
    equal(folder.json.name, "from-folder");
    const packed = await install(`${base}/pack.tar.gz`);
    equal(packed.code, 0, packed.stdout);
    equal(packed.json.name, "from-archive"); // not 'pack' or 'pack-main'
    equal(packed.json.declared_name, "From Archive");
    const listed = await install(`${base}/.well-known/agent-skills/index.json#listed`);
    equal(listed.code, 1, listed.stdout);
    equal(
      listed.json.error,
      "Refusing 'listed': its SKILL.md is named 'other-name', not the index's 'listed'.",
    );
    deepEqual([...Deno.readDirSync(`${home}/skills`)].map((e) => e.name).sort(), [
      ".hub",
      ".keep",
      ".usage.json",
      "from-archive",
      "from-folder",
    ]);
  } finally {
    await server.shutdown();
    removeTrees(tree, home);
  }
});

Deno.test("[IO-5] a bare name is the configured collection's even when a folder here has that name (a variant of the shadowing attack)", async () => {
  const repo = makeTree({ "skills/pdf/SKILL.md": skill("pdf", "The collection's PDF skill.") });
  commitAll(repo);
  const cwd = makeTree({ "pdf/SKILL.md": skill("pdf", "A local impostor.") });
  const home = makeTree({
    "skills/.keep": "",
    "config.yaml": `skills:\n  hub:\n    collections:\n      - file://${repo}\n`,
  });
  try {
    const r = await cliJson(["--home", home, "hub", "install", "pdf", "--yes"], { cwd });
    equal(r.code, 0, r.stderr + r.stdout);
    equal(r.json.trust_level, "community");
    ok(Deno.readTextFileSync(`${home}/skills/pdf/SKILL.md`).includes("The collection's"));
    deepEqual(r.json.warnings, [
      "A local folder 'pdf' exists; it was not installed ('pdf' is a remote source). Spell it './pdf' to install the folder.",
    ]);
    const none = await cliJson(["--home", home, "hub", "install", "nothing-here"], { cwd });
    equal(none.code, 1, none.stdout);
    ok(String(none.json.error).startsWith("No configured collection holds a skill named"));
  } finally {
    removeTrees(repo, cwd, home);
  }
});

Deno.test("[HUB-1][X-7] git transports that run commands are refused; bidi controls in file names too", async () => {
  const home = makeTree({ "skills/demo/SKILL.md": skill("demo", "Demo.") });
  const work = makeTree({ "content.md": "# A\n" });
  const marker = `${work}/pwned`;
  try {
    const r = await cliJson([
      "--home",
      home,
      "hub",
      "install",
      `git+ext::sh -c touch% ${marker}`,
      "--yes",
    ]);
    equal(r.code, 1);
    let made = true;
    try {
      Deno.statSync(marker);
    } catch {
      made = false;
    }
    equal(made, false, "the ext:: transport ran a command");
    const rlo = await cliJson([
      "--home",
      home,
      "write-file",
      "demo",
      "references/evil\u202Edm.sh",
      "--file",
      `${work}/content.md`,
    ]);
    equal(rlo.code, 1);
    match(String(rlo.json.error), /names may not contain control characters/);
  } finally {
    removeTrees(home, work);
  }
});
