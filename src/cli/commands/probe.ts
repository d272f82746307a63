/**
 * The probe behind `sandbox COMMAND --try-read PATH --try-run PROGRAM`: tries the
 * accesses inside the Worker created with COMMAND's plan, so a user can see the sandbox
 * refuse them (exit 3) — or learn that the plan grants them (exit 0).
 *
 * @module
 */
import type { SkillRuntime } from "../../runtime.ts";
import { respond } from "../render.ts";
import type { CommandRequest, Outcome } from "../../worker/request.ts";

/** Tries an access; a missing file or program was still permitted. Other errors propagate. */
function attempt(access: () => unknown): string {
  try {
    access();
    return "";
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return " (permitted; it does not exist)";
    throw error;
  }
}

/** Runs the probe; a refused access throws Deno's `NotCapable`, which becomes exit 3. */
export function run(_runtime: SkillRuntime, request: CommandRequest): Outcome {
  const tried: string[] = [];
  const read = request.options.tryRead;
  if (typeof read === "string") {
    tried.push(`read ${read}${attempt(() => Deno.statSync(read))}`);
  }
  const program = request.options.tryRun;
  if (typeof program === "string") {
    const command = new Deno.Command(program, { stdin: "null", stdout: "null", stderr: "null" });
    tried.push(`run ${program}${attempt(() => command.outputSync())}`);
  }
  const doc = { success: true, permitted: tried };
  return respond(request.global, doc, () => `Permitted by the sandbox: ${tried.join("; ")}.`);
}
