/**
 * `mcp --http --token-file F` reads its bearer token only from a file no one else can read
 * or swap (issue 22 item 8; [T-3]), as ssh treats a private key: group- or world-readable
 * (or writable), a link, not a regular file, or another user's file is refused with one
 * line — for a mode, the exact `chmod` — and exit 2, before anything listens. Real files,
 * real modes, the real CLI.
 */
import { equal } from "node:assert/strict";
import { readToken } from "../../src/cli/mcp_http_relay.ts";
import { resolveHomeLayout } from "../../src/home/layout.ts";
import { cli, makeTree, removeTrees, testHost } from "../helpers.ts";

const TOKEN = "s3cret-token-for-tests-0123456789";

/**
 * Runs `mcp --http` on a non-loopback address with `--token-file file`, on a port this
 * test holds: a server that took the file anyway fails to listen and ends, never serves.
 */
async function serve(home: string, file: string) {
  using held = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  const port = String((held.addr as Deno.NetAddr).port);
  return await cli([
    "--home",
    home,
    "mcp",
    "--http",
    "--host",
    "0.0.0.0",
    "--port",
    port,
    "--token-file",
    file,
  ]);
}

Deno.test("[T-3] a token file open to the group or others is refused with the chmod that fixes it; 0600 and 0400 are read", async () => {
  const dir = Deno.realPathSync(makeTree({ "home/skills/.keep": "", "token": `${TOKEN}\n` }));
  const file = `${dir}/token`;
  try {
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o602, 0o660, 0o666]) {
      Deno.chmodSync(file, mode);
      const r = await serve(`${dir}/home`, file);
      equal(r.code, 2, mode.toString(8));
      equal(
        r.stderr,
        `skillrt: The token file '${file}' is open to other users (mode 0${
          mode.toString(8)
        }); run: chmod 600 ${file}\n`,
      );
    }
    const setup = resolveHomeLayout({ home: `${dir}/home`, host: testHost(dir) });
    for (const mode of [0o600, 0o400]) {
      Deno.chmodSync(file, mode);
      equal(readToken(setup, file), TOKEN);
    }
  } finally {
    Deno.chmodSync(file, 0o600);
    removeTrees(dir);
  }
});

Deno.test("[T-3] a token file that is a link, a FIFO, a folder or missing is refused in one line", async () => {
  const dir = Deno.realPathSync(makeTree({ "home/skills/.keep": "", "token": `${TOKEN}\n` }));
  Deno.chmodSync(`${dir}/token`, 0o600);
  Deno.symlinkSync(`${dir}/token`, `${dir}/link`);
  const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
  equal(fifo.success, true);
  Deno.mkdirSync(`${dir}/folder`);
  try {
    const cases: [string, string][] = [
      ["link", "is a symbolic link; name the file itself."],
      ["fifo", "is not a regular file."],
      ["folder", "is not a regular file."],
    ];
    for (const [name, why] of cases) {
      const r = await serve(`${dir}/home`, `${dir}/${name}`);
      equal(r.code, 2, name);
      equal(r.stderr, `skillrt: The token file '${dir}/${name}' ${why}\n`);
    }
    const missing = await serve(`${dir}/home`, `${dir}/nope`);
    equal(missing.code, 2);
    equal(missing.stderr, `skillrt: Cannot read the token file '${dir}/nope': NotFound.\n`);
  } finally {
    removeTrees(dir);
  }
});

/** True when the tests run as root (the owner of a file made now; `Deno.uid` needs a sys grant). */
const ROOT = (() => {
  const probe = Deno.makeTempFileSync();
  try {
    return Deno.statSync(probe).uid === 0;
  } finally {
    Deno.removeSync(probe);
  }
})();

Deno.test({
  name: "[T-3] a token file of another user is refused (mode 0600 or not)",
  ignore: !ROOT,
  // Giving a file to another user needs root; as any other user the case cannot be made.
  fn: async () => {
    const dir = Deno.realPathSync(makeTree({ "home/skills/.keep": "", "token": `${TOKEN}\n` }));
    Deno.chmodSync(`${dir}/token`, 0o600);
    Deno.chownSync(`${dir}/token`, 65534, null);
    try {
      const r = await serve(`${dir}/home`, `${dir}/token`);
      equal(r.code, 2);
      equal(r.stderr, `skillrt: The token file '${dir}/token' is owned by another user.\n`);
    } finally {
      Deno.chownSync(`${dir}/token`, 0, null);
      removeTrees(dir);
    }
  },
});
