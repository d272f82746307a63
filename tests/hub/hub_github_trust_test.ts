/**
 * [HUB-5] A trusted repository's trust needs a ref its owners control: a pull request's
 * head or a bare commit hash may be a stranger's (GitHub serves a fork's commits under its
 * parent's name), so `anthropics/skills@refs/pull/1/head` installs as community, saying
 * why — and a community skill's declared variables do not expand. A real server on
 * 127.0.0.1 plays GitHub's API; real tarballs.
 */
import { deepEqual, equal } from "node:assert/strict";
import { refKeepsTrust } from "../../src/hub/github.ts";
import { cliJson, makeTree, removeTrees, skill, tempDir } from "../helpers.ts";
import { assertExcludes } from "../asserts.ts";

Deno.test("[HUB-5] refKeepsTrust: branches and tags keep a repository's trust; pull requests, other refs and commit hashes do not", () => {
  const keeps = [undefined, "main", "v1.2.0", "refs/heads/main", "refs/tags/v1", "release/2026"];
  const loses = [
    "refs/pull/1/head",
    "refs/pull/1/merge",
    "pull/7/head",
    "refs/remotes/origin/main",
    "refs/heads/",
    "deadbee",
    "0123456789abcdef0123456789abcdef01234567",
    "DEADBEEF",
  ];
  deepEqual(keeps.map(refKeepsTrust), keeps.map(() => true));
  deepEqual(loses.map(refKeepsTrust), loses.map(() => false));
});

/** A GitHub-style tarball of `anthropics/skills` whose skill `x` declares a secret's value. */
async function tarball(): Promise<Uint8Array> {
  const dir = tempDir();
  try {
    const meta = "required_environment_variables: [AWS_SECRET_ACCESS_KEY]\n" +
      'metadata:\n  hermes:\n    config:\n      - key: x.key\n        description: the key\n        default: "${AWS_SECRET_ACCESS_KEY}"\n';
    makeTree({ "anthropics-skills-abc123/x/SKILL.md": skill("x", "A helpful skill", meta) }, dir);
    const out = `${dir}/t.tar.gz`;
    const tar = await new Deno.Command("tar", {
      args: ["-czf", out, "-C", dir, "anthropics-skills-abc123"],
    }).output();
    equal(tar.success, true);
    return Deno.readFileSync(out);
  } finally {
    removeTrees(dir);
  }
}

Deno.test("[HUB-5] anthropics/skills at a pull request's head or a commit hash installs as community with the reason; at a tag, trusted", async () => {
  const bytes = await tarball();
  const prefix = "/repos/anthropics/skills/tarball/";
  const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    return path.startsWith(prefix)
      ? new Response(bytes.slice())
      : new Response("no", { status: 404 });
  });
  const config = `skills:\n  hub:\n    github_base: http://127.0.0.1:${api.addr.port}\n`;
  const homes: string[] = [];
  const install = async (ref: string) => {
    const home = makeTree({ "skills/.keep": "", "config.yaml": config });
    homes.push(home);
    const got = await cliJson(
      ["--home", home, "hub", "install", `anthropics/skills/x@${ref}`, "--yes"],
    );
    equal(got.code, 0, got.stderr);
    return { home, json: got.json };
  };
  try {
    for (const ref of ["refs/pull/1/head", "pull/1/head", "abc1234def"]) {
      const { home, json } = await install(ref);
      deepEqual([json.trust_level, json.warnings], ["community", [
        `'${ref}' is not a branch or tag of 'anthropics/skills': a pull request or a commit hash may be anyone's (a fork's commits are served under its parent's name), so it installs as community; name a branch or tag to keep the repository's trust.`,
      ]]);
      // A community skill's declared variable is not expanded into the agent's text.
      const view = await cliJson(["--home", home, "view", "x"], {
        env: { AWS_SECRET_ACCESS_KEY: "sk-CANARY" },
      });
      equal(view.code, 0, view.stderr);
      assertExcludes(JSON.stringify(view.json), "sk-CANARY", ref);
    }
    const tagged = await install("v1.0.0");
    deepEqual([tagged.json.trust_level, tagged.json.warnings], ["trusted", []]);
  } finally {
    await api.shutdown();
    removeTrees(...homes);
  }
});
