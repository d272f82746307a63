/**
 * GitHub tarballs ([HUB-1], [HUB-5]): the shorthand `owner/repo[/path][@ref]` is fetched
 * from `<api>/repos/<owner>/<repo>/tarball[/<ref>]`, and its trust is that of the
 * repository the bytes came from — read off the URL of the last response after redirects
 * (the API's own, or codeload's), never off the spelling. A redirect to another
 * repository, or to a URL that names none, is trusted as that repository is, with a
 * warning.
 *
 * @module
 */
import { type ArchiveFile, downloadFrom, readArchiveBytes } from "./archive.ts";
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

/** Fetches a GitHub tarball (one top folder `owner-repo-commit/`) and the skill at its path. */
export async function fetchGithub(
  source: Extract<Source, { kind: "github" }>,
): Promise<GithubFetch> {
  const got = await downloadFrom(source.url);
  const files = await readArchiveBytes(got.bytes, "tarball.tar.gz");
  const top = files[0]?.path.split("/")[0] ?? "";
  const prefix = source.path ? `${top}/${source.path}/` : `${top}/`;
  const below = files.filter((f) => f.path.startsWith(prefix)).map((f) => ({
    path: f.path.slice(prefix.length),
    data: f.data,
  }));
  const spelled = `${source.owner}/${source.repo}`;
  const fetched = repositoryOfUrl(got.url, source.api);
  const trust = trustOf(fetched ? { kind: "repository", repository: fetched } : { kind: "other" });
  const same = fetched?.toLowerCase() === spelled.toLowerCase();
  return {
    files: below,
    identifier: got.url,
    trust,
    warnings: same ? [] : [
      `The tarball of '${spelled}' came from '${got.url}', which is not that repository; it installs as ${trust}.`,
    ],
  };
}
