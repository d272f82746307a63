/**
 * Test helpers for published sites ([T-1]): a static file server on 127.0.0.1 and a
 * folder of skills to publish.
 *
 * @module
 */
import { cliJson, makeTree, skill } from "../helpers.ts";

/** Serves a folder as a static site on 127.0.0.1 (files only, 404 otherwise). */
export function serveFolder(dir: string): { base: string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (path.includes("..")) return new Response("no", { status: 400 });
    try {
      return new Response(Deno.readFileSync(`${dir}${path}`));
    } catch {
      return new Response("no", { status: 404 });
    }
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A folder of two skills to publish. */
export function sources(): string {
  return makeTree({
    "alpha/SKILL.md": skill("alpha", "Alpha does things"),
    "alpha/references/guide.md": "# Guide\n",
    "tools/beta/SKILL.md": skill("beta", "Beta does other things"),
  });
}

/** `hub install NAME --index BASE --yes` in `home` (with `extra` arguments), as JSON. */
export function installFromIndex(home: string, name: string, base: string, ...extra: string[]) {
  return cliJson(["--home", home, "hub", "install", name, "--index", base, "--yes", ...extra]);
}

/** `hub publish SRC --out OUT` with `home` (with `extra` arguments), as JSON. */
export function publishTo(home: string, src: string, out: string, ...extra: string[]) {
  return cliJson(["--home", home, "hub", "publish", src, "--out", out, ...extra]);
}

/** The bytes of a `.tar.gz` of `files` (paths below one top folder, as GitHub's tarballs have). */
export async function tarGzOf(files: Record<string, string>, top: string): Promise<Uint8Array> {
  const tree = makeTree(files);
  try {
    const out = `${tree}/../${crypto.randomUUID()}.tar.gz`;
    const tar = await new Deno.Command("tar", { args: ["-czf", out, "-C", tree, top] }).output();
    if (!tar.success) throw new Error("tar failed");
    const bytes = Deno.readFileSync(out);
    Deno.removeSync(out);
    return bytes;
  } finally {
    Deno.removeSync(tree, { recursive: true });
  }
}
