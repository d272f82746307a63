/**
 * `doctor` ([C-4], [V-9]).
 *
 * @module
 */
import { type DoctorReport, doctorReport, watchDiagnostics } from "../../doctor/doctor.ts";
import { readinessReport } from "../../doctor/readiness.ts";
import type { SkillRuntime } from "../../runtime.ts";
import type { ExecuteContext } from "../context.ts";
import { paint, plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Runs `doctor`; exits 1 when any finding is an error. */
export async function run(
  runtime: SkillRuntime,
  request: CommandRequest,
  ctx: ExecuteContext,
): Promise<Outcome> {
  // Watching every folder takes a while: a helper thread tries it while this one scans.
  const probing = runtime.unwatchedRoots();
  const index = runtime.catalog().index();
  const records = [...index.entries.values()].map((e) => e.record);
  const readiness = await readinessReport(
    records,
    runtime.envNames(),
    (ask) => runtime.probeReadiness(ask),
    runtime.setup.home,
  );
  const watch = watchDiagnostics(await probing);
  const report = doctorReport(
    runtime.setup,
    index,
    ctx.plan,
    runtime.visibility(),
    watch,
    readiness,
  );
  const c = request.global.color;
  return respond(request.global, report, () => {
    const lines = [
      `${paint(c, "bold", "Home")}  ${report.home}`,
      `${paint(c, "bold", "Config")}  ${report.config.file}${
        report.config.exists ? "" : " (absent)"
      }`,
      "",
      paint(c, "bold", "Roots"),
      ...rootLines(report),
      ...agentFolderLines(report, c),
      ...nameLines(report, c),
      ...setupLines(report, c),
      ...diagnosticLines(report, c),
      "",
      `${
        paint(c, "bold", "Sandbox")
      }  list reads ${report.sandbox.read.length} paths, writes ${report.sandbox.write.length}, runs ${report.sandbox.run.length}`,
      ...scriptLines(report, c),
      `${paint(c, "bold", "Hub lock")}  ${report.hub.lock} (${report.hub.installed} installed)`,
      "",
      `${plural(report.summary.errors, "error")}, ${plural(report.summary.warnings, "warning")}, ${
        plural(report.summary.info, "note")
      }`,
    ];
    return lines.join("\n");
  }, report.success ? 0 : 1);
}

/** How skills' scripts run here ([RUN-4]). */
function scriptLines(report: DoctorReport, c: boolean): string[] {
  const s = report.scripts;
  if (s === null) return [];
  const deno = {
    "deno+bwrap": "deno inside bubblewrap",
    deno: "deno alone",
    unavailable: "refused (no deno)",
  }[s.deno];
  const other = s.other === "bwrap" ? `bubblewrap (${s.bwrapPath})` : `refused: ${s.problem}`;
  return [`${paint(c, "bold", "Scripts")}  Deno scripts: ${deno}; other scripts: ${other}`];
}

/** One line a root and a plugin: kind, state, skill count, path. */
function rootLines(report: DoctorReport): string[] {
  const skills = (n: number) => `${String(n).padStart(5)} ${n === 1 ? "skill " : "skills"}`;
  return [
    ...report.roots.map((r) =>
      `  ${r.source.padEnd(12)} ${r.status.padEnd(10)} ${skills(r.skills)}  ${r.path}`
    ),
    ...report.plugins.map((p) =>
      `  ${"plugin".padEnd(12)} ${p.namespace.padEnd(10)} ${skills(p.skills)}  ${p.path}`
    ),
  ];
}

/** Other agents' skill folders found here, enabled or not, under their heading. */
function agentFolderLines(report: DoctorReport, c: boolean): string[] {
  if (!report.agentFolders.length) return [];
  return [
    "",
    paint(c, "bold", "Agent skill folders"),
    ...report.agentFolders.map((a) =>
      `  ${a.agent.padEnd(8)} ${(a.enabled ? "enabled" : "not enabled").padEnd(12)} ${a.path}`
    ),
  ];
}

/** The shadowed, the ambiguous and the hidden names, each under its heading when there are any. */
function nameLines(report: DoctorReport, c: boolean): string[] {
  const lines: string[] = [];
  if (report.shadowed.length) {
    lines.push("", paint(c, "bold", "Shadowed"));
    for (const s of report.shadowed) {
      lines.push(`  ${s.name}: ${s.path} (shadowed by ${s.shadowed_by})`);
    }
  }
  if (report.ambiguous.length) {
    lines.push("", paint(c, "bold", "Ambiguous"));
    for (const a of report.ambiguous) lines.push(`  ${a.name}: ${a.matches.join(", ")}`);
  }
  if (report.hidden.total) {
    const { total, ...by } = report.hidden;
    const reasons = Object.entries(by).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`);
    lines.push(
      "",
      `${paint(c, "bold", "Hidden")}  ${plural(total, "skill")} (${
        reasons.join(", ")
      }); 'list --all' shows them`,
    );
  }
  return lines;
}

/** The skills that still need something ([V-9]), under their heading when there are any. */
function setupLines(report: DoctorReport, c: boolean): string[] {
  const needing = report.readiness.filter((r) => r.readinessStatus === "setup_needed");
  if (!needing.length) return [];
  return [
    "",
    paint(c, "bold", "Setup needed"),
    ...needing.map((r) => {
      const parts = [
        ...r.missingRequiredEnvironmentVariables.map((v) => `${v} (variable)`),
        ...r.missingRequiredCommands.map((p) => `${p} (program)`),
        ...r.missingRequiredCredentialFiles.map((f) => `${f} (file)`),
      ];
      return `  ${r.name}: ${parts.join(", ")}`;
    }),
  ];
}

/** The diagnostics, coloured by severity, under their heading when there are any. */
function diagnosticLines(report: DoctorReport, c: boolean): string[] {
  if (!report.diagnostics.length) return [];
  return [
    "",
    paint(c, "bold", "Diagnostics"),
    ...report.diagnostics.map((d) => {
      const color = d.severity === "error" ? "red" : d.severity === "warning" ? "yellow" : "dim";
      return `  ${paint(c, color, d.severity.padEnd(7))} ${d.code}  ${d.message}${
        d.path ? `  (${d.path}${d.line ? `:${d.line}` : ""})` : ""
      }`;
    }),
  ];
}
