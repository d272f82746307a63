/**
 * `hub install|search|list|uninstall|verify|check|update|scan|audit` ([HUB-1..6]);
 * `publish` and `keygen` are in `hub_publish.ts` ([T-1], [T-2]).
 *
 * @module
 */
import { SkillrtError, UsageError } from "../../errors.ts";
import { auditFile, verifyAudit } from "../../hub/audit.ts";
import { resolvePath } from "../../home/paths.ts";
import { readLockJson } from "../../hub/lockfile.ts";
import { auditHeadOf } from "../../hub/lockfile_write.ts";
import { scanFolder } from "../../hub/scanner.ts";
import { hubRoot } from "../../hub/hub_root.ts";
import { runInstall } from "./hub_install.ts";
import { listInstalled, uninstall, verifyInstalled } from "../../hub/installed.ts";
import { searchHub } from "../../hub/search.ts";
import { checkInstalled, updateInstalled } from "../../hub/check.ts";
import { HUB_ACTIONS } from "../command_grammar.ts";
import { PUBLISH_ACTIONS, runPublish } from "./hub_publish.ts";
import type { ExecuteContext } from "../context.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { clip, paint, plural, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

/** Runs `hub`. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const [action, target] = request.args;
  const { global } = request;
  const root = hubRoot(runtime.setup).root;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  if (!HUB_ACTIONS.includes(action)) {
    throw new UsageError(`Unknown hub action '${action}'; use ${HUB_ACTIONS.join(", ")}.`);
  }
  if (action === "audit") return audit(runtime, request);
  if (PUBLISH_ACTIONS.includes(action)) return await runPublish(runtime, request);
  if (action === "search") {
    const doc = await searchHub(runtime.setup, target ?? "", str(request.options.index));
    return respond(global, doc, () =>
      [
        doc.results.length === 0 ? `No skill matches '${doc.query}'.` : table(
          ["NAME", "DESCRIPTION", "INDEX"],
          doc.results.map((r) => [r.name, clip(r.description, 60), r.index]),
          global.color,
        ),
        ...doc.unreachable.map((u) => `Unreachable: ${u.error}`),
        ...doc.problems,
      ].join("\n"));
  }
  if (action === "list") {
    const doc = listInstalled(root);
    return respond(
      global,
      doc,
      () =>
        doc.count === 0 ? "No hub-installed skills." : table(
          ["NAME", "TRUST", "VERDICT", "PATH", "SOURCE"],
          doc.installed.map((
            i,
          ) => [i.name, i.trust_level, i.scan_verdict, i.install_path, i.source]),
          global.color,
        ),
    );
  }
  if (action === "verify") {
    const doc = verifyInstalled(root);
    return respond(
      global,
      doc,
      () =>
        doc.skills.length === 0 ? "No hub-installed skills." : doc.skills.map((s) =>
          [
            `${s.name}: ${s.status}`,
            ...s.modified.map((f) => `changed ${f}`),
            ...s.added.map((f) => `added ${f}`),
            ...s.removed.map((f) => `removed ${f}`),
          ].join("; ")
        ).join("\n"),
      doc.success ? 0 : 1,
    );
  }
  if (action === "check") {
    const doc = await checkInstalled(runtime.setup, target);
    return respond(
      global,
      doc,
      () =>
        doc.skills.length === 0
          ? "No hub-installed skills."
          : doc.skills.map((s) => `${s.name}: ${s.status}${s.reason ? ` (${s.reason})` : ""}`).join(
            "\n",
          ),
    );
  }
  if (action === "update") {
    const doc = await updateInstalled(runtime.setup, target, {
      force: request.options.force === true,
      confirm: ctx.confirm,
    });
    return respond(global, doc, () =>
      [
        ...doc.updated.map((u) => `Updated '${u.name}' (${u.scan_verdict}).`),
        ...doc.skipped.map((s) => `${s.name}: ${s.status}`),
        ...doc.refused.map((r) => `Not updated: ${r.error}`),
      ].join("\n") || "No hub-installed skills.", doc.success ? 0 : 1);
  }
  if (!target) {
    throw new UsageError(
      `'hub ${action}' needs ${action === "uninstall" ? "a skill name" : "a folder"}.`,
    );
  }
  if (action === "uninstall") {
    const doc = await uninstall(root, target);
    return respond(global, doc, () => `Uninstalled '${doc.name}' (${doc.removed}).`);
  }
  if (action === "install") return await runInstall(runtime, request, ctx, target);
  const doc = scanFolder(resolvePath(runtime.setup.host.cwd, target));
  const c = global.color;
  return respond(global, doc, () => {
    const color = doc.verdict === "dangerous"
      ? "red"
      : doc.verdict === "caution"
      ? "yellow"
      : "green";
    const head = `Verdict: ${paint(c, color, doc.verdict)} (${
      plural(doc.findings.length, "finding")
    } in ${plural(doc.files, "file")})`;
    if (!doc.findings.length) return head;
    const rows = doc.findings.map((f) => [
      f.original_severity ? `${f.severity} (was ${f.original_severity})` : f.severity,
      f.context,
      f.rule,
      `${f.file}${f.line ? `:${f.line}` : ""}`,
      clip(f.excerpt, 60),
    ]);
    return `${head}\n\n${table(["SEVERITY", "CONTEXT", "RULE", "WHERE", "EXCERPT"], rows, c)}`;
  });
}

/** `hub audit [--verify]`: the audit log's lines, or the check of its hash chain ([HUB-3]). */
function audit(runtime: SkillRuntime, request: CommandRequest): Outcome {
  let text = "";
  try {
    text = Deno.readTextFileSync(auditFile(hubRoot(runtime.setup).root));
  } catch {
    text = "";
  }
  if (request.options.verify === true) {
    const lock = readLockJson(hubRoot(runtime.setup).root);
    if (lock.state === "unparseable") {
      throw new SkillrtError(
        `Hub lock file '${lock.file}' does not parse, so the audit log's chain head cannot be checked.`,
      );
    }
    const check = verifyAudit(text, lock.state === "ok" ? auditHeadOf(lock.audit) : null);
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
    return respond(
      request.global,
      doc,
      () => `The audit log is intact (${plural(check.lines, "line")}).`,
    );
  }
  const lines = text.split("\n").filter((l) => l !== "");
  const doc = { success: true, lines: lines.length, entries: lines };
  return respond(
    request.global,
    doc,
    () => (lines.length ? lines.join("\n") : "The audit log is empty."),
  );
}
