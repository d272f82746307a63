/**
 * Hub sources ([HUB-1]), parsed without touching anything: a local folder or archive,
 * an `http(s)` archive, a git repository (`git+https://…`, `git+file://…`, a `.git` URL,
 * with `#ref` and `//subpath`), the GitHub shorthand `owner/repo[/path][@ref]`, or a
 * skill of a well-known index (a bare name looked up in the configured indexes, or
 * `https://host/.well-known/agent-skills/index.json#name`).
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";

/** The path of an Agent Skills well-known index below a site. */
export const WELL_KNOWN_PATH = "/.well-known/agent-skills/index.json";

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
    url: string;
    host: string;
  };

/** The file endings of the archives the hub reads. */
export const ARCHIVE = /\.(tar\.gz|tgz|zip)$/i;
const SHORTHAND =
  /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)((?:\/[A-Za-z0-9_.-]+)*)(?:@([A-Za-z0-9_./-]+))?$/;

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

function wellKnown(name: string, indexes: string[]): Source {
  return { kind: "well-known", name, indexes, hosts: indexes.map((i) => new URL(i).host) };
}

/** True for `https://host/.well-known/agent-skills/index.json#name`: a skill of an index. */
export function isWellKnownSource(source: string): boolean {
  const at = source.indexOf(`${WELL_KNOWN_PATH}#`);
  return /^https?:\/\//.test(source) && at !== -1 &&
    at + WELL_KNOWN_PATH.length + 1 < source.length;
}

/**
 * Parses a source string; `githubBase` is where the shorthand's tarballs come from and
 * `indexes` are the well-known indexes a bare skill name is looked up in.
 */
export function parseSource(
  source: string,
  githubBase = "https://api.github.com",
  exists: (p: string) => boolean = () => false,
  indexes: string[] = [],
): Source {
  if (isWellKnownSource(source)) {
    const hash = source.indexOf("#");
    return wellKnown(source.slice(hash + 1), [source.slice(0, hash)]);
  }
  if (source.startsWith("git+")) {
    const { url, ref, subpath } = splitGit(source.slice(4));
    return {
      kind: "git",
      url,
      ref,
      subpath,
      ...(url.startsWith("http") ? { host: new URL(url).host } : {}),
    };
  }
  if (/^https?:\/\//.test(source)) {
    const { url: bare, ref, subpath } = splitGit(source);
    if (/\.git$/i.test(bare)) {
      return { kind: "git", url: bare, ref, subpath, host: new URL(bare).host };
    }
    if (ARCHIVE.test(new URL(source).pathname)) {
      return { kind: "http", url: source, host: new URL(source).host };
    }
    throw new SkillrtError(
      `Source '${source}' is not an archive (.tar.gz, .tgz, .zip) or a git repository (.git).`,
    );
  }
  if (
    exists(source) || source.startsWith(".") || source.startsWith("/") || source.startsWith("~")
  ) return { kind: "local", path: source };
  const m = SHORTHAND.exec(source);
  if (m) {
    const [, owner, repo, path, ref] = m;
    const base = githubBase.replace(/\/$/, "");
    const url = `${base}/repos/${owner}/${repo}/tarball${ref ? `/${ref}` : ""}`;
    return {
      kind: "github",
      owner,
      repo,
      path: path ? path.slice(1) : undefined,
      ref,
      url,
      host: new URL(url).host,
    };
  }
  if (indexes.length > 0 && /^[a-z0-9][a-z0-9-]*$/.test(source)) return wellKnown(source, indexes);
  return { kind: "local", path: source };
}

/** The name a remote source installs under when `--name` is not given: its last path segment. */
export function sourceName(source: Source): string {
  switch (source.kind) {
    case "local":
      return source.path.replace(/\/$/, "").split("/").pop()!.replace(ARCHIVE, "");
    case "http":
      return new URL(source.url).pathname.split("/").pop()!.replace(ARCHIVE, "");
    case "git":
      return (source.subpath ?? new URL(source.url.replace(/^file:\/\//, "file:///")).pathname)
        .replace(/\/$/, "").split("/").pop()!
        .replace(/\.git$/i, "");
    case "github":
      return (source.path ?? source.repo).split("/").pop()!;
    case "well-known":
      return source.name;
  }
}
