/**
 * `doctor` ([C-4], [V-9]).
 *
 * @module
 */
import { doctorReport, watchDiagnostics } from "../../doctor/doctor.ts";
import { readinessReport } from "../../doctor/readiness.ts";
import type { SkillRuntime } from "../../runtime.ts";
import type { ExecuteContext } from "../context.ts";
import { paint, plural, respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../request.ts";

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
    ];
    for (const r of report.roots) {
      lines.push(
        `  ${r.source.padEnd(12)} ${r.status.padEnd(10)} ${String(r.skills).padStart(5)} ${
          r.skills === 1 ? "skill " : "skills"
        }  ${r.path}`,
      );
    }
    for (const p of report.plugins) {
      lines.push(
        `  plugin   ${p.namespace.padEnd(10)} ${String(p.skills).padStart(5)} ${
          p.skills === 1 ? "skill " : "skills"
        }  ${p.path}`,
      );
    }
    if (report.agent_folders.length) {
      lines.push("", paint(c, "bold", "Agent skill folders"));
      for (const a of report.agent_folders) {
        lines.push(
          `  ${a.agent.padEnd(8)} ${(a.enabled ? "enabled" : "not enabled").padEnd(12)} ${a.path}`,
        );
      }
    }
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
    const needing = report.readiness.filter((r) => r.readinessStatus === "setup_needed");
    if (needing.length) {
      lines.push("", paint(c, "bold", "Setup needed"));
      for (const r of needing) {
        const parts = [
          ...r.missingRequiredEnvironmentVariables.map((v) => `${v} (variable)`),
          ...r.missingRequiredCommands.map((p) => `${p} (program)`),
          ...r.missingRequiredCredentialFiles.map((f) => `${f} (file)`),
        ];
        lines.push(`  ${r.name}: ${parts.join(", ")}`);
      }
    }
    if (report.diagnostics.length) {
      lines.push("", paint(c, "bold", "Diagnostics"));
      for (const d of report.diagnostics) {
        const color = d.severity === "error" ? "red" : d.severity === "warning" ? "yellow" : "dim";
        lines.push(
          `  ${paint(c, color, d.severity.padEnd(7))} ${d.code}  ${d.message}${
            d.path ? `  (${d.path}${d.line ? `:${d.line}` : ""})` : ""
          }`,
        );
      }
    }
    lines.push(
      "",
      `${
        paint(c, "bold", "Sandbox")
      }  list reads ${report.sandbox.read.length} paths, writes ${report.sandbox.write.length}, runs ${report.sandbox.run.length}`,
    );
    lines.push(
      `${paint(c, "bold", "Hub lock")}  ${report.hub.lock} (${report.hub.installed} installed)`,
    );
    lines.push(
      "",
      `${plural(report.summary.errors, "error")}, ${plural(report.summary.warnings, "warning")}, ${
        plural(report.summary.info, "note")
      }`,
    );
    return lines.join("\n");
  }, report.success ? 0 : 1);
}
