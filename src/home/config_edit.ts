/**
 * Careful edits of config.yaml ([V-10] `enable`/`disable`, [V-9] `setup`): a list or one
 * value below `skills:` is changed by editing the fewest lines of the text, so the user's
 * comments, other keys, order and spacing stay as they were. Every edit is proved: the
 * new text is parsed and must equal the old document with exactly the intended change;
 * when the file's structure cannot be edited that way (flow style, anchors, multi-line
 * items, …) the edit is refused with a clear message and nothing is written. Pure: text
 * in, text out.
 *
 * @module
 */
import { parseYaml } from "../deps/yaml.ts";
import { SkillrtError } from "../errors.ts";
import { isMapping } from "../mapping.ts";

/** What an edit does to the value at a key path. */
export type ConfigChange =
  | { kind: "list"; update: (items: string[]) => string[] }
  | { kind: "scalar"; value: string };

interface Entry {
  /** Line index of `key:`. */
  line: number;
  /** Its indentation. */
  indent: number;
  /** What follows the colon, without the comment. */
  value: string;
  /** The comment at the end of the line, with its leading spaces ('' when none). */
  comment: string;
}

/** Lines [start, end) holding the entries of a block mapping at one indentation. */
interface Region {
  start: number;
  end: number;
  indent: number | undefined;
}

function refuse(file: string, why: string): SkillrtError {
  return new SkillrtError(
    `Cannot edit '${file}' safely: ${why}. Nothing was written; edit it by hand.`,
    { file },
  );
}

const indentOf = (line: string): number => line.length - line.trimStart().length;
const isContent = (line: string): boolean => {
  const t = line.trim();
  return t !== "" && !t.startsWith("#");
};

/** Splits `rest` (after a key's colon) into its value and its trailing comment. */
function splitComment(rest: string): { value: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(rest[i - 1]))) {
      let start = i;
      while (start > 0 && /\s/.test(rest[start - 1])) start--;
      return { value: rest.slice(0, start).trim(), comment: rest.slice(start) };
    }
  }
  return { value: rest.trim(), comment: "" };
}

const KEY = /^( *)([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:([ \t].*)|)$/;

/** Finds `key` among the entries of `region`; a key written twice is refused. */
function findKey(lines: string[], region: Region, key: string, file: string): Entry | undefined {
  let found: Entry | undefined;
  for (let i = region.start; i < region.end; i++) {
    const line = lines[i];
    if (!isContent(line) || indentOf(line) !== region.indent) continue;
    const m = KEY.exec(line);
    if (!m || m[2] !== key) continue;
    if (found) throw refuse(file, `'${key}' is written twice`);
    found = { line: i, indent: m[1].length, ...splitComment(m[3] ?? "") };
  }
  return found;
}

/** The lines below an entry that belong to it (its block), trailing comments left out. */
function blockOf(lines: string[], entry: Entry, sequenceAtSameIndent: boolean): Region {
  let end = entry.line + 1;
  let lastContent = entry.line;
  for (let i = entry.line + 1; i < lines.length; i++) {
    const line = lines[i];
    if (!isContent(line)) continue;
    const indent = indentOf(line);
    const item = /^-(\s|$)/.test(line.trimStart());
    if (indent > entry.indent || (sequenceAtSameIndent && indent === entry.indent && item)) {
      lastContent = i;
      continue;
    }
    break;
  }
  end = lastContent + 1;
  let indent: number | undefined;
  for (let i = entry.line + 1; i < end; i++) {
    if (isContent(lines[i])) {
      indent = indentOf(lines[i]);
      break;
    }
  }
  return { start: entry.line + 1, end, indent };
}

/** The text that creates `path` with `leaf` lines at the end, indented from `indent`. */
function created(path: string[], indent: number, leaf: (indent: number) => string[]): string[] {
  const out: string[] = [];
  path.forEach((key, i) => out.push(`${" ".repeat(indent + 2 * i)}${key}:`));
  const inner = leaf(indent + 2 * path.length);
  if (inner.length === 1 && !inner[0].trimStart().startsWith("- ")) {
    out[out.length - 1] += ` ${inner[0].trim()}`;
    return out;
  }
  return [...out, ...inner];
}

/** A string written as YAML: plain when that is unambiguous, else double-quoted. */
export function yamlScalar(value: string): string {
  const plain = /^[A-Za-z0-9_][A-Za-z0-9_./@+-]*$/.test(value) &&
    !/^(true|false|yes|no|on|off|null|y|n|~)$/i.test(value) && !/^[0-9._+-]+$/.test(value);
  return plain ? value : JSON.stringify(value);
}

function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      isMapping(v)
        ? Object.fromEntries(
          Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
        : v,
  );
}

function parsed(text: string, file: string): Record<string, unknown> {
  const result = parseYaml(text);
  if ("failure" in result) throw refuse(file, `it does not parse (${result.failure.message})`);
  if (result.value === null || result.value === undefined) return {};
  if (!isMapping(result.value)) throw refuse(file, "it is not a YAML mapping");
  return result.value as Record<string, unknown>;
}

/** The value at `path` in a parsed document (undefined when a step is missing). */
function valueAt(doc: Record<string, unknown>, path: string[]): unknown {
  let cur: unknown = doc;
  for (const key of path) {
    if (!isMapping(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** The current items of a list value (a single string counts as a list of one). */
function listItems(value: unknown, file: string, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string" || typeof value === "number") return [String(value)];
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
    return value.map(String);
  }
  throw refuse(file, `'${where}' is not a list of names`);
}

/** The document with the change made, as the edited text must parse. */
function expectedDoc(
  doc: Record<string, unknown>,
  path: string[],
  value: unknown,
  file: string,
): Record<string, unknown> {
  const out = structuredClone(doc);
  let cur: Record<string, unknown> = out;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (next === undefined || next === null) cur[key] = {};
    else if (!isMapping(next)) throw refuse(file, `'${key}' is not a mapping`);
    cur = cur[key] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
  return out;
}

/** Edits the value of an existing entry in place: a scalar, or the items of a list. */
function editEntry(
  lines: string[],
  entry: Entry,
  change: ConfigChange,
  before: unknown,
  after: unknown,
  file: string,
  where: string,
): void {
  const keyText = lines[entry.line].slice(0, lines[entry.line].indexOf(":") + 1);
  if (change.kind === "scalar") {
    const block = blockOf(lines, entry, false);
    if (block.indent !== undefined || /^[[{|>&*!]/.test(entry.value)) {
      throw refuse(file, `'${where}' holds a structure, not a single value`);
    }
    lines[entry.line] = `${keyText} ${yamlScalar(change.value)}${entry.comment}`;
    return;
  }
  const items = after as string[];
  const block = blockOf(lines, entry, true);
  const itemLines: number[] = [];
  for (let i = block.start; i < block.end; i++) {
    if (!isContent(lines[i])) continue;
    if (indentOf(lines[i]) !== block.indent || !/^-\s+\S/.test(lines[i].trimStart())) {
      throw refuse(file, `'${where}' is not a simple list (one name per '- ' line)`);
    }
    itemLines.push(i);
  }
  const old = listItems(before, file, where);
  if (itemLines.length === 0) {
    if (entry.value !== "" && !/^(\[.*\]|null|~|[^[{|>&*!'"].*|".*"|'.*')$/.test(entry.value)) {
      throw refuse(file, `'${where}' is written in a form that cannot be edited`);
    }
    // Flow style, a single name or nothing: the value becomes a block list below the key.
    const indent = entry.indent + 2;
    lines.splice(
      entry.line,
      1,
      `${keyText}${items.length ? "" : " []"}${entry.comment}`,
      ...items.map((item) => `${" ".repeat(indent)}- ${yamlScalar(item)}`),
    );
    return;
  }
  if (entry.value !== "" || itemLines.length !== old.length) {
    throw refuse(file, `'${where}' is not a simple list (one name per '- ' line)`);
  }
  const keep = itemLines.filter((_, i) => items.includes(old[i]));
  const added = items.filter((item) => !old.includes(item));
  const prefix = lines[itemLines[0]].slice(0, indentOf(lines[itemLines[0]]));
  const last = itemLines[itemLines.length - 1];
  lines.splice(last + 1, 0, ...added.map((item) => `${prefix}- ${yamlScalar(item)}`));
  for (const i of [...itemLines].reverse()) if (!keep.includes(i)) lines.splice(i, 1);
  if (keep.length === 0 && added.length === 0) lines[entry.line] = `${keyText} []${entry.comment}`;
}

/**
 * Changes the value at `path` (keys below the top, e.g. `["skills", "disabled"]`) in the
 * text of config.yaml, keeping every other line. Returns the new text (the old text
 * when nothing changes).
 * @throws {SkillrtError} when the file cannot be edited safely; nothing is to be written.
 */
export function editConfigText(
  text: string,
  path: string[],
  change: ConfigChange,
  file = "config.yaml",
): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const doc = parsed(text, file);
  const where = path.join(".");
  const before = valueAt(doc, path);
  const after = change.kind === "list"
    ? change.update(listItems(before, file, where))
    : change.value;
  if (canonical(before ?? null) === canonical(after)) return text;
  const lines = text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/);
  if (lines.some((l) => /^[ ]*\t/.test(l) && isContent(l))) {
    throw refuse(file, "it indents with tabs");
  }
  walkAndEdit(lines, path, change, before, after, file);
  const out = lines.join(eol) + eol;
  const expected = expectedDoc(doc, path, after, file);
  if (canonical(parsed(out, file)) !== canonical(expected)) {
    throw refuse(file, `the change to '${where}' would not read back as intended`);
  }
  return out;
}

/** The lines that create the rest of `path` (from `depth`) with the new value, indented from `indent`. */
function missingLines(
  path: string[],
  depth: number,
  indent: number,
  change: ConfigChange,
  after: unknown,
): string[] {
  if (change.kind === "list" && (after as string[]).length === 0) {
    return created(path.slice(depth), indent, () => ["[]"]);
  }
  return created(
    path.slice(depth),
    indent,
    (at: number) =>
      change.kind === "scalar"
        ? [`${" ".repeat(at)}${yamlScalar(change.value)}`]
        : (after as string[]).map((item) => `${" ".repeat(at)}- ${yamlScalar(item)}`),
  );
}

/** Follows `path` down the block mappings of `lines`, editing the value or adding what is missing. */
function walkAndEdit(
  lines: string[],
  path: string[],
  change: ConfigChange,
  before: unknown,
  after: unknown,
  file: string,
): void {
  let region: Region = { start: 0, end: lines.length, indent: 0 };
  for (let depth = 0; depth < path.length; depth++) {
    const entry = region.indent === undefined
      ? undefined
      : findKey(lines, region, path[depth], file);
    if (!entry) {
      const indent = depth === 0 ? 0 : region.indent ?? indentOfParent(lines, region) + 2;
      let at = region.end;
      while (at > region.start && !isContent(lines[at - 1])) at--;
      lines.splice(
        depth === 0 ? lines.length : at,
        0,
        ...missingLines(path, depth, indent, change, after),
      );
      return;
    }
    if (depth === path.length - 1) {
      editEntry(lines, entry, change, before, after, file, path.join("."));
      return;
    }
    if (entry.value === "{}" || entry.value === "null" || entry.value === "~") {
      const line = lines[entry.line];
      lines[entry.line] = `${line.slice(0, line.indexOf(":") + 1)}${entry.comment}`;
    } else if (entry.value !== "") {
      throw refuse(
        file,
        `'${path.slice(0, depth + 1).join(".")}' is not written as a block mapping`,
      );
    }
    region = blockOf(lines, entry, false);
  }
}

/** The indentation of the entry a region belongs to (the line before it). */
function indentOfParent(lines: string[], region: Region): number {
  return region.start > 0 ? indentOf(lines[region.start - 1]) : -2;
}
