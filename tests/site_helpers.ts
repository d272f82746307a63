/**
 * Test helpers for published sites ([T-1]): a static file server on 127.0.0.1 and a
 * folder of skills to publish.
 *
 * @module
 */
import { cliJson, makeTree, skill } from "./helpers.ts";

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
