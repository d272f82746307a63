/**
 * Content warnings of [V-6]: prompt-injection phrases, invisible Unicode, and HTML
 * comments outside code fences, each named with its line. Pure.
 *
 * @module
 */
import { invisibleIn } from "../scanner/invisible.ts";

/** One content warning. */
export interface ContentWarning {
  /** The phrase or rule that matched. */
  pattern: string;
  /** 1-based line in the content. */
  line: number;
  /** One sentence for people. */
  message: string;
}

/** The phrases of [V-6], matched case-insensitively. */
export const INJECTION_PHRASES: readonly string[] = [
  "ignore previous instructions",
  "ignore all previous",
  "you are now",
  "disregard your",
  "forget your instructions",
  "new instructions:",
  "system prompt:",
  "<system>",
  "]]>",
];

const FENCE = /^\s*(```|~~~)/;

/** Finds the warnings of [V-6] in a skill's content. */
export function contentWarnings(content: string): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  const lines = content.split("\n");
  let inFence = false;
  let inComment = false;
  lines.forEach((text, i) => {
    const line = i + 1;
    const lower = text.toLowerCase();
    for (const phrase of INJECTION_PHRASES) {
      if (lower.includes(phrase)) {
        warnings.push({
          pattern: phrase,
          line,
          message: `Line ${line}: content matches the injection pattern '${phrase}'.`,
        });
      }
    }
    const invisible = invisibleIn(text);
    if (invisible) {
      warnings.push({
        pattern: "invisible-unicode",
        line,
        message: `Line ${line}: content holds the invisible character ${invisible}.`,
      });
    }
    if (FENCE.test(text)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    if (!inComment && text.includes("<!--")) {
      warnings.push({
        pattern: "html-comment",
        line,
        message: `Line ${line}: an HTML comment outside a code fence hides text from readers.`,
      });
      inComment = !text.slice(text.indexOf("<!--")).includes("-->");
    } else if (inComment && text.includes("-->")) inComment = false;
  });
  return warnings;
}
