/** Test helpers for [IO-3]: a home holding each of Claude Code's invocation fields. */
import { makeTree, skill } from "./helpers.ts";

/** A home of the four cases: a deploy skill, a background one, one with a hint, a plain one. */
export function invocationHome(): string {
  return makeTree({
    "skills/deploy/SKILL.md": skill(
      "deploy",
      "Ship to production.",
      "disable-model-invocation: true\n",
    ),
    "skills/legacy-notes/SKILL.md": skill(
      "legacy-notes",
      "How the old system works.",
      "user-invocable: false\n",
    ),
    "skills/fix-issue/SKILL.md": skill(
      "fix-issue",
      "Fix a GitHub issue.",
      'when_to_use: When the user names an issue number.\nargument-hint: "[issue] [--dry-run]"\n',
      "# fix-issue\n\nFix issue $ARGUMENTS now.\n",
    ),
    "skills/plain/SKILL.md": skill("plain", "Nothing special."),
  });
}
