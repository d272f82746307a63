/**
 * Content for `create`, `edit` and `write-file`: read by the warden from `--file F` or
 * stdin (the Worker reads neither), and handed over in the request.
 *
 * @module
 */
import { NotFoundError, UsageError } from "../errors.ts";
import { decodeUtf8 } from "../frontmatter/read_head.ts";
import { resolvePath } from "../home/paths.ts";
import type { CommandRequest } from "../worker/request.ts";

async function readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of Deno.stdin.readable) chunks.push(chunk);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Reads the content a request names and puts it in `options.content`: text, or base64 when `kind` is a support file's and it is not UTF-8. */
export async function attachContent(
  request: CommandRequest,
  cwd: string,
  kind: "skill" | "file",
): Promise<CommandRequest> {
  const file = request.options.file;
  let bytes: Uint8Array;
  if (typeof file === "string") {
    try {
      bytes = Deno.readFileSync(resolvePath(cwd, file));
    } catch (error) {
      // A file that is not there is not found (exit 1), as for every other path.
      const reason = error instanceof Deno.errors.NotFound
        ? "no such file"
        : error instanceof Deno.errors.IsADirectory
        ? "it is a folder"
        : (error as Error).message.split(" (os error")[0].toLowerCase();
      throw new NotFoundError(`Cannot read --file '${file}': ${reason}.`, { path: file });
    }
  } else {
    if (Deno.stdin.isTerminal()) {
      throw new UsageError("No content given: pass --file F or pipe the content on stdin.");
    }
    bytes = await readStdin();
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.invalid) {
    return { ...request, options: { ...request.options, content: decoded.text } };
  }
  if (kind !== "file") {
    throw new UsageError("The content is not valid UTF-8 text.");
  }
  const base64 = btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
  return { ...request, options: { ...request.options, content: base64, encoding: "base64" } };
}
