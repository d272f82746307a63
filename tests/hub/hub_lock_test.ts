/**
 * [T-4] `hub lock export` and `hub install --from-lock FILE [--frozen]` with real sources:
 * a git repository in a temp folder, an archive and a well-known index served from
 * 127.0.0.1. A second home restored from the exported lock holds the same skills, byte
 * for byte; a served archive that changes is refused by `--frozen` (nothing written) and
 * reported without it; a git source restores its commit even after its branch moved.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { commitAll, git } from "./git_helpers.ts";
import {
  cli,
  cliJson,
  fileTexts,
  makeTree,
  removeTrees,
  restoreFrom,
  skill,
  snapshot,
  tempDir,
} from "../helpers.ts";
import { publishTo, serveFolder, sources, tarGzOf } from "./site_helpers.ts";

type Lock = { installed: Record<string, { content_hash: string; install_path: string }> };
const lockOf = (home: string): Lock =>
  JSON.parse(Deno.readTextFileSync(`${home}/skills/.hub/lock.json`));
const newHome = () => makeTree({ "skills/.keep": "" });

/** A server on 127.0.0.1 answering `/archy.tar.gz` with whatever `bytes.now` holds. */
function archiveServer(bytes: { now: Uint8Array }) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new URL(req.url).pathname === "/archy.tar.gz"
        ? new Response(bytes.now.slice())
        : new Response("no", { status: 404 }),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/archy.tar.gz`,
    close: () => server.shutdown(),
  };
}

const archy = (body: string) =>
  tarGzOf(
    { "archy/SKILL.md": skill("archy", "Archive skill", "", body), "archy/notes.md": "n\n" },
    "archy",
  );

/** Home A: a git skill, an archive skill, an index skill and a local folder skill. */
async function sourcesAndHome() {
  const repo = makeTree({ "SKILL.md": skill("gitty", "Git skill"), "ref/a.md": "a\n" });
  commitAll(repo);
  const bytes = { now: await archy("# v1\n") };
  const archive = archiveServer(bytes);
  const site = tempDir();
  const src = sources();
  const home = newHome();
  equal((await publishTo(home, src, site)).code, 0);
  const index = serveFolder(site);
  const local = makeTree({ "mine/SKILL.md": skill("mine", "Local skill") });
  const close = async () => {
    await Promise.all([archive.close(), index.close()]);
    removeTrees(repo, site, src, local);
  };
  return { repo, bytes, archive, index, home, local, close };
}

async function installAll(s: Awaited<ReturnType<typeof sourcesAndHome>>) {
  const install = (...args: string[]) =>
    cliJson(["--home", s.home, "hub", "install", ...args, "--yes"]);
  for (
    const args of [
      [`git+file://${s.repo}#main`],
      [s.archive.url],
      ["alpha", "--index", s.index.base],
      [`${s.local}/mine`],
    ]
  ) {
    const r = await install(...args);
    equal(r.code, 0, `${args}: ${r.stdout}${r.stderr}`);
  }
}

Deno.test("[T-4] a lock exported from one home restores the same skills, byte for byte, into a fresh home", async () => {
  const s = await sourcesAndHome();
  const work = tempDir();
  const homes = [newHome(), newHome(), newHome()];
  try {
    await installAll(s);
    const out = await cliJson([
      "--home",
      s.home,
      "hub",
      "lock",
      "export",
      "--out",
      "team.lock.json",
    ], {
      cwd: work,
    });
    equal(out.code, 0, out.stderr);
    deepEqual(out.json.skipped, [{
      name: "mine",
      reason: "installed from a folder or archive on this machine",
    }]);
    const text = Deno.readTextFileSync(`${work}/team.lock.json`);
    const lock = JSON.parse(text);
    equal(lock.$schema, "urn:skillrt:hub-lock:v1");
    equal(lock.version, 1);
    deepEqual(Object.keys(lock.skills), ["alpha", "archy", "gitty"]);
    const commit = new TextDecoder().decode(
      new Deno.Command("git", { args: ["-C", s.repo, "rev-parse", "HEAD"] }).outputSync().stdout,
    ).trim();
    deepEqual(lock.skills.gitty, {
      source: `git+file://${s.repo}#main`,
      ref: commit,
      content_hash: lockOf(s.home).installed.gitty.content_hash,
      trust_level: "community",
    });
    equal(lock.skills.alpha.source, `${s.index.base}/.well-known/agent-skills/index.json#alpha`);
    ok(!text.includes(s.home) && !text.includes("installed_at"), text);
    // Stdout is the same document.
    const printed = await cli(["--home", s.home, "hub", "lock", "export"]);
    equal(printed.stdout, text);
    match(printed.stderr, /Left out 'mine': installed from a folder or archive on this machine/);

    // The branch moves on: the lock's commit is what is restored.
    Deno.writeTextFileSync(`${s.repo}/SKILL.md`, skill("gitty", "Git skill", "", "# v2\n"));
    git(s.repo, "commit", "-q", "-am", "v2");
    const restored = await cliJson(
      ["--home", homes[0], "hub", "install", "--from-lock", "team.lock.json", "--frozen"],
      { cwd: work },
    );
    equal(restored.code, 0, restored.stdout + restored.stderr);
    deepEqual((restored.json.installed as { name: string }[]).map((i) => i.name), [
      "alpha",
      "archy",
      "gitty",
    ]);
    deepEqual(restored.json.differences, []);
    for (const name of ["alpha", "archy", "gitty"]) {
      const [a, b] = [lockOf(s.home).installed[name], lockOf(homes[0]).installed[name]];
      equal(b.content_hash, a.content_hash, name);
      equal(
        fileTexts(`${homes[0]}/skills/${b.install_path}`),
        fileTexts(`${s.home}/skills/${a.install_path}`),
      );
    }
    // Again: everything is unchanged, nothing fetched differs.
    const again = await restoreFrom(homes[0], `${work}/team.lock.json`, "--frozen");
    equal(again.code, 0, again.stdout);
    deepEqual(again.json.unchanged, ["alpha", "archy", "gitty"]);
    // A skill changed in place here is not the lock's: --frozen says so and changes nothing.
    Deno.writeTextFileSync(`${homes[0]}/skills/gitty/ref/a.md`, "edited\n");
    const edited = snapshot(homes[0]);
    const changed = await restoreFrom(homes[0], `${work}/team.lock.json`, "--frozen");
    equal(changed.code, 1, changed.stdout);
    match(
      String(changed.json.error),
      /^--frozen: 'gitty' is installed here with other content \(sha256:[0-9a-f]{64}\); nothing was installed\.$/,
    );
    equal(snapshot(homes[0]), edited);

    // The served archive changes: --frozen refuses with the skill and the difference named.
    s.bytes.now = await archy("# v2, other bytes\n");
    const before = snapshot(homes[1]);
    const frozen = await restoreFrom(homes[1], `${work}/team.lock.json`, "--frozen");
    equal(frozen.code, 1, frozen.stdout);
    equal(frozen.json.success, false);
    match(
      String(frozen.json.error),
      /^--frozen: 'archy': content_hash is sha256:[0-9a-f]{64}, the lock says sha256:[0-9a-f]{64}; nothing was installed\.$/,
    );
    equal(snapshot(homes[1]), before);
    // Without --frozen it installs what is served now and says what differs.
    const loose = await restoreFrom(homes[2], `${work}/team.lock.json`);
    equal(loose.code, 0, loose.stdout);
    deepEqual(
      (loose.json.differences as { name: string; field: string }[]).map((d) => [d.name, d.field]),
      [
        ["archy", "content_hash"],
      ],
    );
    match(Deno.readTextFileSync(`${homes[2]}/skills/archy/SKILL.md`), /v2, other bytes/);
  } finally {
    await s.close();
    removeTrees(work, s.home, ...homes);
  }
});
