/**
 * Reading archives for the hub ([HUB-2], §18): `.tar.gz`/`.tgz` (DecompressionStream and
 * a small tar reader) and `.zip` (its central directory read here, data inflated by
 * fflate). Entries that are absolute, contain `..`, or are links or devices refuse the
 * whole archive, and so do more than 1,000 files or 25 MiB of content — checked before
 * or while decompressing, so a zip bomb never fills the disk.
 *
 * @module
 */
import { inflateRaw } from "../deps/zip.ts";
import { isPermissionError, NotPermittedError, SkillrtError, ValidationError } from "../errors.ts";
import { isAbsoluteAnywhere } from "../home/paths.ts";
import { hasTraversal } from "../resolve/name_guard.ts";
import { hasControlChar, showControls } from "../manage/file_names.ts";
import { downloadLine, progress } from "./progress.ts";
import { interruptSignal, throwIfInterrupted } from "../interruption.ts";

/** The limits of [HUB-2]. */
export const ARCHIVE_LIMITS = {
  download: 10 * 1024 * 1024,
  files: 1000,
  extracted: 25 * 1024 * 1024,
};

/** One regular file of an archive. */
export interface ArchiveFile {
  /** Its path inside the archive, `/`-separated. */
  path: string;
  /** Its content. */
  data: Uint8Array;
}

function refuse(reason: string): never {
  throw new ValidationError(`Refusing the archive: ${reason}.`);
}

/** Checks an entry's path. */
export function checkEntryPath(path: string): string {
  const clean = path.replace(/^\.\//, "");
  if (hasControlChar(clean)) {
    refuse(`entry '${showControls(path)}' has a control character in its name`);
  }
  if (isAbsoluteAnywhere(clean)) refuse(`entry '${path}' has an absolute path`);
  if (hasTraversal(clean)) refuse(`entry '${path}' climbs out with '..'`);
  return clean;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

function counter() {
  let files = 0;
  let bytes = 0;
  return (size: number) => {
    if (++files > ARCHIVE_LIMITS.files) refuse(`more than ${ARCHIVE_LIMITS.files} files`);
    bytes += size;
    if (bytes > ARCHIVE_LIMITS.extracted) {
      refuse(`more than ${ARCHIVE_LIMITS.extracted} bytes when extracted`);
    }
  };
}

async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  // Headers take 512 bytes a file, so this bounds a tar of the limits with room to spare.
  const max = ARCHIVE_LIMITS.extracted + (ARCHIVE_LIMITS.files + 2) * 1024;
  const stream = new Blob([data.slice()]).stream().pipeThrough(new DecompressionStream("gzip"));
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (total > max) refuse(`more than ${ARCHIVE_LIMITS.extracted} bytes when extracted`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    refuse("it is not a valid gzip file");
  }
  return concat(chunks, total);
}

const text = (b: Uint8Array) => new TextDecoder().decode(b).replace(/\0.*$/s, "");

/** Reads a `.tar.gz`. */
export async function readTarGz(data: Uint8Array): Promise<ArchiveFile[]> {
  const tar = await gunzip(data);
  const files: ArchiveFile[] = [];
  const count = counter();
  let longName: string | undefined;
  for (let off = 0; off + 512 <= tar.length;) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(header.subarray(124, 136)).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) refuse("a tar header is damaged");
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = text(header.subarray(345, 500));
    let name = longName ??
      (prefix ? `${prefix}/${text(header.subarray(0, 100))}` : text(header.subarray(0, 100)));
    longName = undefined;
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = text(body);
      continue;
    }
    if (type === "x") {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body));
      if (path) longName = path[1];
      continue;
    }
    if (type === "g") continue;
    if (type === "1" || type === "2") {
      refuse(`entry '${name}' is a ${type === "1" ? "hard" : "symbolic"} link`);
    }
    if (type === "3" || type === "4" || type === "6") refuse(`entry '${name}' is a device or FIFO`);
    name = checkEntryPath(name);
    if (type === "5") continue;
    if (type !== "0" && type !== "7") refuse(`entry '${name}' has an unsupported type '${type}'`);
    count(size);
    files.push({ path: name, data: body.slice() });
  }
  return files;
}

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) =>
  (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

/** Reads a `.zip`: the central directory decides; sizes are checked before inflating. */
export function readZip(data: Uint8Array): ArchiveFile[] {
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 65557); i--) {
    if (u32(data, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) refuse("it is not a valid zip file");
  const entries = u16(data, eocd + 10);
  let off = u32(data, eocd + 16);
  const count = counter();
  const files: ArchiveFile[] = [];
  for (let n = 0; n < entries; n++) {
    if (u32(data, off) !== 0x02014b50) refuse("its central directory is damaged");
    const method = u16(data, off + 10);
    const compressed = u32(data, off + 20);
    const size = u32(data, off + 24);
    const nameLength = u16(data, off + 28);
    const extraLength = u16(data, off + 30);
    const commentLength = u16(data, off + 32);
    const mode = u32(data, off + 38) >>> 16;
    const local = u32(data, off + 42);
    const raw = new TextDecoder().decode(data.subarray(off + 46, off + 46 + nameLength));
    off += 46 + nameLength + extraLength + commentLength;
    const kind = mode & 0o170000;
    if (kind === 0o120000) refuse(`entry '${raw}' is a symbolic link`);
    if (kind !== 0 && kind !== 0o100000 && kind !== 0o040000) {
      refuse(`entry '${raw}' is a device or special file`);
    }
    const name = checkEntryPath(raw);
    if (name.endsWith("/") || kind === 0o040000) continue;
    count(size);
    const start = local + 30 + u16(data, local + 26) + u16(data, local + 28);
    const stored = data.subarray(start, start + compressed);
    let content: Uint8Array;
    if (method === 0) content = stored.slice();
    else if (method === 8) {
      try {
        content = inflateRaw(stored, size);
      } catch {
        refuse(`entry '${name}' does not inflate to its declared size`);
      }
    } else refuse(`entry '${name}' uses an unsupported compression method (${method})`);
    if (content.length !== size) refuse(`entry '${name}' does not inflate to its declared size`);
    files.push({ path: name, data: content });
  }
  return files;
}

/**
 * Reads archive bytes; `name` (a file name or URL path) says which kind, else the first
 * bytes do (gzip's `1f 8b`, a zip's `PK\x03\x04`).
 */
export async function readArchiveBytes(data: Uint8Array, name: string): Promise<ArchiveFile[]> {
  if (data.length > ARCHIVE_LIMITS.download) {
    refuse(`it is ${data.length} bytes; the limit is ${ARCHIVE_LIMITS.download}`);
  }
  if (/\.zip$/i.test(name)) return readZip(data);
  if (/\.(tar\.gz|tgz)$/i.test(name) || (data[0] === 0x1f && data[1] === 0x8b)) {
    return await readTarGz(data);
  }
  if (u32(data, 0) === 0x04034b50) return readZip(data);
  refuse(`'${name}' is not a .tar.gz, .tgz or .zip file`);
}

/** Reads an archive file by its extension, within the download limit. */
export async function readArchive(path: string): Promise<ArchiveFile[]> {
  const size = Deno.statSync(path).size;
  if (size > ARCHIVE_LIMITS.download) {
    refuse(`it is ${size} bytes; the limit is ${ARCHIVE_LIMITS.download}`);
  }
  return await readArchiveBytes(Deno.readFileSync(path), path);
}

/** The chunks of a download; an interruption ends it (its line says so) at the next chunk. */
async function* untilInterruptedEach(
  body: ReadableStream<Uint8Array>,
  url: string,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (error) {
    if (interruptSignal.aborted) progress(`Downloading ${url}: interrupted.`, true);
    throwIfInterrupted();
    throw error;
  }
}

/** Downloads an archive over HTTP(S), stopping as soon as it passes the download limit. */
export async function download(
  url: string,
  limit: number = ARCHIVE_LIMITS.download,
): Promise<Uint8Array> {
  return (await downloadFrom(url, limit)).bytes;
}

/**
 * Downloads like {@linkcode download}, and says where the bytes came from: the URL of
 * the last response after redirects (what trust is decided on, never the spelling).
 */
export async function downloadFrom(
  url: string,
  limit: number = ARCHIVE_LIMITS.download,
  credential?: OriginCredential,
): Promise<{ bytes: Uint8Array; url: string }> {
  return await readResponse(await request(url, credential), url, limit);
}

/** An `Authorization` value for one origin only ([T-4]): never sent where a redirect leads. */
export interface OriginCredential {
  /** The origin it is sent to (`https://api.github.com`). */
  origin: string;
  /** The header's value (`Bearer …`); never printed or logged. */
  authorization: string;
}

/** Redirects followed for a download that carries a credential. */
const MAX_REDIRECTS = 10;

/** Downloads like {@linkcode downloadFrom}, or undefined when the host has no such file (404, 410). */
export async function downloadIfPresent(
  url: string,
  limit: number = ARCHIVE_LIMITS.download,
): Promise<{ bytes: Uint8Array; url: string } | undefined> {
  const response = await request(url);
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    return undefined;
  }
  return await readResponse(response, url, limit);
}

async function request(url: string, credential?: OriginCredential): Promise<Response> {
  try {
    return credential
      ? await followWith(url, credential)
      : await fetch(url, { redirect: "follow", signal: interruptSignal });
  } catch (error) {
    if (error instanceof SkillrtError) throw error;
    throwIfInterrupted();
    if (isPermissionError(error)) throw notGranted(url, error as Error);
    throw new SkillrtError(`Cannot download '${url}': ${(error as Error).message.split("\n")[0]}`);
  }
}

/**
 * Fetches `url`, following redirects one at a time so that the credential goes only to
 * its own origin: a hop to any other host (GitHub's codeload, or anywhere a server sends
 * it) is made without it ([T-4]).
 */
async function followWith(url: string, credential: OriginCredential): Promise<Response> {
  let at = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const own = new URL(at).origin === credential.origin;
    const response = await fetch(at, {
      redirect: "manual",
      signal: interruptSignal,
      ...(own ? { headers: { authorization: credential.authorization } } : {}),
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    at = new URL(location, at).href;
  }
  throw new SkillrtError(`Cannot download '${url}': more than ${MAX_REDIRECTS} redirects.`);
}

/**
 * The one line for a download the sandbox refused: the host it names is the URL's own
 * (not granted) or one a redirect led to — a source's plan grants only its own hosts
 * (for GitHub, the API's and its tarball host), never where a server sends it.
 */
function notGranted(url: string, error: Error): NotPermittedError {
  const host = /Requires net access to "([^"]*)"/.exec(error.message)?.[1] ?? "another host";
  const own = host === new URL(url).host;
  return new NotPermittedError(
    own
      ? `Cannot download '${url}': the sandbox does not grant network access to '${
        showControls(host)
      }'.`
      : `Cannot download '${url}': it redirects to '${
        showControls(host)
      }', a host this source's sandbox does not grant.`,
    { host },
  );
}

/** The body of `response`, stopping as soon as it passes `limit` bytes. */
async function readResponse(
  response: Response,
  url: string,
  limit: number,
): Promise<{ bytes: Uint8Array; url: string }> {
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new SkillrtError(`Cannot download '${url}': HTTP ${response.status}.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const size = Number(response.headers.get("content-length")) || undefined;
  for await (const chunk of untilInterruptedEach(response.body, url)) {
    total += chunk.length;
    if (total > limit) {
      await response.body.cancel().catch(() => {});
      progress(downloadLine(url, total), true);
      refuse(`the download passed ${limit} bytes`);
    }
    chunks.push(chunk);
    progress(downloadLine(url, total, size));
  }
  progress(downloadLine(url, total, size), true);
  return { bytes: concat(chunks, total), url: response.url || url };
}

/** The folder inside an archive that holds the skill: where its only shallowest SKILL.md is. */
export function skillRootOf(files: ArchiveFile[]): string {
  const skills = files.map((f) => f.path).filter((p) =>
    p === "SKILL.md" || p.endsWith("/SKILL.md")
  );
  if (skills.length === 0) refuse("it holds no SKILL.md");
  const depth = (p: string) => p.split("/").length;
  const shallowest = Math.min(...skills.map(depth));
  const top = skills.filter((p) => depth(p) === shallowest);
  if (top.length > 1) {
    refuse(
      `it holds ${top.length} skills side by side (${
        top.join(", ")
      }); install one folder at a time`,
    );
  }
  return top[0].slice(0, -"SKILL.md".length).replace(/\/$/, "");
}
