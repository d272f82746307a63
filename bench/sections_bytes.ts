/**
 * [V-8] What section retrieval saves an agent, measured on the corpus of real skills
 * (`SKILLRT_CORPUS`, default `../shared/corpus`): the characters (as UTF-8 bytes) an agent
 * reads for a typical task with the whole SKILL.md, and with the brief plus one section.
 * "One section" is each top section of the skill in turn (the sections just below its
 * title), averaged: the expected cost when a task needs one of them. A skill without such
 * sections costs its whole text either way. Content is measured as written (no
 * preprocessing); the brief is exactly what `view --brief` prints.
 *
 * usage: deno run --allow-read --allow-env bench/sections_bytes.ts [--min-bytes N]
 */
import { bodyOf, briefOf, renderBrief } from "../src/view/partial.ts";
import { type Heading, outline } from "../src/view/outline.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const CORPUS = Deno.env.get("SKILLRT_CORPUS") ?? `${REPO}/../shared/corpus`;
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Every SKILL.md below a folder. */
function* skillFiles(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !entry.name.startsWith(".")) yield* skillFiles(path);
    else if (entry.isFile && entry.name === "SKILL.md") yield path;
  }
}

/** The top sections: the shallowest level, or the one below a lone title. */
function topSections(heads: Heading[]): Heading[] {
  const levels = [...new Set(heads.map((h) => h.level))].sort();
  for (const level of levels) {
    const at = heads.filter((h) => h.level === level);
    if (at.length > 1) return at;
  }
  return [];
}

interface Row {
  file: string;
  whole: number;
  brief: number;
  section: number;
}

function measure(file: string): Row {
  const text = Deno.readTextFileSync(file);
  const body = bodyOf(text);
  const name = file.split("/").at(-2) ?? "skill";
  const brief = bytes(renderBrief(name, briefOf(body)));
  const tops = topSections(outline(body));
  const section = tops.length
    ? tops.reduce((n, h) => n + bytes(body.slice(h.start, h.end)), 0) / tops.length
    : bytes(text) - brief; // no sections: the agent reads the whole text after the brief
  return { file, whole: bytes(text), brief, section: Math.round(section) };
}

function summary(label: string, rows: Row[]): string {
  const whole = rows.reduce((n, r) => n + r.whole, 0);
  const parts = rows.reduce((n, r) => n + r.brief + r.section, 0);
  const pct = whole ? Math.round((1 - parts / whole) * 100) : 0;
  return `| ${label} | ${rows.length} | ${whole.toLocaleString("en")} | ${
    parts.toLocaleString("en")
  } | ${pct}% |`;
}

const i = Deno.args.indexOf("--min-bytes");
const large = i === -1 ? 10_000 : Number(Deno.args[i + 1]);
const rows = [...skillFiles(CORPUS)].map(measure);
const biggest = rows.reduce((a, b) => (b.whole > a.whole ? b : a));
console.log(
  [
    "| Skills | Count | Whole SKILL.md (bytes) | Brief + one section (bytes) | Saved |",
    "| ------ | ----: | ---------------------: | --------------------------: | ----: |",
    summary("all", rows),
    summary(`≥ ${large.toLocaleString("en")} bytes`, rows.filter((r) => r.whole >= large)),
    summary(`largest (${biggest.file.slice(CORPUS.length + 1)})`, [biggest]),
  ].join("\n"),
);
