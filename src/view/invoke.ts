/**
 * The message an agent injects when a user invokes a skill by slash command ([V-7]).
 * Pure: built from a loaded skill.
 *
 * @module
 */
import type { LoadedSkill } from "./view.ts";
import { missingOf, setupNote } from "./readiness.ts";

/** What `invoke` returns. */
export interface InvokeResult {
  /** Always true. */
  success: true;
  /** What was invoked: one skill, or a bundle of skills ([B-2]). */
  kind: "skill" | "bundle";
  /** The skill's name. */
  name: string;
  /** The message to inject. */
  message: string;
  /** Its size in characters. */
  chars: number;
  /** For a bundle: members loaded. */
  loaded?: string[];
  /** For a bundle: members that do not exist. */
  missing?: string[];
  /** For a bundle: members that failed to load, with why. */
  failed?: { name: string; error: string }[];
  /** For a bundle: members disabled or unsupported on this platform. */
  disabled?: string[];
}

/** The first line of an invocation message. */
export function activationNote(name: string): string {
  return `[IMPORTANT: The user has invoked the "${name}" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]`;
}

/** The prefix of the user's instruction line. */
export const INSTRUCTION_PREFIX =
  "The user has provided the following instruction alongside the skill invocation: ";

/**
 * Builds the invocation message: activation note, the content, the skill directory,
 * the config block, the setup note, the supporting files, then the user's instruction.
 */
export function invocationMessage(
  loaded: LoadedSkill,
  home: string,
  instruction?: string,
  note: string = activationNote(loaded.view.name),
): string {
  const { view } = loaded;
  const parts = [note, "", (loaded.banner + loaded.body).trim()];
  parts.push(
    "",
    `[Skill directory: ${view.skillDir}]`,
    "Relative paths in this skill (scripts/, templates/, references/, assets/) are relative to that directory; use the absolute path to run or read them.",
  );
  if (loaded.configBlock) parts.push("", loaded.configBlock);
  const setup = setupNote(missingOf(view), home);
  if (setup) parts.push("", setup);
  const files = view.linkedFiles ? Object.values(view.linkedFiles).flat() : [];
  if (files.length) {
    parts.push(
      "",
      "[Supporting files (relative to the skill directory):]",
      ...files.map((f) => `- ${f}`),
    );
    parts.push(`Open one with skill_view(name="${view.name}", file_path="<path>").`);
  }
  if (instruction !== undefined && instruction.trim() !== "") {
    parts.push("", INSTRUCTION_PREFIX + instruction);
  }
  return parts.join("\n");
}
