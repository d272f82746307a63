/**
 * `doctor`'s readiness report ([C-4], [V-9]): for every skill that declares environment
 * variables, programs or credential files, what of it is missing — with one batched
 * lookup for the whole home — and the declared entries that were refused as unsafe.
 *
 * @module
 */
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { MAX_ASK, type ReadinessProbe } from "../home/readiness_probe.ts";
import type { SkillRecord } from "../scan/record.ts";
import { requiredEnvVars } from "../view/env_vars.ts";
import { type Missing, refusedNote, requirementsOf, setupAdvice } from "../view/readiness.ts";

/** One skill's readiness as `doctor` shows it. */
export interface SkillReadiness {
  /** The skill. */
  name: string;
  /** Its SKILL.md. */
  path: string;
  /** `available` or `setup_needed`. */
  readinessStatus: "available" | "setup_needed";
  /** Variables not set. */
  missingRequiredEnvironmentVariables: string[];
  /** Programs not on PATH. */
  missingRequiredCommands: string[];
  /** Credential files not under the home. */
  missingRequiredCredentialFiles: string[];
}

/** Asks the probe about many names in questions of at most {@linkcode MAX_ASK} each. */
async function lookUp(
  commands: string[],
  files: string[],
  probe: ReadinessProbe,
): Promise<{ commands: Set<string>; files: Set<string> }> {
  const found = { commands: new Set<string>(), files: new Set<string>() };
  for (let i = 0; i < Math.max(commands.length, files.length); i += MAX_ASK) {
    const answer = await probe({
      commands: commands.slice(i, i + MAX_ASK),
      files: files.slice(i, i + MAX_ASK),
    });
    answer.commands.forEach((c) => found.commands.add(c));
    answer.files.forEach((f) => found.files.add(f));
  }
  return found;
}

/** One skill's readiness entry, from what it is missing. */
function readinessOfSkill(record: SkillRecord, missing: Missing): SkillReadiness {
  const needed = missing.env.length + missing.commands.length + missing.files.length > 0;
  return {
    name: record.name,
    path: record.file,
    readinessStatus: needed ? "setup_needed" : "available",
    missingRequiredEnvironmentVariables: [...missing.env],
    missingRequiredCommands: [...missing.commands],
    missingRequiredCredentialFiles: [...missing.files],
  };
}

/** The warning of a skill that needs setup, saying what to set where. */
function setupNeeded(record: SkillRecord, missing: Missing, home: string): Diagnostic {
  return diagnostic(
    "warning",
    "skill.setup_needed",
    `Skill '${record.name}' ${setupAdvice(missing, home).replace(/^setup needed/, "needs setup")}`,
    { path: record.file },
  );
}

/** The readiness of every skill that declares something, and its findings. */
export async function readinessReport(
  records: readonly SkillRecord[],
  envNames: ReadonlySet<string>,
  probe: ReadinessProbe,
  home: string,
): Promise<{ skills: SkillReadiness[]; diagnostics: Diagnostic[] }> {
  const declared = records.map((record) => ({
    record,
    env: requiredEnvVars(record.frontmatter).vars.map((v) => v.name),
    needs: requirementsOf(record.frontmatter),
  }));
  const commands = new Set(declared.flatMap((d) => d.needs.requiredCommands.map((c) => c.name)));
  const files = new Set(
    declared.flatMap((d) => d.needs.requiredCredentialFiles.map((f) => f.path)),
  );
  const found = await lookUp([...commands], [...files], probe);
  const skills: SkillReadiness[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { record, env, needs } of declared) {
    for (const r of needs.refused) {
      diagnostics.push(
        diagnostic(
          "warning",
          "skill.requirement_refused",
          `Skill '${record.name}': ${refusedNote(r)}`,
          {
            path: record.file,
          },
        ),
      );
    }
    if (!env.length && !needs.requiredCommands.length && !needs.requiredCredentialFiles.length) {
      continue;
    }
    const missing: Missing = {
      env: env.filter((n) => !envNames.has(n)),
      commands: needs.requiredCommands.map((c) => c.name).filter((c) => !found.commands.has(c)),
      files: needs.requiredCredentialFiles.map((f) => f.path).filter((f) => !found.files.has(f)),
    };
    skills.push(readinessOfSkill(record, missing));
    if (skills.at(-1)!.readinessStatus === "setup_needed") {
      diagnostics.push(setupNeeded(record, missing, home));
    }
  }
  return { skills, diagnostics };
}
