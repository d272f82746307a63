/**
 * The guard scanner's text engine ([HUB-4]): every rule runs over a file's original text
 * and over its normal form (the lines the normal form changed, and phrases split over
 * lines); each match gets a context that may lower its severity, visibly; one finding per
 * rule per line (the most severe); findings name the original line. Pure.
 *
 * @module
 */
import { type Rule, type RuleSeverity, STRUCTURAL_RULES, TEXT_RULES } from "../hub/rules.ts";
import { boundText, type ScanBudget, skillBudget } from "./bounds.ts";
import { contextOf, type FileKind, fileKind, isSecurityDoc } from "./context.ts";
import type { ScanFinding } from "./finding.ts";
import { invisibleIn, withoutBom } from "./invisible.ts";
import { type LineInfo, lineInfos } from "./lines.ts";
import { compile, type Compiled, endsWith, hitsOf, wholeText } from "./linear.ts";
import { LineView } from "./line_view.ts";
import { normalForm } from "./normalize.ts";
import { hostsOf, isLoopback } from "./secrets.ts";

/** Severities from least to most. */
export const SEVERITY_ORDER: readonly RuleSeverity[] = ["low", "medium", "high", "critical"];

const rank = (s: RuleSeverity) => SEVERITY_ORDER.indexOf(s);
const STRUCTURAL = new Map(STRUCTURAL_RULES.map((rule) => [rule.id, rule]));
const COMPILED = new Map<Rule, Compiled[]>(
  TEXT_RULES.map((rule) => [rule, rule.patterns!.map(compile)]),
);
type Test = (text: string) => boolean;
/** A rule's `notAfter`/`onlyAfter` (they end at `$`) and `next` (a whole line), reading no further. */
const TESTS = new Map<Rule, { notAfter?: Test; onlyAfter?: Test; next?: Test }>(
  TEXT_RULES.map((rule) => [rule, {
    notAfter: rule.notAfter && endsWith(rule.notAfter),
    onlyAfter: rule.onlyAfter && endsWith(rule.onlyAfter),
    next: rule.next && wholeText(rule.next),
  }]),
);

/** A view of a file's text to match on: its text, where each piece starts, and the line it names. */
interface Form {
  text: string;
  /** Start offset of each piece (a line, or a paragraph of joined lines). */
  pieces: number[];
  /** Sorted offsets where an original line begins, and that line's 1-based number. */
  marks: number[];
  lines: number[];
  /** True for the joined-paragraph form (only phrase rules, only matches spanning lines). */
  flow: boolean;
  /** Each piece's view, made when a match first lands on it. */
  views: (LineView | undefined)[];
}

function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function buildForm(parts: { text: string; lines: number[]; offsets: number[] }[], flow: boolean) {
  const form: Form = { text: "", pieces: [], marks: [], lines: [], flow, views: [] };
  const chunks: string[] = [];
  let at = 0;
  for (const part of parts) {
    form.pieces.push(at);
    part.lines.forEach((line, i) => {
      form.marks.push(at + part.offsets[i]);
      form.lines.push(line);
    });
    chunks.push(part.text);
    at += part.text.length + 1;
  }
  form.text = chunks.join("\n");
  return form;
}

/** The original text as a form: one piece per line. */
function wholeForm(original: readonly string[]): Form {
  const pieces = new Array<number>(original.length);
  const lines = new Array<number>(original.length);
  let at = 0;
  for (let i = 0; i < original.length; i++) {
    pieces[i] = at;
    lines[i] = i + 1;
    at += original[i].length + 1;
  }
  return { text: original.join("\n"), pieces, marks: pieces, lines, flow: false, views: [] };
}

const LEAD = /^\s*(?:[>#*+-]+|\/\/+|\d+\.|--|;+)?\s*/;

/** The original text, the changed lines of the normal form, and its multi-line paragraphs. */
function formsOf(original: readonly string[], normal: readonly (string | null)[]): Form[] {
  const whole = wholeForm(original);
  const changed = buildForm(
    normal.flatMap((text, i) =>
      text !== null && text !== original[i].trimEnd()
        ? [{ text, lines: [i + 1], offsets: [0] }]
        : []
    ),
    false,
  );
  const paragraphs: { text: string; lines: number[]; offsets: number[] }[] = [];
  let current: { text: string; lines: number[]; offsets: number[] } | null = null;
  normal.forEach((text, i) => {
    if (text === null) return;
    if (text.trim() === "" || /^\s*(```|~~~)/.test(text)) {
      if (current && current.lines.length > 1) paragraphs.push(current);
      current = null;
      return;
    }
    const body = text.replace(LEAD, "");
    if (!current) current = { text: body, lines: [i + 1], offsets: [0] };
    else {
      current.offsets.push(current.text.length + 1);
      current.lines.push(i + 1);
      current.text += ` ${body}`;
    }
  });
  if (current && (current as { lines: number[] }).lines.length > 1) paragraphs.push(current);
  return [whole, changed, buildForm(paragraphs, true)];
}

interface FileFacts {
  file: string;
  kind: FileKind;
  securityDoc: boolean;
  infos: LineInfo[];
  original: string[];
  normal: (string | null)[];
  /** Each line's excerpt, made when a finding first names the line. */
  excerpts: string[];
}

/** Where a match sits: its piece of text, its offset there, and the original line it names. */
interface Place {
  segment: string;
  view: LineView;
  start: number;
  line: number;
}

/** The place of a match; null for a flow match that does not span lines (the line form has it). */
function locate(form: Form, index: number, matched: string): Place | null {
  const piece = lastAtOrBefore(form.pieces, index);
  const pieceStart = form.pieces[piece];
  const pieceEnd = piece + 1 < form.pieces.length ? form.pieces[piece + 1] - 1 : form.text.length;
  const line = form.lines[lastAtOrBefore(form.marks, index)];
  if (form.flow && form.lines[lastAtOrBefore(form.marks, index + matched.length - 1)] === line) {
    return null;
  }
  const view = form.views[piece] ??= new LineView(form.text.slice(pieceStart, pieceEnd));
  return { segment: view.text, view, start: index - pieceStart, line };
}

/** The rule's own conditions beyond its pattern: placeholders, what comes before, the next line. */
function conditionsHold(facts: FileFacts, rule: Rule, at: Place, matched: string): boolean {
  const tests = TESTS.get(rule)!;
  const before = at.segment.slice(0, at.start);
  if (rule.unless?.test(matched)) return false;
  if (tests.notAfter?.(before)) return false;
  if (tests.onlyAfter && !tests.onlyAfter(before)) return false;
  if (!tests.next) return true;
  const next = [facts.original[at.line] ?? "", facts.normal[at.line] ?? ""];
  return next.some((t) => tests.next!(t));
}

/** The finding (or null) of one match. */
function judgeMatch(
  facts: FileFacts,
  rule: Rule,
  form: Form,
  index: number,
  matched: string,
): ScanFinding | null {
  const at = locate(form, index, matched);
  if (!at || !conditionsHold(facts, rule, at, matched)) return null;
  const judged = rule.judge
    ? at.view.memo(rule, () => rule.judge!(at.segment))
    : { severity: rule.severity };
  if (!judged) return null;
  let severity = judged.severity;
  let reason = "reason" in judged ? judged.reason : undefined;
  const info = facts.infos[at.line - 1];
  const end = at.start + matched.length;
  const ctx = contextOf(rule, facts.kind, facts.securityDoc, info, at.view, at.start, end);
  if (ctx.cap && rank(severity) > rank(ctx.cap)) {
    severity = ctx.cap;
    reason = ctx.reason;
  }
  if (
    (rule.category === "exfiltration" || rule.category === "network") &&
    rank(severity) > rank("low") && at.view.memo(onLoopback, () => onLoopback(at.segment))
  ) {
    severity = "low";
    reason = "the target is on loopback";
  }
  return {
    rule: rule.id,
    category: rule.category,
    severity,
    file: facts.file,
    line: at.line,
    excerpt: facts.excerpts[at.line - 1] ??= excerptOf(facts.original[at.line - 1]),
    context: ctx.context,
    ...(severity !== rule.severity ? { original_severity: rule.severity } : {}),
    ...(reason ? { reason } : {}),
  };
}

/** A line as a finding quotes it: trimmed, at most 120 characters (read no further than that). */
function excerptOf(line: string): string {
  const lead = line.length - line.trimStart().length;
  return line.slice(lead, lead + 240).trim().slice(0, 120);
}

/** True when every host a line talks to is on loopback (and it names at least one). */
function onLoopback(line: string): boolean {
  const hosts = hostsOf(line);
  return hosts.length > 0 && hosts.every(isLoopback);
}

/** A structural finding about a line or a file. */
export function structuralFinding(
  id: string,
  file: string,
  line: number | null,
  excerpt: string,
): ScanFinding {
  const rule = STRUCTURAL.get(id)!;
  return {
    rule: rule.id,
    category: rule.category,
    severity: rule.severity,
    file,
    line,
    excerpt: excerptOf(excerpt),
    context: "code",
  };
}

/** Keeps the most severe finding per rule and line. */
export function keepWorst(findings: Iterable<ScanFinding>): ScanFinding[] {
  const best = new Map<string, ScanFinding>();
  for (const f of findings) {
    const key = `${f.rule}\u0000${f.file}\u0000${f.line}`;
    const seen = best.get(key);
    if (!seen || rank(f.severity) > rank(seen.severity)) best.set(key, f);
  }
  return [...best.values()];
}

/** Every match of a rule in one form, judged. */
function matchForm(facts: FileFacts, rule: Rule, form: Form): ScanFinding[] {
  const out: ScanFinding[] = [];
  if ((form.flow && !rule.flow) || form.text === "") return out;
  for (const pattern of COMPILED.get(rule)!) {
    for (const hit of hitsOf(pattern, form.text)) {
      const f = judgeMatch(facts, rule, form, hit.index, hit.text);
      if (f) out.push(f);
    }
  }
  return out;
}

/**
 * A rule's findings over the forms. Where the normal form of a line matches too, its
 * finding stands for that line: it sees the line as decoded (an `&quot;`-quoted phrase is
 * quoted), so its context is the better informed one.
 */
function matchRule(facts: FileFacts, rule: Rule, forms: readonly Form[]): ScanFinding[] {
  const [whole, changed, flow] = forms.map((form) => matchForm(facts, rule, form));
  const decoded = new Set(changed.map((f) => f.line));
  return [...whole.filter((f) => !decoded.has(f.line)), ...changed, ...flow];
}

/** What the scanner knows about the skill around a file. */
export interface ScanTextOptions {
  /** The skill's SKILL.md is about security: its documentation counts as security documents. */
  securitySkill?: boolean;
  /**
   * The text is a reading of bytes that are not UTF-8 (a binary file): its rules run, but
   * invisible characters and comment markers in it are bytes, not hidden text.
   */
  binary?: boolean;
  /** What the skill's scan may still read (spent by this file); else one file's bound. */
  budget?: ScanBudget;
}

/** Findings in one file's text (a leading BOM and CRLF line ends are not read as content). Pure. */
export function scanText(file: string, raw: string, options: ScanTextOptions = {}): ScanFinding[] {
  // Read no further than the bound ([HUB-4]): past it, one finding says so.
  const bounded = boundText(raw, options.budget ?? skillBudget());
  const found = bounded.past ? [structuralFinding("structural.unscanned", file, null, "")] : [];
  if (bounded.past) found[0].excerpt = bounded.past;
  // A BOM and CRLF line ends are how an editor saved the file, not content ([S-6], [IO-5]).
  const text = withoutBom(bounded.text).replaceAll("\r\n", "\n");
  const original = text.split("\n");
  const normal = normalForm(text);
  const facts: FileFacts = {
    file,
    kind: fileKind(file),
    securityDoc: false,
    infos: lineInfos(file, original),
    original,
    normal,
    excerpts: [],
  };
  facts.securityDoc = facts.kind === "doc" &&
    isSecurityDoc(
      file,
      normal.slice(0, 2000).filter((l) => l !== null).join("\n"),
      options.securitySkill === true,
    );
  const forms = formsOf(original, normal);
  for (const rule of TEXT_RULES) found.push(...matchRule(facts, rule, forms));
  if (options.binary) return keepWorst(found).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  original.forEach((line, i) => {
    const code = invisibleIn(line);
    if (code) found.push(structuralFinding("structural.invisible-unicode", file, i + 1, line));
    if (facts.infos[i].commentStart) {
      found.push(structuralFinding("structural.html-comment", file, i + 1, line));
    }
  });
  return keepWorst(found).sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
