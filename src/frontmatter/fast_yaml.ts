/**
 * A fast path for the frontmatter most skills have: `key: value` lines, nested mappings
 * by indentation, and `[a, b]` lists of plain words. Anything else — quotes with escapes,
 * block lists, anchors, numbers, booleans, comments after values, multi-line scalars —
 * returns undefined and goes to the full YAML parser, so results are always what
 * js-yaml would give (a property test checks this).
 *
 * @module
 */

type Mapping = Record<string, unknown>;

const KEY_LINE = /^( *)([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const UNSAFE_START = /^[-+.0-9~?:,\[\]{}#&*!|>'"%@`]/;
const UNSAFE_ANYWHERE = /: |:$| #|[{}\[\]&*!|>%@`"'\t\\]/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|nan|inf|\.inf|\.nan|~|<<)$/i;

/** A plain scalar that YAML reads as exactly this string, or undefined. */
function plainString(raw: string): string | undefined {
  const s = raw.trim();
  // A dotted version (1.8.0) is no number or date in YAML: a string.
  if (/^\d+(\.\d+){2,}$/.test(s)) return s;
  if (
    s === "" || UNSAFE_START.test(s) || UNSAFE_ANYWHERE.test(s) || RESERVED.test(s) || /^\d/.test(s)
  ) return undefined;
  return s;
}

function quoted(raw: string): string | undefined {
  const s = raw.trim();
  if (s.length >= 2 && s[0] === '"' && s.at(-1) === '"') {
    const inner = s.slice(1, -1);
    return /["\\]/.test(inner) ? undefined : inner;
  }
  if (s.length >= 2 && s[0] === "'" && s.at(-1) === "'") {
    const inner = s.slice(1, -1);
    return inner.includes("'") ? undefined : inner;
  }
  return undefined;
}

function flowList(raw: string): string[] | undefined {
  const s = raw.trim();
  if (!s.startsWith("[") || !s.endsWith("]")) return undefined;
  const inner = s.slice(1, -1).trim();
  if (inner === "") return [];
  const items: string[] = [];
  for (const part of inner.split(",")) {
    const item = plainString(part);
    if (item === undefined) return undefined;
    items.push(item);
  }
  return items;
}

function scalar(raw: string): unknown {
  return quoted(raw) ?? flowList(raw) ?? plainString(raw);
}

/** Parses the simple subset; undefined means "use the full parser". */
export function fastYaml(text: string): Mapping | undefined {
  const root: Mapping = {};
  // Stack of open mappings with the indentation of their keys.
  const stack: { indent: number; map: Mapping }[] = [{ indent: 0, map: root }];
  let expectChildOf: { key: string; parent: Mapping; indent: number } | undefined;
  for (const line of text.split("\n")) {
    if (line.trim() === "" || /^ *#/.test(line)) continue;
    const m = KEY_LINE.exec(line);
    if (!m) return undefined;
    const indent = m[1].length;
    const key = m[2];
    const rest = m[3];
    if (expectChildOf) {
      if (indent > expectChildOf.indent) {
        const child: Mapping = {};
        expectChildOf.parent[expectChildOf.key] = child;
        stack.push({ indent, map: child });
      } else expectChildOf.parent[expectChildOf.key] = null;
      expectChildOf = undefined;
    }
    while (stack.length > 1 && indent < stack.at(-1)!.indent) stack.pop();
    const top = stack.at(-1)!;
    if (indent !== top.indent) return undefined;
    // Duplicate keys are an error for YAML; `__proto__` is left to the full parser.
    if (Object.hasOwn(top.map, key) || key === "__proto__") return undefined;
    if (rest === undefined || rest.trim() === "") {
      expectChildOf = { key, parent: top.map, indent };
      top.map[key] = null;
      continue;
    }
    const value = scalar(rest);
    if (value === undefined) return undefined;
    top.map[key] = value;
  }
  return root;
}
