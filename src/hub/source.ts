/**
 * Hub sources ([HUB-1], [IO-5]), parsed without touching anything: a local folder or
 * archive (spelled as a path: `./x`, `../x`, `/x`, `~/x`), an `http(s)` archive, a git
 * repository (`git+https://…`, `git+file://…`, a `.git` URL, `ssh://…`, `git://…` or git's
 * `user@host:o/r.git`, with `#ref` and `//subpath`), a GitHub or GitLab page URL
 * (`source_web.ts`), the GitHub shorthand `owner/repo[/path][@ref]` — always the
 * remote repository, never a folder of that name here — or a skill of a well-known index
 * (a bare name looked up in the configured indexes, or
 * `https://host/.well-known/agent-skills/index.json#name`).
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { showControls } from "../manage/file_names.ts";
import { isPathEntry } from "./collection_paths.ts";
import { checkPart, checkUrl } from "./source_grammar.ts";
import { checkScp, isScpLike, webParts } from "./source_web.ts";

/** The path of an Agent Skills well-known index below a site. */
export const WELL_KNOWN_PATH = "/.well-known/agent-skills/index.json";
/** Where a v0.1 index is, tried when a site has none at {@linkcode WELL_KNOWN_PATH} ([IO-1]). */
export const V01_WELL_KNOWN_PATH = "/.well-known/skills/index.json";

/** A parsed source. */
export type Source =
  | { kind: "local"; path: string }
  | { kind: "http"; url: string; host: string }
  | { kind: "git"; url: string; ref?: string; subpath?: string; host?: string }
  | { kind: "well-known"; name: string; indexes: string[]; hosts: string[] }
  | {
    kind: "github";
    owner: string;
    repo: string;
    path?: string;
    ref?: string;
    /** The tarball URL built from the parts. */
    url: string;
    /** The GitHub API base it was built on (no trailing slash). */
    api: string;
    host: string;
    /**
     * The hosts its download may reach: the API's, and the one the API redirects tarballs
     * to (`codeload.github.com` for `api.github.com`, else `skills.hub.github_codeload`).
     */
    hosts: string[];
    /** The environment variable holding the GitHub token (`skills.hub.github_token_env`, [T-4]). */
    tokenEnv?: string;
  };

/** Where GitHub sources come from: the API base, and the host it redirects tarballs to. */
export interface GitHubBase {
  /** `skills.hub.github_base` (default `https://api.github.com`). */
  base: string;
  /** `skills.hub.github_codeload`: a URL whose host serves the API's tarball redirects. */
  codeload?: string;
  /** `skills.hub.github_token_env`: the name of the variable holding a token ([T-4]). */
  tokenEnv?: string;
}

/** The host github.com's API redirects tarball downloads to. */
export const GITHUB_CODELOAD = "codeload.github.com";

/** The file endings of the archives the hub reads. */
export const ARCHIVE = /\.(tar\.gz|tgz|zip)$/i;
/** The shape of the GitHub shorthand; each part is then held to its grammar. */
const SHORTHAND = /^([^\s/@]+)\/([^\s/@]+)((?:\/[^\s@]*)*)(?:@(\S*))?$/;
/** The schemes a git source may use (git's own `GIT_ALLOW_PROTOCOL` list is the same). */
const GIT_PROTOCOLS = ["https:", "http:", "ssh:", "git:", "file:"];

function splitGit(rest: string): { url: string; ref?: string; subpath?: string } {
  let url = rest;
  let ref: string | undefined;
  let subpath: string | undefined;
  const hash = url.indexOf("#");
  if (hash !== -1) {
    ref = url.slice(hash + 1) || undefined;
    url = url.slice(0, hash);
  }
  const schemeEnd = url.indexOf("://");
  const sub = url.indexOf("//", schemeEnd === -1 ? 0 : schemeEnd + 3);
  if (sub !== -1) {
    subpath = url.slice(sub + 2).replace(/\/$/, "") || undefined;
    url = url.slice(0, sub);
  }
  if (ref?.includes("//")) {
    const [r, s] = ref.split("//");
    ref = r || undefined;
    subpath = s || subpath;
  }
  return { url, ref, subpath };
}

/** A git source with its URL, ref and subpath held to their grammar. */
function gitSource(source: string, rest: string): Extract<Source, { kind: "git" }> {
  const { url, ref, subpath } = splitGit(rest);
  const protocol = isScpLike(url)
    ? (checkScp(source, url), "ssh:")
    : checkUrl(source, url, { protocols: GIT_PROTOCOLS, sshUser: true }).protocol;
  return gitOf(source, url, protocol, ref, subpath);
}

/** A git source of a checked URL, its ref and subpath held to their grammar. */
function gitOf(
  source: string,
  url: string,
  protocol: string,
  ref?: string,
  subpath?: string,
): Extract<Source, { kind: "git" }> {
  if (ref !== undefined) checkPart(source, "ref", ref);
  if (subpath !== undefined) checkPart(source, "path", subpath);
  return {
    kind: "git",
    url,
    ref,
    subpath,
    ...(protocol.startsWith("http") ? { host: new URL(url).host } : {}),
  };
}

function wellKnown(name: string, indexes: string[]): Source {
  return { kind: "well-known", name, indexes, hosts: indexes.map((i) => new URL(i).host) };
}

/** True for `https://host/.well-known/agent-skills/index.json#name` (or v0.1's path): a skill of an index. */
export function isWellKnownSource(source: string): boolean {
  return /^https?:\/\//.test(source) && [WELL_KNOWN_PATH, V01_WELL_KNOWN_PATH].some((path) => {
    const at = source.indexOf(`${path}#`);
    return at !== -1 && at + path.length + 1 < source.length;
  });
}

/** `https://host/.well-known/agent-skills/index.json#name`, its URL and name checked. */
function wellKnownSource(source: string): Source {
  const hash = source.indexOf("#");
  const index = source.slice(0, hash);
  checkUrl(source, index);
  return wellKnown(checkPart(source, "skill name", source.slice(hash + 1)), [index]);
}

/**
 * An `http(s)` source: a git repository (`….git`), an archive, or a GitHub or GitLab page
 * (a GitHub page is the repository the shorthand names, fetched and trusted the same way).
 */
function urlSource(source: string, githubBase: GitHubBase): Source {
  const { url: bare } = splitGit(source);
  if (/\.git$/i.test(bare)) return gitSource(source, source);
  const url = checkUrl(source, source);
  if (ARCHIVE.test(url.pathname)) return { kind: "http", url: url.href, host: url.host };
  const web = webParts(source, url);
  if (web?.kind === "github") return githubOf(web, githubBase);
  if (web) return gitOf(source, web.url, url.protocol, web.ref, web.subpath);
  throw new ValidationError(
    `Source '${
      showControls(source)
    }' is not an archive (.tar.gz, .tgz, .zip), a git repository (.git) or a GitHub or GitLab page.`,
  );
}

/** The GitHub shorthand `owner/repo[/path][@ref]`, each part held to its grammar. */
function githubSource(source: string, m: RegExpExecArray, githubBase: GitHubBase): Source {
  const [, owner, repo, rawPath, ref] = m;
  checkPart(source, "owner", owner);
  checkPart(source, "repository", repo);
  const path = rawPath ? checkPart(source, "path", rawPath.slice(1)) : undefined;
  if (ref !== undefined) checkPart(source, "ref", ref);
  return githubOf({ owner, repo, path, ref }, githubBase);
}

/** The tarball source of a GitHub repository's parts (already held to their grammar). */
function githubOf(
  { owner, repo, path, ref }: { owner: string; repo: string; path?: string; ref?: string },
  githubBase: GitHubBase,
): Source {
  const api = githubBase.base.replace(/\/+$/, "");
  const url = `${api}/repos/${owner}/${repo}/tarball${ref ? `/${ref}` : ""}`;
  const host = new URL(url).host;
  const hosts = [...new Set([host, ...codeloadHosts(host, githubBase.codeload)])];
  const token = githubBase.tokenEnv !== undefined ? { tokenEnv: githubBase.tokenEnv } : {};
  return { kind: "github", owner, repo, path, ref, url, api, host, hosts, ...token };
}

/** The host a GitHub API at `host` redirects tarballs to, when it is another host. */
function codeloadHosts(host: string, codeload: string | undefined): string[] {
  if (codeload === undefined) return host === "api.github.com" ? [GITHUB_CODELOAD] : [];
  try {
    return [new URL(codeload).host];
  } catch {
    throw new ValidationError(
      `skills.hub.github_codeload '${
        showControls(codeload)
      }' is not a URL (e.g. https://${GITHUB_CODELOAD}).`,
    );
  }
}

/**
 * Parses a source string; `githubBase` is where the shorthand's tarballs come from and
 * `indexes` are the well-known indexes a bare skill name is looked up in. Every part of a
 * remote source is held to its grammar (`source_grammar.ts`) before it builds anything.
 * Only a path-spelled source is local: what a folder here is named never changes what a
 * source means (a cloned repository's `anthropics/skills` folder is not `anthropics/skills`).
 * @throws {SkillrtError} naming the source and the part that is refused, or for a word
 * that is no source form.
 */
export function parseSource(
  source: string,
  github: string | GitHubBase = "https://api.github.com",
  indexes: string[] = [],
): Source {
  const githubBase = typeof github === "string" ? { base: github } : github;
  if (isWellKnownSource(source)) return wellKnownSource(source);
  if (source.startsWith("git+")) return gitSource(source, source.slice(4));
  if (/^(ssh|git):\/\//i.test(source) || isScpLike(source)) return gitSource(source, source);
  if (/^https?:\/\//i.test(source)) return urlSource(source, githubBase);
  if (isPathEntry(source)) return { kind: "local", path: source };
  const m = SHORTHAND.exec(source);
  if (m) return githubSource(source, m, githubBase);
  if (indexes.length > 0 && /^[a-z0-9][a-z0-9-]*$/.test(source)) return wellKnown(source, indexes);
  throw new ValidationError(
    `Source '${
      showControls(source)
    }' is not a source: spell a local folder or archive as a path ('./${
      showControls(source)
    }'); a bare name is looked up in skills.hub.collections and skills.hub.indexes, and none holds it.`,
  );
}

/** A source's last path segment: the name its skill falls back on when its SKILL.md declares none. */
export function sourceName(source: Source): string {
  switch (source.kind) {
    case "local":
      return source.path.replace(/\/$/, "").split("/").pop()!.replace(ARCHIVE, "");
    case "http":
      return new URL(source.url).pathname.split("/").pop()!.replace(ARCHIVE, "");
    case "git":
      return (source.subpath ??
        source.url.replace(/^[a-z+]+:\/\/[^/]*/i, "").replace(/^[^/]*:/, ""))
        .replace(/\/$/, "").split("/").pop()!
        .replace(/\.git$/i, "");
    case "github":
      return (source.path ?? source.repo).split("/").pop()!;
    case "well-known":
      return source.name;
  }
}
