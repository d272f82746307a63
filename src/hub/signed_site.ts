/**
 * A signed index names its site ([T-2]): `hub publish --sign` writes skillrt's extra
 * top-level field `site` — the site's base URL (`--base-url`: origin and path, no trailing
 * slash) — into the signed bytes, and a signed index is taken only from that site: the
 * final URL it was read at (after redirects), less its well-known path (or, for an index
 * URL of its own, its file name), must be that very site. So one key's index for site B,
 * served by site A's mirror, is refused, and the lock's `index_site` keeps an update on
 * the site the skill was installed from. Other clients ignore the field.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import { V01_WELL_KNOWN_PATH, WELL_KNOWN_PATH } from "./source.ts";

/** The site form of a base URL: origin and path, without query, fragment or trailing `/`. */
export function siteForm(base: string): string | undefined {
  try {
    const url = new URL(base);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

/** The site an index read at `url` is on: the URL less its well-known path, or its folder. */
export function siteOfIndex(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname;
  const suffix = [WELL_KNOWN_PATH, V01_WELL_KNOWN_PATH].find((p) => path.endsWith(p));
  const folder = suffix ? path.slice(0, -suffix.length) : path.slice(0, path.lastIndexOf("/"));
  return parsed.origin + folder.replace(/\/+$/, "");
}

/**
 * The site a signed index read at `finalUrl` (after redirects) is for, checked: the
 * index's `site` must be where it was read.
 * @throws {SkillrtError} when it names no site, or another one.
 */
export function checkedSite(site: unknown, finalUrl: string, shown: string): string {
  const here = siteOfIndex(finalUrl);
  if (typeof site !== "string" || siteForm(site) === undefined) {
    throw new ValidationError(
      `Refusing '${shown}': its signed index names no site, so it could be replayed from anywhere (republish it with hub publish --sign --base-url URL).`,
    );
  }
  if (siteForm(site) !== here) {
    throw new ValidationError(
      `Refusing '${shown}': its signed index is for the site '${site}', not '${here}' where it was read (an index replayed from another site).`,
    );
  }
  return here;
}
