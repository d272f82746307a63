/**
 * Ctrl-C ends a command at once, with one line saying what was and was not changed, exit
 * 130, and nothing left behind (no quarantine, no `.hub` made for nothing): at the hub's
 * yes/no and at a collection's "Install which?" (read raw, so the key arrives at once),
 * during a clone (a real SIGINT from the terminal, and one sent to the warden alone), and
 * at `setup`'s questions. Real pseudo-terminals (script(1)), a real git and a real HTTP
 * server on 127.0.0.1 that never answers.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { WARDEN_FLAGS } from "../../src/warden/warden_flags.ts";
import { atTerminal, NO_PTY } from "../pty_helpers.ts";
import { makeTree, processEnded, removeTrees, REPO, skill, snapshot } from "../helpers.ts";

const CTRL_C = "\x03";

function homeAndSource(extra: Record<string, string> = {}) {
  const home = makeTree({ "skills/mine/SKILL.md": skill("mine", "Mine.") });
  const source = makeTree({ "SKILL.md": skill("helper", "Helps."), ...extra });
  return { home, source, before: snapshot(home) };
}

/** An HTTP server that takes requests and never answers them (a clone that hangs). */
function hangingServer() {
  const release: (() => void)[] = [];
  let asked = () => {};
  const firstRequest = new Promise<void>((resolve) => (asked = resolve));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    asked();
    return new Promise<Response>((resolve) =>
      release.push(() => resolve(new Response("", { status: 404 })))
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/team/skills.git`,
    firstRequest,
    stop: async () => {
      release.forEach((r) => r());
      await server.shutdown();
    },
  };
}

Deno.test({
  name:
    `Ctrl-C at hub install's yes/no ends it at once: one line, exit 130, nothing written${NO_PTY}`,
  ignore: NO_PTY !== "",
  fn: async () => {
    const { home, source, before } = homeAndSource();
    try {
      const run = await atTerminal(["--home", home, "hub", "install", source], [
        ["? [y/N] ", CTRL_C],
      ]);
      equal(run.code, 130, run.output);
      ok(run.output.endsWith("skillrt: Interrupted; nothing was installed.\n"), run.output);
      equal(snapshot(home), before, "no quarantine, no .hub, no lock left");
    } finally {
      removeTrees(home, source);
    }
  },
});

Deno.test({
  name:
    `Ctrl-C at a collection's "Install which?" ends it at once; Ctrl-D at the yes/no too${NO_PTY}`,
  ignore: NO_PTY !== "",
  fn: async () => {
    const { home, before } = homeAndSource();
    const collection = makeTree({
      "skills/alpha/SKILL.md": skill("alpha", "First."),
      "skills/beta/SKILL.md": skill("beta", "Second."),
    });
    const single = makeTree({ "SKILL.md": skill("helper", "Helps.") });
    try {
      const chose = await atTerminal(["--home", home, "hub", "install", collection], [
        ["Install which? (numbers like 1,3, or 'all'; empty for none) ", CTRL_C],
      ]);
      equal(chose.code, 130, chose.output);
      ok(chose.output.endsWith("skillrt: Interrupted; nothing was installed.\n"), chose.output);
      ok(chose.output.includes("   2. beta"), "the list was shown, line by line");
      equal(snapshot(home), before);
      const eof = await atTerminal(["--home", home, "hub", "install", single], [
        ["? [y/N] ", "\x04"],
      ]);
      equal(eof.code, 130, eof.output);
      ok(eof.output.endsWith("skillrt: Interrupted; nothing was installed.\n"), eof.output);
      equal(snapshot(home), before);
    } finally {
      removeTrees(home, collection, single);
    }
  },
});

Deno.test({
  name: `Ctrl-C during a clone: the terminal's SIGINT ends it, 'interrupted' not 'failed'${NO_PTY}`,
  ignore: NO_PTY !== "",
  fn: async () => {
    const { home, before } = homeAndSource();
    const server = hangingServer();
    try {
      const run = await atTerminal(["--home", home, "hub", "install", server.url], [
        [`Cloning ${server.url}…`, CTRL_C],
      ]);
      equal(run.code, 130, run.output);
      ok(run.output.includes(`Cloning ${server.url}: interrupted.\n`), run.output);
      ok(!run.output.includes("failed"), run.output);
      ok(run.output.endsWith("skillrt: Interrupted; nothing was installed.\n"), run.output);
      equal(snapshot(home), before, "the clone's scratch folder is gone");
    } finally {
      await server.stop();
      removeTrees(home);
    }
  },
});

Deno.test("SIGINT sent to the warden alone during a clone stops git too: exit 130, nothing left", async () => {
  const { home, before } = homeAndSource();
  const server = hangingServer();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "hub", "install", server.url],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    await server.firstRequest; // git is waiting for the server
    const git = new TextDecoder().decode(
      (await new Deno.Command("pgrep", { args: ["-P", String(child.pid), "git"] }).output())
        .stdout,
    ).trim().split("\n").map(Number).filter((n) => n > 0);
    child.kill("SIGINT");
    const out = await child.output();
    const dec = new TextDecoder();
    deepEqual([out.code, dec.decode(out.stdout), dec.decode(out.stderr)], [
      130,
      "",
      "skillrt: Interrupted; nothing was installed.\n",
    ]);
    for (const pid of git) ok(await processEnded(pid), `git ${pid} outlived the warden`);
    equal(snapshot(home), before);
  } finally {
    await server.stop();
    removeTrees(home);
  }
});

Deno.test({
  name: `Ctrl-C at a setup question: 'Setup cancelled; nothing was written.', exit 130${NO_PTY}`,
  ignore: NO_PTY !== "",
  fn: async () => {
    const home = makeTree({
      "skills/gh/SKILL.md": skill(
        "gh",
        "GitHub.",
        "required_environment_variables:\n  - name: GH_TOKEN\n    prompt: Your token\n",
      ),
    });
    const before = snapshot(home);
    try {
      const run = await atTerminal(["--home", home, "setup", "gh"], [
        ["Your token (input hidden): ", `half${CTRL_C}`],
      ]);
      equal(run.code, 130, run.output);
      ok(run.output.endsWith("skillrt: Setup cancelled; nothing was written.\n"), run.output);
      equal(snapshot(home), before);
    } finally {
      removeTrees(home);
    }
  },
});

Deno.test("SIGINT during a download (an archive whose server never answers): exit 130, nothing left", async () => {
  const { home, before } = homeAndSource();
  const server = hangingServer();
  const url = server.url.replace(/\.git$/, ".tar.gz");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...WARDEN_FLAGS, `${REPO}/main.ts`, "--home", home, "hub", "install", url],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    await server.firstRequest;
    child.kill("SIGINT");
    const out = await child.output();
    deepEqual([out.code, new TextDecoder().decode(out.stderr)], [
      130,
      "skillrt: Interrupted; nothing was installed.\n",
    ]);
    equal(snapshot(home), before);
  } finally {
    await server.stop();
    removeTrees(home);
  }
});
