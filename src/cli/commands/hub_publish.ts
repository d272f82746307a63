/**
 * `hub publish DIR… --out SITE` ([T-1], [T-2]) and `hub keygen --out KEYFILE` ([T-2]):
 * the two hub actions that write outside the home, into an output the user named.
 *
 * @module
 */
import { SkillrtError, UsageError } from "../../errors.ts";
import { resolvePath } from "../../home/paths.ts";
import { publishSite } from "../../hub/publish.ts";
import { generateKeyPair } from "../../hub/signing.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

function createExclusive(path: string, text: string, mode: number): void {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { write: true, createNew: true, mode });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new SkillrtError(`'${path}' already exists; a key is never overwritten.`);
    }
    throw error;
  }
  try {
    file.writeSync(new TextEncoder().encode(text));
  } finally {
    file.close();
  }
}

/** Runs `hub publish` or `hub keygen`. */
export async function runPublish(runtime: SkillRuntime, request: CommandRequest): Promise<Outcome> {
  const [action, ...dirs] = request.args;
  const out = typeof request.options.out === "string" ? request.options.out : undefined;
  if (!out) throw new UsageError(`'hub ${action}' needs --out.`);
  const cwd = runtime.setup.host.cwd;
  if (action === "keygen") {
    const path = resolvePath(cwd, out);
    for (const p of [path, `${path}.pub`]) {
      try {
        Deno.lstatSync(p);
        throw new SkillrtError(`'${p}' already exists; a key is never overwritten.`);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    const pair = await generateKeyPair();
    createExclusive(path, pair.privateText, 0o600);
    createExclusive(`${path}.pub`, pair.publicLine + "\n", 0o644);
    const doc = {
      success: true,
      key: pair.publicLine,
      private_key: path,
      public_key: `${path}.pub`,
    };
    return respond(request.global, doc, () => pair.publicLine);
  }
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const doc = await publishSite({
    cwd,
    dirs,
    out,
    baseUrl: str(request.options.baseUrl),
    force: request.options.force === true,
    signKey: str(request.options.sign),
    sequence: sequenceOption(request.options.sequence),
  });
  return respond(request.global, doc, () =>
    [
      `Published ${doc.skills.length} skill${doc.skills.length === 1 ? "" : "s"} to ${doc.index}${
        doc.signedBy ? ` (signed by ${doc.signedBy})` : ""
      }, sequence ${doc.sequence}.`,
      ...doc.skills.map((s) =>
        `  ${s.name}: ${s.verdict}, ${s.files} file${s.files === 1 ? "" : "s"}${
          doc.packed.includes(s.name) ? ", packed" : ""
        }`
      ),
      ...doc.removed.map((n) => `  ${n}: removed`),
    ].join("\n"));
}

/** `--sequence N`: a whole number, or a usage error. */
function sequenceOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`--sequence '${String(value)}' is not a whole number from 0.`);
  }
  return n;
}
