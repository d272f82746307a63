/** A scanner test case: a small skill written as files, and what the scanner must say of it. */
export interface ScannerCase {
  /** The case's name (also the skill's name). */
  name: string;
  /** Files by path: SKILL.md, scripts, references. */
  files: Record<string, string | Uint8Array>;
  /** Rule ids that must be among the findings (evasion) or the exact [rule, context] pairs (benign). */
  expect: string[];
}

/** A SKILL.md with frontmatter and a body. */
export function md(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}`;
}

/** UTF-16LE bytes (with a byte-order mark) of a text: NUL-padded ASCII. */
export function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) out[2 + i * 2] = text.charCodeAt(i);
  return out;
}

/** Unicode tag characters spelling an ASCII text (invisible when rendered). */
export function tags(text: string): string {
  return [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
}

/** Bytes: a prefix, then a text, then a suffix. */
export function bytesAround(prefix: Uint8Array, text: string, suffix: Uint8Array): Uint8Array {
  const mid = new TextEncoder().encode(text);
  const out = new Uint8Array(prefix.length + mid.length + suffix.length);
  out.set(prefix, 0);
  out.set(mid, prefix.length);
  out.set(suffix, prefix.length + mid.length);
  return out;
}
