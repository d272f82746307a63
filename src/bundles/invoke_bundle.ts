/**
 * Invoking a bundle ([B-2]): the header saying what loaded and what was skipped, the
 * instructions, then each loaded member as it would be invoked alone. Missing members
 * never fail the bundle.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import { SkillDisabledError } from "../level0/visibility.ts";
import { invocationMessage, type InvokeResult } from "../view/invoke.ts";
import type { LoadedSkill } from "../view/view.ts";
import type { Bundle } from "./bundles.ts";

/** What happened to one member. */
export type MemberOutcome =
  | { name: string; status: "loaded"; loaded: LoadedSkill }
  | { name: string; status: "missing" | "disabled" }
  | { name: string; status: "failed"; error: string };

/**
 * Loads each member of `bundle` with `load` (missing, disabled or failing members are
 * skipped, said in the header) and builds its invocation.
 */
export async function invokeBundle(
  bundle: Bundle,
  load: (member: string) => Promise<LoadedSkill>,
  home: string,
  instruction?: string,
): Promise<InvokeResult> {
  const members: MemberOutcome[] = [];
  for (const member of bundle.skills) {
    try {
      members.push({ name: member, status: "loaded", loaded: await load(member) });
    } catch (error) {
      members.push(classifyMemberError(member, error));
    }
  }
  return bundleInvocation(bundle, members, home, instruction);
}

/**
 * Sorts a member's load error into missing (its code `not_found`), disabled (or unsupported
 * here) and failed — by the error's code and kind, never its words.
 */
export function classifyMemberError(name: string, error: unknown): MemberOutcome {
  if (error instanceof SkillrtError) {
    if (error.code === "not_found") return { name, status: "missing" };
    if (error instanceof SkillDisabledError || error.details.readinessStatus === "unsupported") {
      return { name, status: "disabled" };
    }
  }
  return { name, status: "failed", error: error instanceof Error ? error.message : String(error) };
}

/** Builds the bundle invocation message and result from its members' outcomes. */
export function bundleInvocation(
  bundle: Bundle,
  members: MemberOutcome[],
  home: string,
  instruction?: string,
): InvokeResult {
  const loaded = members.filter((m): m is Extract<MemberOutcome, { status: "loaded" }> =>
    m.status === "loaded"
  );
  const names = (status: string) => members.filter((m) => m.status === status).map((m) => m.name);
  const failed = members.filter((m): m is Extract<MemberOutcome, { status: "failed" }> =>
    m.status === "failed"
  );
  const header = [
    `[IMPORTANT: The user has invoked the "${bundle.name}" skill bundle, loading ${loaded.length} skills together. Treat every skill below as active guidance for this turn.]`,
    "",
    `Skills loaded: ${loaded.map((m) => m.loaded.view.name).join(", ") || "(none)"}`,
  ];
  if (names("missing").length) {
    header.push(`Skills missing (skipped): ${names("missing").join(", ")}`);
  }
  if (failed.length) {
    header.push(
      `Skills failed to load (skipped): ${failed.map((f) => `${f.name} (${f.error})`).join(", ")}`,
    );
  }
  if (names("disabled").length) {
    header.push(`Skills disabled for this platform (skipped): ${names("disabled").join(", ")}`);
  }
  if (bundle.instruction) header.push("", `Bundle instruction: ${bundle.instruction}`);
  if (instruction !== undefined && instruction.trim() !== "") {
    header.push("", `User instruction: ${instruction}`);
  }
  const note = `[Loaded as part of the "${bundle.name}" skill bundle.]`;
  const blocks = loaded.map((m) => invocationMessage(m.loaded, home, undefined, note));
  const message = [header.join("\n"), ...blocks].join("\n\n");
  return {
    success: true,
    kind: "bundle",
    name: bundle.name,
    message,
    chars: message.length,
    loaded: loaded.map((m) => m.loaded.view.name),
    missing: names("missing"),
    failed: failed.map((f) => ({ name: f.name, error: f.error })),
    disabled: names("disabled"),
  };
}
