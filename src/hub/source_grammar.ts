/**
 * The grammar every part of a hub source is held to before it builds a URL, a path or a
 * git argument ([HUB-1], [HUB-5]): owners, repositories, refs, paths, index entry names
 * and URLs. A part that could change what is fetched — a `..` (also percent-encoded), a
 * backslash, a control character, a leading `-` that git would read as an option, or an
 * `@`, `#` or `?` that would move the host, the ref or the query — is refused with a line
 * naming the source and the part, so what is fetched is what was spelled. Pure: no I/O.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { hasControlChar, showControls } from "../manage/file_names.ts";

/** A GitHub owner: letters and digits, single inner hyphens, at most 39 characters. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** A repository name (not `.` or `..`, checked apart). */
const REPOSITORY = /^[A-Za-z0-9._-]{1,100}$/;
/** One segment of a path inside a source. */
const SEGMENT = /^[A-Za-z0-9._+-]{1,255}$/;
/** The characters of a git ref as skillrt accepts it (branch, tag or commit). */
const REF = /^[A-Za-z0-9._+/-]{1,255}$/;
/** A skill's name in a well-known index. */
const ENTRY = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,62}(?<!-)$/;
/** The digest of an index entry or file: `sha256:` and 64 lowercase hex digits. */
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** White space, zero-width characters and backslashes: none is in a URL of a source. */
const URL_SPACE = /[\s\\\u200b-\u200d\u2060]/;
/** True when a URL holds a control character ({@linkcode hasControlChar}) or {@linkcode URL_SPACE}. */
const urlBad = (raw: string) => hasControlChar(raw) || URL_SPACE.test(raw);

/** What a part of a source is, as its refusal names it. */
export type SourcePart =
  | "owner"
  | "repository"
  | "path"
  | "ref"
  | "skill name"
  | "digest"
  | "URL";

const WHAT: Record<SourcePart, string> = {
  owner: "a valid GitHub owner",
  repository: "a valid repository name",
  path: "a plain relative path",
  ref: "a valid git ref",
  "skill name": "a valid skill name",
  digest: "a sha256: digest (64 lowercase hex digits)",
  URL: "a plain URL",
};

/** The refusal of one part of a source. */
export function badPart(source: string, part: SourcePart, value: string, why?: string): never {
  throw new ValidationError(
    `Source '${showControls(source)}': the ${part} '${showControls(value)}' ${
      why ?? `is not ${WHAT[part]}`
    }.`,
  );
}

const dotSegment = (s: string) => s === "." || s === "..";

/** True for a GitHub owner. */
export function ownerOk(owner: string): boolean {
  return OWNER.test(owner);
}

/** True for a repository name. */
export function repositoryOk(repo: string): boolean {
  return REPOSITORY.test(repo) && !dotSegment(repo);
}

/** True for a `/`-separated relative path of plain segments (no `.`, `..` or empty one). */
export function pathOk(path: string): boolean {
  return path.split("/").every((s) => SEGMENT.test(s) && !dotSegment(s));
}

/**
 * True for a git ref skillrt passes on: the characters of {@linkcode REF}, not starting
 * with `-` (an option to git) or `/`, no `..`, no empty or hidden segment, no segment
 * ending in `.lock`, not ending in `.`.
 */
export function refOk(ref: string): boolean {
  if (!REF.test(ref) || ref.startsWith("-") || ref.includes("..") || ref.endsWith(".")) {
    return false;
  }
  return ref.split("/").every((s) => s !== "" && !s.startsWith(".") && !s.endsWith(".lock"));
}

/** True for a skill's name in a well-known index. */
export function entryNameOk(name: string): boolean {
  return ENTRY.test(name);
}

/** True for an index digest: `sha256:` and 64 lowercase hex digits. */
export function digestOk(digest: string): boolean {
  return DIGEST.test(digest);
}

/** The grammar of each part but URLs (checked by {@linkcode checkUrl}). */
const GRAMMAR: Record<Exclude<SourcePart, "URL">, (value: string) => boolean> = {
  owner: ownerOk,
  repository: repositoryOk,
  path: pathOk,
  ref: refOk,
  "skill name": entryNameOk,
  digest: digestOk,
};

/** Checks one part of `source` against its grammar; returns it. */
export function checkPart(
  source: string,
  part: Exclude<SourcePart, "URL">,
  value: string,
): string {
  if (!GRAMMAR[part](value)) badPart(source, part, value);
  return value;
}

/**
 * Why the path of a URL as written (absolute or relative, before `?` or `#`) is not
 * plain: a segment that is `.` or `..` — spelled or percent-encoded — or that decodes to
 * a slash, backslash or control character. Undefined when it is plain.
 */
export function urlPathProblem(path: string): string | undefined {
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `has a malformed percent-encoding '${segment}'`;
    }
    if (dotSegment(decoded)) return "climbs with a '.' or '..' segment";
    if (decoded !== segment && (/[/\\]/.test(decoded) || hasControlChar(decoded))) {
      return `hides '${showControls(decoded)}' in an encoded segment`;
    }
  }
  return undefined;
}

/** The path of a URL as written: what follows the authority, up to `?` or `#`. */
function writtenPath(raw: string): string {
  const afterScheme = raw.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, "");
  return afterScheme.split(/[?#]/)[0];
}

/**
 * Why a URL of a source is not plain, or undefined: control characters, white space or
 * backslashes, a scheme `allow` does not name, a user name or password (an `@` that
 * moves the host; an ssh user only where allowed), a user or host starting with `-`, a
 * `#` fragment (the caller splits off
 * a ref first), or a path {@linkcode urlPathProblem} refuses.
 */
export function urlProblem(raw: string, allow: UrlAllowance = {}): string | undefined {
  const protocols = allow.protocols ?? ["https:", "http:"];
  if (urlBad(raw)) return "holds white space, a backslash or a control character";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "does not parse";
  }
  if (!protocols.includes(url.protocol)) {
    return `is not ${protocols.map((p) => p.slice(0, -1)).join(" or ")}`;
  }
  if (url.password !== "" || (url.username !== "" && !(allow.sshUser && url.protocol === "ssh:"))) {
    return "names a user (an '@' before the host)";
  }
  // ssh reads a user or host that starts with '-' as an option (`-oProxyCommand=…`).
  if (url.username.startsWith("-") || url.hostname.startsWith("-")) {
    return "has a user or host starting with '-' (an option to ssh)";
  }
  if (raw.includes("#")) return "has a '#' fragment";
  return urlPathProblem(writtenPath(raw));
}

/** What a URL may have beyond plain `http(s)`. */
export interface UrlAllowance {
  /** The schemes allowed (with the colon); `https:` and `http:` when not given. */
  protocols?: readonly string[];
  /** An `ssh://user@host/…` URL may name its user. */
  sshUser?: boolean;
}

/** Checks a URL of `source` ({@linkcode urlProblem}); returns it parsed. */
export function checkUrl(source: string, raw: string, allow?: UrlAllowance): URL {
  const problem = urlProblem(raw, allow);
  if (problem) badPart(source, "URL", raw, problem);
  return new URL(raw);
}

/** Options of {@linkcode onIndexOrigin}. */
export interface IndexUrlOptions {
  /**
   * The URL is a v0.2.0 artifact's ([IO-1]: "absolute, or a path on the index's origin"),
   * which the digest in the index binds: it may lie on another host (a CDN) — by https, or
   * by the index's own scheme; never on this machine or a private network unless the
   * index is there too.
   */
  artifact?: boolean;
}

/**
 * A URL an index names for one of its files (absolute, or relative to the index),
 * resolved and checked: a plain URL ({@linkcode urlProblem}) on the index's own origin
 * (scheme, host and port) — or, for an artifact, on another host as
 * {@linkcode IndexUrlOptions.artifact} allows.
 * @throws {SkillrtError} naming the entry otherwise.
 */
export function onIndexOrigin(
  raw: string,
  index: string,
  entry: string,
  options: IndexUrlOptions = {},
): string {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw) || raw.startsWith("//");
  const problem = absolute
    ? urlProblem(raw.startsWith("//") ? new URL(index).protocol + raw : raw)
    : urlBad(raw)
    ? "holds white space, a backslash or a control character"
    : raw.includes("#")
    ? "has a '#' fragment"
    : urlPathProblem(raw.split("?")[0]);
  if (problem) {
    throw new ValidationError(`Refusing '${entry}': its URL '${showControls(raw)}' ${problem}.`);
  }
  const resolved = new URL(raw, index);
  const at = new URL(index);
  if (resolved.origin === at.origin) return resolved.href;
  const elsewhere = options.artifact ? otherHostProblem(resolved, at) : undefined;
  if (options.artifact && elsewhere === undefined) return resolved.href;
  const [what, value] = resolved.host !== at.host ? ["host", at.host] : ["origin", at.origin];
  throw new ValidationError(
    `Refusing '${resolved.href}': it is not on the index's ${what} '${value}'${
      elsewhere ? ` (${elsewhere})` : ""
    }.`,
  );
}

/** Why an artifact may not be fetched from `url`, another origin than the index's `at`. */
function otherHostProblem(url: URL, at: URL): string | undefined {
  if (url.protocol !== "https:" && url.protocol !== at.protocol) {
    return `an artifact on another host must be fetched by https or the index's ${at.protocol}`;
  }
  if (isPrivateHost(url.hostname) && !isPrivateHost(at.hostname)) {
    return "an index on the internet cannot send skillrt to this machine or a private network";
  }
  return undefined;
}

/**
 * True for a host name of this machine or a private network: `localhost`, loopback,
 * private, link-local and unspecified IPv4 and IPv6 addresses (as the URL parser writes
 * them: IPv6 in brackets, IPv4 in dotted decimal).
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127);
  }
  if (!host.startsWith("[")) return false;
  const v6 = host.slice(1, -1);
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(v6);
  if (mapped) return isPrivateHost(mapped[1]);
  return v6 === "::" || v6 === "::1" || /^f[cd][0-9a-f]{0,2}:/.test(v6) ||
    /^fe[89ab][0-9a-f]?:/.test(v6) ||
    /^::ffff:/.test(v6);
}
