/**
 * Having a run approved ([RUN-3]). The user's own local skill (written at the terminal: the
 * local root, not from the hub, never written through MCP) is approved by its author and
 * runs on request, from the CLI and MCP alike. Any other — another root's, or a local skill
 * an MCP client created or changed (`agent_written.ts`) — runs when an approval of exactly
 * its snapshot's files (`snapshot.ts`) with this grant is recorded; else the CLI approves it
 * with `--yes` or at the terminal, after the question showed the grant, every file with its
 * size and the entry script's text, and records that. MCP (`approvedOnly`) runs only what
 * is recorded: an agent never approves, and what it wrote is approved by the user alone.
 *
 * @module
 */
import { visibleControls } from "../cli/terminal_text.ts";
import { shellQuote } from "./shell_quote.ts";
import { joinPath } from "../home/paths.ts";
import { grantFingerprint, isApproved, readApprovals, recordApproval } from "./consent.ts";
import type { ApprovalKey } from "./consent.ts";
import { type PreparedRun, runRefusal } from "./prepare.ts";
import type { Snapshot } from "./snapshot.ts";

/** The most files the question lists, and lines of the entry script it shows. */
export const SHOWN_FILES = 100;
/** The most lines of the entry script the question shows. */
export const SHOWN_LINES = 80;

/** Who may approve, and how. */
export interface ConsentOptions {
  /** The user approves now (`--yes`). */
  yes?: boolean;
  /** Asks the user at a terminal (undefined: no terminal). */
  confirm?: (question: string) => Promise<boolean | undefined>;
  /** Only a recorded approval counts (MCP). */
  approvedOnly?: boolean;
}

/** The approval key of a run from its snapshot. */
function keyOf(run: PreparedRun, snapshot: Snapshot): ApprovalKey {
  return {
    skillDir: run.grant.skillDir,
    script: run.script,
    sha256: run.sha256,
    files: snapshot.sha256,
    grant: grantFingerprint(run.declared, run.grant),
  };
}

/** The entry script's text as the question shows it: numbered lines, cut with a marker. */
function scriptText(snapshot: Snapshot, script: string): string[] {
  const text = new TextDecoder().decode(Deno.readFileSync(joinPath(snapshot.dir, script)));
  const lines = text.replace(/\n$/, "").split("\n");
  const shown = lines.slice(0, SHOWN_LINES).map((l) => `    | ${l}`);
  if (lines.length > SHOWN_LINES) {
    shown.push(`    … ${lines.length - SHOWN_LINES} more lines`);
  }
  return shown;
}

/** The question: what runs, with what grant, every file (with its size) and the script. */
export function approvalQuestion(
  run: PreparedRun,
  snapshot: Snapshot,
  grant: string,
): string {
  // A name is one line: a line break in it would forge lines of the question.
  const named = (path: string) => path.replace(/[\n\r]/g, (c) => (c === "\n" ? "\\n" : "\\r"));
  const files = snapshot.files.slice(0, SHOWN_FILES).map((f) =>
    `    ${named(f.path)} (${f.size} bytes)`
  );
  if (snapshot.files.length > SHOWN_FILES) {
    files.push(`    … ${snapshot.files.length - SHOWN_FILES} more files`);
  }
  return visibleControls([
    `Run '${named(run.script)}' of ${originOf(run)} '${run.name}'?`,
    `  grant: ${grant}`,
    `  files (${snapshot.files.length}, sha256 ${snapshot.sha256.slice(0, 12)}…):`,
    ...files,
    `  ${named(run.script)}:`,
    ...scriptText(snapshot, run.script),
    "Approve these files with this grant?",
  ].join("\n"));
}

/** How the question and the refusal name the skill's root. */
function originOf(run: PreparedRun): string {
  return run.byAgent ? "local skill (written through MCP)" : `${run.origin} skill`;
}

/**
 * Has the run approved, or refuses it (see the module doc); `grant`: the grant's one-line
 * summary.
 */
export async function consent(
  run: PreparedRun,
  snapshot: Snapshot,
  localRoot: string,
  options: ConsentOptions,
  grant: string,
): Promise<void> {
  if (!run.needsConsent) return;
  const key = keyOf(run, snapshot);
  if (isApproved(readApprovals(localRoot), key)) return;
  const refuse = (why: string) => runRefusal(run.name, run.script, why);
  if (options.approvedOnly) {
    const line = ["skillrt", "run", run.name, run.script].map(shellQuote).join(" ");
    throw refuse(
      `an MCP client runs only the user's own skills and what the user approved at a terminal; to approve these files with this grant, run '${line}' there`,
    );
  }
  let yes = options.yes === true;
  if (!yes && options.confirm) {
    yes = (await options.confirm(approvalQuestion(run, snapshot, grant))) === true;
  }
  if (!yes) {
    throw refuse(
      `the user has not approved the files of this ${
        originOf(run)
      } with its grant; approve it at a terminal or pass --yes`,
    );
  }
  await recordApproval(localRoot, {
    skill: run.name,
    ...key,
    approvedAt: new Date().toISOString(),
    summary: grant,
  });
}
