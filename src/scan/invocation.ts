/**
 * Claude Code's invocation fields ([IO-3]): who may pick a skill and how it is called.
 * `disable-model-invocation: true` keeps a skill out of everything the model is shown (a
 * person still lists, views and invokes it); `user-invocable: false` keeps it off the
 * slash path (MCP prompts); `when_to_use` is appended to the description wherever the
 * model sees it; `argument-hint` names the arguments of an invocation. Each is read in its
 * kebab-case spelling and the snake_case one Claude Code also accepts. Pure.
 *
 * @module
 */
import type { Frontmatter } from "../frontmatter/parse.ts";

/** A skill's invocation fields; each present only when the frontmatter sets it. */
export interface Invocation {
  /** `disable-model-invocation: true`: never shown to the model. */
  disableModelInvocation?: true;
  /** `user-invocable: false`: not offered on the slash path (MCP prompts). */
  userInvocable?: false;
  /** `when_to_use`: appended to the description the model sees. */
  whenToUse?: string;
  /** `argument-hint`, e.g. `[file] [--dry-run]`. */
  argumentHint?: string;
}

/** `when_to_use` longer than this is cut (as a description is, [S-5]). */
export const MAX_WHEN_TO_USE = 1024;
/** `argument-hint` longer than this is cut. */
export const MAX_ARGUMENT_HINT = 256;

/** Each field's spellings: as written in Claude Code's docs, and with `_` for `-`. */
const spellings = new Map<string, readonly string[]>();

/** The first of a field's spellings that is set. */
function field(data: Frontmatter, key: string): unknown {
  let both = spellings.get(key);
  if (!both) spellings.set(key, both = [key, key.replaceAll("-", "_")]);
  for (const spelling of both) {
    if (data[spelling] !== undefined && data[spelling] !== null) return data[spelling];
  }
  return undefined;
}

/** A YAML boolean, or the words `true`/`false`/`yes`/`no` written as text. */
function flag(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (word === "true" || word === "yes") return true;
  if (word === "false" || word === "no") return false;
  return undefined;
}

/** Text of a field, trimmed, its lines joined, cut to `max`; undefined when empty or not text. */
function line(value: unknown, max: number): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value).split(/\r?\n/).map((l) => l.trim()).filter(Boolean).join(" ");
  if (text === "") return undefined;
  return text.length > max ? text.slice(0, max - 3) + "..." : text;
}

/**
 * `argument-hint` as written: Claude Code's own examples leave `[issue-number]` unquoted,
 * which YAML reads as a list; its items are put back in brackets.
 */
function hintText(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const items = value.filter((v) => typeof v === "string" || typeof v === "number");
  return items.length === value.length ? items.map((v) => `[${v}]`).join(" ") : undefined;
}

/** The invocation fields of a frontmatter ([IO-3]). */
export function invocationOf(data: Frontmatter): Invocation {
  const out: Invocation = {};
  if (flag(field(data, "disable-model-invocation")) === true) out.disableModelInvocation = true;
  if (flag(field(data, "user-invocable")) === false) out.userInvocable = false;
  const whenToUse = line(field(data, "when-to-use"), MAX_WHEN_TO_USE);
  if (whenToUse !== undefined) out.whenToUse = whenToUse;
  const hint = line(hintText(field(data, "argument-hint")), MAX_ARGUMENT_HINT);
  if (hint !== undefined) out.argumentHint = hint;
  return out;
}

/** The description the model sees: the description, then `when_to_use` ([IO-3]). */
export function modelDescription(description: string, invocation: Invocation): string {
  if (invocation.whenToUse === undefined) return description;
  return description === "" ? invocation.whenToUse : `${description} ${invocation.whenToUse}`;
}
