/**
 * `hub scan PATH` ([HUB-4]): the guard scanner over a folder, without installing.
 * (Installing, the lock file and the audit log are the rest of the hub issue.)
 *
 * @module
 */
import { SkillrtError, UsageError } from "../../errors.ts";
import { auditFile, verifyAudit } from "../../hub/audit.ts";
import { resolvePath } from "../../home/paths.ts";
import { scanFolder } from "../../hub/scanner.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { clip, paint, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs `hub`. */
export function run(runtime: SkillRuntime, request: CommandRequest): Outcome {
  const [action, path] = request.args;
  if (action === "audit") return audit(runtime, request);
  if (action !== "scan") {
    throw new UsageError(`Unknown hub action '${action}'; this version has: scan, audit.`);
  }
  if (!path) throw new UsageError("'hub scan' needs a folder to scan.");
  const doc = scanFolder(resolvePath(runtime.setup.host.cwd, path));
  const c = request.global.color;
  return respond(request.global, doc, () => {
    const color = doc.verdict === "dangerous"
      ? "red"
      : doc.verdict === "caution"
      ? "yellow"
      : "green";
    const head = `Verdict: ${
      paint(c, color, doc.verdict)
    } (${doc.findings.length} findings in ${doc.files} files)`;
    if (!doc.findings.length) return head;
    const rows = doc.findings.map((
      f,
    ) => [f.severity, f.rule, `${f.file}${f.line ? `:${f.line}` : ""}`, clip(f.excerpt, 60)]);
    return `${head}\n\n${table(["SEVERITY", "RULE", "WHERE", "EXCERPT"], rows, c)}`;
  });
}

/** `hub audit [--verify]`: the audit log's lines, or the check of its hash chain ([HUB-3]). */
function audit(runtime: SkillRuntime, request: CommandRequest): Outcome {
  let text = "";
  try {
    text = Deno.readTextFileSync(auditFile(runtime.setup.local_root));
  } catch {
    text = "";
  }
  if (request.options.verify === true) {
    const check = verifyAudit(text);
    if (!check.intact) {
      throw new SkillrtError(
        `The audit log was tampered with at line ${check.broken!.line}: ${check.broken!.reason}.`,
        {
          lines: check.lines,
          broken: check.broken,
        },
      );
    }
    const doc = { success: true, intact: true, lines: check.lines };
    return respond(request.global, doc, () => `The audit log is intact (${check.lines} lines).`);
  }
  const lines = text.split("\n").filter((l) => l !== "");
  const doc = { success: true, lines: lines.length, entries: lines };
  return respond(
    request.global,
    doc,
    () => (lines.length ? lines.join("\n") : "The audit log is empty."),
  );
}
