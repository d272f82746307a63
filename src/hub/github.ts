/**
 * GitHub tarballs ([HUB-1], [HUB-5]): the shorthand `owner/repo[/path][@ref]` is fetched
 * from `<api>/repos/<owner>/<repo>/tarball[/<ref>]`, and its trust is that of the
 * repository the bytes came from — read off the URL of the last response after redirects
 * (the API's own, or codeload's), never off the spelling. A redirect to another
 * repository, or to a URL that names none, is trusted as that repository is, with a
 * warning. A trusted repository's trust also needs a ref its owners control
 * ({@linkcode refKeepsTrust}): a pull request's head or a bare commit hash may be a
 * stranger's (GitHub serves a fork's commits under its parent's name), so such a ref
 * installs as `community`, saying why.
 *
 * @module
 */
import {
  type ArchiveFile,
  downloadFrom,
  type OriginCredential,
  readArchiveBytes,
} from "./archive.ts";
import { type Trust, trustOf } from "./policy.ts";
import type { Source } from "./source.ts";
import { ownerOk, repositoryOk } from "./source_grammar.ts";

/** The host GitHub's API redirects tarball downloads to. */
const CODELOAD = "https://codeload.github.com";

/** What a GitHub tarball gave: the skill's files, where they came from, and its trust. */
export interface GithubFetch {
  /** The files below the source's path. */
  files: ArchiveFile[];
  /** The URL the tarball came from, after redirects. */
  identifier: string;
  /** The trust of the repository it came from. */
  trust: Trust;
  /** Why it is not trusted as the spelled repository would be, when it came from another. */
  warnings: string[];
  /** The commit the tarball holds (its top folder `owner-repo-<commit>`), when it says. */
  commit?: string;
}

/**
 * The token of `skills.hub.github_token_env`, for the API's origin only ([T-4]): read
 * here, in the Worker granted that one name, and never printed or logged. Undefined when
 * no variable is configured or it is empty (a public repository needs none).
 */
function credentialOf(source: Extract<Source, { kind: "github" }>): OriginCredential | undefined {
  const token = source.tokenEnv !== undefined ? Deno.env.get(source.tokenEnv) : undefined;
  if (!token) return undefined;
  return { origin: new URL(source.api).origin, authorization: `Bearer ${token}` };
}

/** A URL without its query and fragment. */
function withoutQuery(url: string): string {
  const at = new URL(url);
  at.search = "";
  at.hash = "";
  return at.href;
}

/** The commit a GitHub tarball's top folder (`owner-repo-<commit>`) names. */
function commitOfTop(top: string): string | undefined {
  return /-([0-9a-f]{7,40})$/.exec(top)?.[1];
}

function segments(path: string): string[] | undefined {
  try {
    return path.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    return undefined; // A malformed escape names no repository.
  }
}

/**
 * The `owner/repo` a tarball URL names: `<api>/repos/<o>/<r>/tarball[/…]` on the API's
 * origin, or codeload's `/<o>/<r>/(legacy.)tar.gz/…`; undefined for any other URL.
 */
export function repositoryOfUrl(url: string, api: string): string | undefined {
  const at = new URL(url);
  const base = new URL(`${api}/`);
  let parts: string[] | undefined;
  if (at.origin === base.origin && at.pathname.startsWith(base.pathname)) {
    const rest = segments(at.pathname.slice(base.pathname.length));
    if (rest?.[0] === "repos" && rest[3] === "tarball") parts = rest.slice(1, 3);
  } else if (at.origin === CODELOAD) {
    const rest = segments(at.pathname);
    if (rest?.[2] === "tar.gz" || rest?.[2] === "legacy.tar.gz") parts = rest.slice(0, 2);
  }
  if (!parts || !ownerOk(parts[0]) || !repositoryOk(parts[1])) return undefined;
  return `${parts[0]}/${parts[1]}`;
}

/**
 * True when `ref` (absent: the default branch) names what only the repository's owners
 * can move: a branch or a tag (`main`, `v1.2`, `refs/heads/…`, `refs/tags/…`). False for
 * any other `refs/…` (`refs/pull/N/head`, `refs/remotes/…`), GitHub's `pull/N/head`, and
 * a name that could be a commit hash (7 to 40 hex digits), which any fork can supply.
 */
export function refKeepsTrust(ref: string | undefined): boolean {
  if (ref === undefined) return true;
  if (/^[0-9a-f]{7,40}$/i.test(ref)) return false;
  if (/^refs\//.test(ref)) return /^refs\/(heads|tags)\/./.test(ref);
  return !/^pull\//.test(ref);
}

/** Fetches a GitHub tarball (one top folder `owner-repo-commit/`) and the skill at its path. */
export async function fetchGithub(
  source: Extract<Source, { kind: "github" }>,
): Promise<GithubFetch> {
  const got = await downloadFrom(source.url, undefined, credentialOf(source));
  const files = await readArchiveBytes(got.bytes, "tarball.tar.gz");
  const top = files[0]?.path.split("/")[0] ?? "";
  const prefix = source.path ? `${top}/${source.path}/` : `${top}/`;
  const below = files.filter((f) => f.path.startsWith(prefix)).map((f) => ({
    path: f.path.slice(prefix.length),
    data: f.data,
  }));
  const spelled = `${source.owner}/${source.repo}`;
  // A private repository's codeload URL carries a short-lived token in its query.
  const from = withoutQuery(got.url);
  const fetched = repositoryOfUrl(from, source.api);
  const repository = trustOf(
    fetched ? { kind: "repository", repository: fetched } : { kind: "other" },
  );
  const strangers = repository === "trusted" && !refKeepsTrust(source.ref);
  const trust = strangers ? trustOf({ kind: "other" }) : repository;
  const same = fetched?.toLowerCase() === spelled.toLowerCase();
  return {
    files: below,
    identifier: from,
    ...(commitOfTop(top) !== undefined ? { commit: commitOfTop(top) } : {}),
    trust,
    warnings: [
      ...same ? [] : [
        `The tarball of '${spelled}' came from '${from}', which is not that repository; it installs as ${trust}.`,
      ],
      ...strangers
        ? [
          `'${source.ref}' is not a branch or tag of '${fetched}': a pull request or a commit hash may be anyone's (a fork's commits are served under its parent's name), so it installs as ${trust}; name a branch or tag to keep the repository's trust.`,
        ]
        : [],
    ],
  };
}
