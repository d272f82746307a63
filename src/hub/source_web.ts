/**
 * Sources as users paste them ([IO-5]): a GitHub or GitLab page URL (`https://github.com/o/r`,
 * `…/tree/REF/PATH`, `…/blob/REF/PATH/SKILL.md`, `https://gitlab.com/g/sub/r`,
 * `…/-/tree/REF/PATH`) and git's scp-like `user@host:o/r.git`, read into the parts the
 * source grammar (`source_grammar.ts`) then holds each to. Pure: no I/O.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { showControls } from "../manage/file_names.ts";
import { checkPart, checkUrl } from "./source_grammar.ts";

/** The parts of a page URL: a GitHub repository, or a git repository of a GitLab. */
export type WebParts =
  | { kind: "github"; owner: string; repo: string; ref?: string; path?: string }
  | { kind: "git"; url: string; ref?: string; subpath?: string };

/** The hosts whose page URLs are GitHub repositories (their tarballs come from the API). */
const GITHUB_HOSTS = new Set(["github.com", "www.github.com"]);

/** `REF/PATH` of a `tree` or `blob` URL: a `blob` names the skill's SKILL.md. */
function refAndPath(
  source: string,
  kind: string,
  rest: string[],
): { ref?: string; path?: string } {
  if (rest.length === 0) return {};
  let [ref, ...path] = rest;
  if (kind === "blob") {
    if (path.at(-1) !== "SKILL.md") {
      throw new ValidationError(
        `Source '${
          showControls(source)
        }' names a file that is not a SKILL.md; give the skill's folder.`,
      );
    }
    path = path.slice(0, -1);
  }
  checkPart(source, "ref", ref);
  const joined = path.join("/");
  return { ref, ...(joined ? { path: checkPart(source, "path", joined) } : {}) };
}

/** The path segments of a page URL (a trailing slash dropped). */
function segmentsOf(url: URL): string[] {
  return url.pathname.split("/").slice(1).filter((s, i, all) => s !== "" || i < all.length - 1);
}

/** `https://github.com/o/r[/tree|blob/REF[/PATH]]`. */
function githubPage(source: string, parts: string[]): WebParts {
  const [owner, rawRepo, kind, ...rest] = parts;
  const repo = (rawRepo ?? "").replace(/\.git$/i, "");
  checkPart(source, "owner", owner ?? "");
  checkPart(source, "repository", repo);
  if (kind !== undefined && kind !== "tree" && kind !== "blob") {
    throw new ValidationError(
      `Source '${
        showControls(source)
      }' is not a repository, tree or blob page (https://github.com/OWNER/REPO[/tree/REF/PATH]).`,
    );
  }
  return { kind: "github", owner, repo, ...refAndPath(source, kind ?? "tree", rest) };
}

/** `https://gitlab.host/group[/sub…]/repo[/-/tree|blob/REF[/PATH]]`: the repository's git URL. */
function gitlabPage(source: string, url: URL, parts: string[]): WebParts {
  const dash = parts.indexOf("-");
  const repoParts = dash === -1 ? parts : parts.slice(0, dash);
  const [kind, ...rest] = dash === -1 ? [] : parts.slice(dash + 1);
  if (repoParts.length < 2 || (dash !== -1 && kind !== "tree" && kind !== "blob")) {
    throw new ValidationError(
      `Source '${
        showControls(source)
      }' is not a repository, tree or blob page (https://gitlab.com/GROUP/REPO[/-/tree/REF/PATH]).`,
    );
  }
  const repo = repoParts.at(-1)!.replace(/\.git$/i, "");
  checkPart(source, "path", repoParts.slice(0, -1).join("/"));
  checkPart(source, "repository", repo);
  const { ref, path } = refAndPath(source, kind ?? "tree", rest);
  const gitUrl = `${url.origin}/${[...repoParts.slice(0, -1), repo].join("/")}.git`;
  checkUrl(source, gitUrl);
  return { kind: "git", url: gitUrl, ref, subpath: path };
}

/**
 * The parts of a GitHub or GitLab page URL (already held to {@linkcode checkUrl}), or
 * undefined for a URL of another site. A GitLab is `gitlab.com`, a host named `gitlab.…`,
 * or any host whose path has GitLab's `/-/tree/` or `/-/blob/`.
 */
export function webParts(source: string, url: URL): WebParts | undefined {
  const parts = segmentsOf(url);
  if (GITHUB_HOSTS.has(url.hostname)) return githubPage(source, parts);
  const gitlabPath = /\/-\/(tree|blob)(\/|$)/.test(url.pathname);
  if (url.hostname === "gitlab.com" || url.hostname.startsWith("gitlab.") || gitlabPath) {
    return gitlabPage(source, url, parts);
  }
  return undefined;
}

/** git's scp-like form `user@host:path` (no scheme), as the grammar accepts it. */
const SCP = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):([^/].*)$/;
/** The shape of an scp-like address, whatever its parts: held to {@linkcode SCP} then. */
const SCP_SHAPE = /^[^\s/:@]+@[^\s/:@]+:/;

/** True for what is spelled as git's scp-like `user@host:o/r.git`. */
export function isScpLike(source: string): boolean {
  return !source.includes("://") && SCP_SHAPE.test(source);
}

/**
 * An scp-like `user@host:path` held to the grammar: the user and host may not start with
 * `-` (an option to ssh), the path is plain relative segments (so no `..`, no absolute
 * path), and its `ssh://user@host/path` equivalent is a plain URL. Returned as spelled: git
 * reads the path relative to the server's home, as `git clone` of it would.
 */
export function checkScp(source: string, spelled: string): string {
  const m = SCP.exec(spelled);
  if (!m || m[1].startsWith("-") || m[2].startsWith("-") || m[2].startsWith(".")) {
    throw new ValidationError(
      `Source '${showControls(source)}' is not a git address of the form user@host:owner/repo.git.`,
    );
  }
  checkPart(source, "path", m[3]);
  const url = `ssh://${m[1]}@${m[2]}/${m[3]}`;
  checkUrl(source, url, { protocols: ["ssh:"], sshUser: true });
  return spelled;
}
