/**
 * `enable NAME` / `disable NAME [--platform P]` ([V-10]): the edits of config.yaml that
 * hide a skill (in `skills.disabled`, or `skills.platform_disabled.<P>`) or show it again
 * (`enable` without a platform takes it off every list). Pure: names and the config in,
 * edits out; `config_write.ts` applies them.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { hasControlChar } from "../manage/file_names.ts";
import type { SkillsConfig } from "./config.ts";
import type { ConfigEdit } from "./config_write.ts";

/** What a toggle asks for. */
export interface Toggle {
  /** The skill name as it appears in the lists. */
  name: string;
  /** True to hide it, false to show it again. */
  disable: boolean;
  /** Only on this platform (`cli`, `telegram`, …). */
  platform?: string;
}

/** Checks a toggle's name and platform. */
export function checkToggle(toggle: Toggle): Toggle {
  const { name, platform } = toggle;
  if (
    typeof name !== "string" || name.trim() === "" || name.length > 200 || hasControlChar(name) ||
    /[\s,#[\]{}]/.test(name)
  ) {
    throw new UsageError(`Invalid skill name ${JSON.stringify(String(name))}.`);
  }
  if (platform !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(platform)) {
    throw new UsageError(
      `Invalid platform ${JSON.stringify(platform)}; use letters, digits, '-' and '_'.`,
    );
  }
  return toggle;
}

/** The config.yaml edits of a toggle; none when the lists already say so. */
export function toggleEdits(toggle: Toggle, config: SkillsConfig): ConfigEdit[] {
  const { name, disable, platform } = checkToggle(toggle);
  const add = (items: string[]) => (items.includes(name) ? items : [...items, name]);
  const remove = (items: string[]) => items.filter((item) => item !== name);
  if (platform !== undefined) {
    return [{
      path: ["skills", "platform_disabled", platform],
      change: { kind: "list", update: disable ? add : remove },
    }];
  }
  if (disable) return [{ path: ["skills", "disabled"], change: { kind: "list", update: add } }];
  const edits: ConfigEdit[] = [];
  if (config.disabled.includes(name)) {
    edits.push({ path: ["skills", "disabled"], change: { kind: "list", update: remove } });
  }
  for (const [p, names] of Object.entries(config.platform_disabled)) {
    if (names.includes(name)) {
      edits.push({
        path: ["skills", "platform_disabled", p],
        change: { kind: "list", update: remove },
      });
    }
  }
  return edits;
}
