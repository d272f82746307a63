/**
 * The one place a test builds the environment of a child process that clears its own (the
 * MCP SDK's stdio client, `clearEnv: true`): what Deno needs to find its cache and reach a
 * registry, whatever the user's machine sets — `DENO_DIR` (or the cache folder Deno uses
 * when it is unset, so a child with another `HOME` still finds it), the certificate and
 * proxy variables, `PATH` and the npm registry. Without them a child `deno` re-downloads
 * its npm packages, and fails where the network needs a proxy or a private CA.
 *
 * @module
 */

/** Variables passed through when set: Deno's own, certificates, proxies, the npm registry. */
const PASSED = [
  "PATH",
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "DENO_NO_UPDATE_CHECK",
  "DENO_NO_PROMPT",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
];

let cacheDir: string | undefined;

/**
 * The folder Deno caches into, as this process's Deno sees it (`deno info --json`):
 * `DENO_DIR` when set, else the folder Deno derives from `XDG_CACHE_HOME` or `HOME`.
 * Asked once per test process.
 */
export function denoCacheDir(): string {
  if (cacheDir !== undefined) return cacheDir;
  const set = Deno.env.get("DENO_DIR");
  if (set) return cacheDir = set;
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .outputSync();
  const dir = out.success ? JSON.parse(new TextDecoder().decode(out.stdout)).denoDir : undefined;
  return cacheDir = typeof dir === "string" ? dir : "";
}

/**
 * What a child `deno` needs from this process's environment (see the module comment),
 * with `extra` on top. `DENO_DIR` is always set, to the cache this process uses.
 */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const dir = denoCacheDir();
  if (dir) env.DENO_DIR = dir;
  return { ...env, ...extra };
}
