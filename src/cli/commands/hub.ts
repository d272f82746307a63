/**
 * `hub install|search|list|uninstall|verify|check|update|scan|audit` ([HUB-1..6]), one
 * function an action, found through one table; `publish` and `keygen` are in
 * `hub_publish.ts` ([T-1], [T-2]), `lock export` and `install --from-lock` in
 * `hub_lock.ts` ([T-4]).
 *
 * @module
 */
import { ValidationError } from "../../errors.ts";
import { readAuditLog, verifyAudit } from "../../hub/audit.ts";
import { resolvePath } from "../../home/paths.ts";
import { readAuditHead } from "../../hub/lockfile.ts";
import { scanFolder } from "../../scanner/scanner.ts";
import { hubRoot } from "../../hub/hub_root.ts";
import { runInstall } from "./hub_install.ts";
import { listInstalled, uninstall, verifyInstalled } from "../../hub/installed.ts";
import { searchHub } from "../../hub/search.ts";
import { checkInstalled, updateInstalled } from "../../hub/check.ts";
import { checkHubLine, type HubAction } from "./hub_plan.ts";
import { runPublish } from "./hub_publish.ts";
import { runLockExport, runRestore } from "./hub_lock.ts";
import type { ExecuteContext, Grants, Targets } from "../context.ts";
import {
  installTargets,
  outputTargets,
  searchTargets,
  sourceTargets,
  uninstallTargets,
} from "./hub_targets.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { clip, paint, plural, respond, table } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** One `hub` call as each action sees it. */
interface HubCall {
  runtime: SkillRuntime;
  request: CommandRequest;
  ctx: ExecuteContext;
  /** The word after the action, if any. */
  target?: string;
}

type HubActionRun = (call: HubCall) => Outcome | Promise<Outcome>;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The target of an action that needs one (checked by `checkHubLine`). */
function needTarget(call: HubCall): string {
  return call.target!;
}

async function search({ runtime, request, target }: HubCall): Promise<Outcome> {
  const doc = await searchHub(runtime.setup, target ?? "", str(request.options.index));
  return respond(request.global, doc, () =>
    [
      doc.results.length === 0 ? `No skill matches '${doc.query}'.` : table(
        ["NAME", "DESCRIPTION", "INDEX"],
        doc.results.map((r) => [r.name, clip(r.description, 60), r.index]),
        request.global.color,
      ),
      ...doc.unreachable.map((u) => `Unreachable: ${u.error}`),
      ...doc.problems,
    ].join("\n"));
}

function list({ runtime, request }: HubCall): Outcome {
  const doc = listInstalled(hubRoot(runtime.setup).root);
  const rows = doc.installed.map((i) => [
    i.name,
    i.trustLevel,
    i.scanVerdict,
    i.installPath,
    i.source,
  ]);
  return respond(
    request.global,
    doc,
    () =>
      doc.count === 0
        ? "No hub-installed skills."
        : table(["NAME", "TRUST", "VERDICT", "PATH", "SOURCE"], rows, request.global.color),
  );
}

function verify({ runtime, request }: HubCall): Outcome {
  const doc = verifyInstalled(hubRoot(runtime.setup).root);
  const line = (s: (typeof doc.skills)[number]) =>
    [
      `${s.name}: ${s.status}`,
      ...s.modified.map((f) => `changed ${f}`),
      ...s.added.map((f) => `added ${f}`),
      ...s.removed.map((f) => `removed ${f}`),
    ].join("; ");
  return respond(
    request.global,
    doc,
    () => doc.skills.length === 0 ? "No hub-installed skills." : doc.skills.map(line).join("\n"),
    doc.success ? 0 : 1,
  );
}

async function check({ runtime, request, target }: HubCall): Promise<Outcome> {
  const doc = await checkInstalled(runtime.setup, target);
  const line = (s: (typeof doc.skills)[number]) =>
    `${s.name}: ${s.status}${s.reason ? ` (${s.reason})` : ""}`;
  return respond(
    request.global,
    doc,
    () => doc.skills.length === 0 ? "No hub-installed skills." : doc.skills.map(line).join("\n"),
  );
}

async function update({ runtime, request, ctx, target }: HubCall): Promise<Outcome> {
  const doc = await updateInstalled(runtime.setup, target, {
    force: request.options.force === true,
    yes: request.options.yes === true,
    confirm: ctx.confirm,
  });
  return respond(request.global, doc, () =>
    [
      ...doc.updated.map((u) => `Updated '${u.name}' (${u.scanVerdict}).`),
      ...doc.skipped.map((s) => `${s.name}: ${s.status}`),
      ...doc.refused.map((r) => `Not updated: ${r.error}`),
    ].join("\n") || "No hub-installed skills.", doc.success ? 0 : 1);
}

async function remove(call: HubCall): Promise<Outcome> {
  const doc = await uninstall(
    hubRoot(call.runtime.setup).root,
    needTarget(call),
    new Date(),
    call.request.options.force === true,
  );
  return respond(call.request.global, doc, () => `Uninstalled '${doc.name}' (${doc.removed}).`);
}

function install(call: HubCall): Promise<Outcome> {
  const fromLock = str(call.request.options.fromLock);
  // `--from-lock FILE`: every skill of a lock file ([T-4]).
  if (fromLock !== undefined) return runRestore(call.runtime, call.request, fromLock);
  return runInstall(call.runtime, call.request, call.ctx, needTarget(call));
}

function scan(call: HubCall): Outcome {
  const doc = scanFolder(resolvePath(call.runtime.setup.host.cwd, needTarget(call)));
  const c = call.request.global.color;
  return respond(call.request.global, doc, () => {
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
function audit({ runtime, request }: HubCall): Outcome {
  const text = readAuditLog(hubRoot(runtime.setup).root);
  if (request.options.verify === true) return verifyChain(runtime, request, text);
  const lines = text.split("\n").filter((l) => l !== "");
  const doc = { success: true, lines: lines.length, entries: lines };
  return respond(
    request.global,
    doc,
    () => (lines.length ? lines.join("\n") : "The audit log is empty."),
  );
}

/** `hub audit --verify`: the log's hash chain against the head the lock records. */
function verifyChain(runtime: SkillRuntime, request: CommandRequest, text: string): Outcome {
  const check = verifyAudit(text, readAuditHead(hubRoot(runtime.setup).root));
  if (!check.intact) {
    throw new ValidationError(
      `The audit log was tampered with at line ${check.broken!.line}: ${check.broken!.reason}.`,
      { lines: check.lines, broken: check.broken },
    );
  }
  const doc = { success: true, intact: true, lines: check.lines };
  return respond(
    request.global,
    doc,
    () => `The audit log is intact (${plural(check.lines, "line")}).`,
  );
}

const publish: HubActionRun = ({ runtime, request }) => runPublish(runtime, request);

/**
 * One action of `hub` in its Worker: how it runs, and the targets it writes (none: it
 * writes nothing). What the warden plans it with before is its row in `hub_plan.ts`.
 */
interface HubActionRow {
  run: HubActionRun;
  targets?: Targets;
}

/** Every action of `hub`, by name: the dispatcher and the targets step read only this table. */
const ACTIONS: Readonly<Record<HubAction, HubActionRow>> = {
  install: { run: install, targets: installTargets },
  search: { run: search, targets: searchTargets },
  list: { run: list },
  uninstall: { run: remove, targets: uninstallTargets },
  verify: { run: verify },
  check: { run: check, targets: sourceTargets },
  update: { run: update, targets: sourceTargets },
  scan: { run: scan },
  audit: { run: audit },
  publish: { run: publish, targets: outputTargets },
  keygen: { run: publish, targets: outputTargets },
  lock: { run: ({ runtime, request }) => runLockExport(runtime, request), targets: outputTargets },
};

/** Runs `hub`. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  const act = ACTIONS[checkHubLine(request.args, request.options)];
  return await act.run({ runtime, request, ctx, target: request.args[1] });
}

/** The write targets of a `hub` line: its action's; the same usage errors as the run first. */
export function targets(
  runtime: SkillRuntime,
  request: CommandRequest,
  grants: Grants,
): string[] | Promise<string[]> {
  const act = ACTIONS[checkHubLine(request.args, request.options)];
  return act.targets?.(runtime, request, grants) ?? [];
}
