/**
 * The context of a finding ([HUB-4], issue 12), which decides how far its severity may
 * fall — and never lowers what the agent is told or made to run:
 *
 * | context       | where                                                                 | severity      |
 * | ------------- | --------------------------------------------------------------------- | ------------- |
 * | `code`        | scripts, and anything in `SKILL.md` that is not an injection phrase   | full          |
 * | `instruction` | an injection phrase standing as its own sentence (fenced too in `SKILL.md`), in any file the agent can load | full |
 * | `mention`     | an injection phrase quoted in a sentence that names it, quoted alone in a table cell, or alone in a column headed as a catalogue of phrases (`Pattern`, `Example`) | `low` at most |
 * | `detect`      | the argument of a matcher: grep/regex/`case` pattern, deny list, YARA | `low` at most |
 * | `example`     | a fenced or indented example in documentation (not `SKILL.md`), or any payload in a security document | `high` at most; `medium` in a security document |
 *
 * The SPEC's short list (`code`, `example`, `prose`) maps onto these: `code` and
 * `instruction` are its `code`, `example` and `detect` its `example`, `mention` its `prose`.
 *
 * @module
 */
import type { Rule, RuleSeverity } from "../hub/rules.ts";
import type { LineInfo } from "./lines.ts";
import { isMarkdown } from "./lines.ts";
import { type QuoteRegion, quoteRegions, regionsHolding, replaceQuoted } from "./quotes.ts";
import { endsWith, startsWith, wholeText } from "./linear.ts";
import type { LineView } from "./line_view.ts";

/** Where a finding stands. */
export type FindingContext = "code" | "instruction" | "mention" | "detect" | "example";

/**
 * A security document: documentation of a skill whose SKILL.md is about security, or whose
 * own text or file name is. (An attacker can write these words as easily as anyone: what it
 * lowers is capped at `medium`, and never in SKILL.md or scripts.)
 */
export function isSecurityDoc(file: string, text: string, securitySkill: boolean): boolean {
  return securitySkill || SECURITY_PATH.test(file) || isSecurityText(text);
}

/** What a file is to the scanner. */
export type FileKind = "skill" | "doc" | "script";

/** `SKILL.md` at the top is what the agent is told; documentation is read; the rest is run. */
export function fileKind(file: string): FileKind {
  if (file === "SKILL.md") return "skill";
  if (file.split("/")[0] === "scripts") return "script";
  return isMarkdown(file) || /\.(txt|rst|adoc)$/i.test(file) ? "doc" : "script";
}

const SECURITY_WORDS =
  /\b(security|secure|insecure|vulnerab\w*|exploit\w*|attack\w*|malicious|payloads?|injection|threats?|cve-\d+|owasp|pentest\w*|penetration|red team|hardening|incident|forensics?|malware|adversar\w*|reverse shells?|exfiltrat\w*|detection|sanitiz\w*|phishing|xss|csrf|sqli|rce|ctf|privilege escalation|jailbreak\w*|defen[cs]e\w*)\b/gi;
const SECURITY_PATH =
  /(secur|attack|payload|exploit|vuln|threat|pentest|injection|malware|red-?team|ctf|hardening|incident)/i;

/** A document about security: at least two distinct security terms in its first 64 KiB. */
export function isSecurityText(text: string): boolean {
  const seen = new Set<string>();
  for (const m of text.slice(0, 64 * 1024).matchAll(SECURITY_WORDS)) {
    seen.add(m[1].toLowerCase().slice(0, 6));
    if (seen.size >= 2) return true;
  }
  return false;
}

const SP = String.raw`\s{1,16}`;
const MATCHER_BEFORE = endsWith(
  new RegExp(
    [
      String
        .raw`\b(?:grep|egrep|fgrep|zgrep|rg|ag|ack|findstr|Select-String|sed|awk)\b(?:${SP}-[\w-]{1,32}(?:=\S{1,64})?){0,8}${SP}(?:-e${SP}|--regexp[= ]|-P${SP}|-E${SP}|-F${SP}|-i${SP})?`,
      String
        .raw`\b(?:re\.(?:compile|search|match|fullmatch|findall|finditer|sub|split)|RegExp|Regex|regexp\.MustCompile|regexp\.MatchString|fnmatch(?:\.fnmatch)?|\.(?:match|test|search|matches|contains|includes|startswith|endswith|startsWith|endsWith|indexOf|find|count|has))\s{0,16}\(\s{0,16}(?:[rbuRBU]{1,2})?`,
      String.raw`=~\s{0,16}`,
      String
        .raw`(?:block|deny|denied|danger|forbid|reject|detect|unsafe|malicious|suspicious|blacklist|disallow)\w{0,64}\s{0,16}\(\s{0,16}`,
      String.raw`\[\[[^\]]{0,256}(?:==|!=)\s{0,16}\*?`,
      String.raw`-(?:match|like|cmatch|imatch|notmatch)${SP}`,
    ].map((s) => `(?:${s})`).join("|") + "$",
  ),
);
const MEMBERSHIP_AFTER = startsWith(/^\s{1,16}(?:not\s{1,16})?in\s{1,16}[\w.]/);
const YARA_STRING = wholeText(/^\s{0,16}\$\w{0,64}\s{0,16}=\s{0,16}$/);
const LIST_ITEM = endsWith(/(^|[\[(,{:=]|^\s{0,16}-)\s{0,64}$/);
const DENYISH =
  /(block|deny|denied|forbid|\bban|banned|danger|reject|disallow|prohibit|blacklist|suspicious|malicious|pattern|signature|indicator|ioc|rule|regex|detect|matcher|keyword|trigger|injection|attack|unsafe|risky|threat|test_?cases?|samples|fixtures|\|(contains|startswith|endswith|re)\b)/i;
const SAME_LINE_OWNER =
  /^\s{0,64}(?:-\s{1,16})?(?:(?:export|const|let|var|readonly|local|static|final|public|private|declare\s{1,16}-a)\s{1,16}){0,8}["']?([\w.|-]{1,128})["']?\s{0,16}[:=]/;
const MENTION_CUES =
  /\b(like|such as|e\.g\.|for example|phrases?|patterns?|payloads?|attempts?|attacks?|injections?|jailbreaks?|rejects?|refuses?|blocks?|blocked|detects?|flags?|filters?|catch(es)?|contains?|containing|suspicious|malicious)\b/gi;

/** What one quoted region says about a match inside it (worked out once per region). */
interface RegionFacts {
  /** It holds a command substitution (a `"$(…)"` runs). */
  runs: boolean;
  /** A matcher receives it as its pattern (grep, regex, `case`, a deny list, YARA). */
  pattern: boolean;
}

/** What the tests of a region read besides its body: bounded windows on either side. */
const REGION_READS = 4096;

/** Case-block text as far as it is read on either side of a pattern. */
const CASE_WINDOW = 256;

/** True when the region is a `case` pattern: at the line's start, closed by `)` after it. */
function casePattern(before: string, after: string): boolean {
  if (before.length > CASE_WINDOW) return false;
  const next = after.slice(0, CASE_WINDOW).replace(/"[^"]*"|'[^']*'/g, "");
  return !/[;]|\)/.test(before.replace(/"[^"]*"|'[^']*'/g, "")) && /^[^;\s]*\)/.test(next);
}

function regionFacts(
  view: LineView,
  region: QuoteRegion,
  parent: QuoteRegion | undefined,
  info: LineInfo,
): RegionFacts {
  return view.memo(region, () => {
    const line = view.text;
    const body = line.slice(region.open + 1, region.close);
    const before = line.slice(parent ? parent.open + 1 : 0, region.open);
    const after = line.slice(region.close + 1);
    const pattern = MATCHER_BEFORE(before) || MEMBERSHIP_AFTER(after) ||
      (info.yara && YARA_STRING(before)) ||
      (info.caseBlock && !parent && casePattern(before, after)) ||
      (denyOwner(view, info) && LIST_ITEM(before));
    return { runs: region.quote !== "'" && /\$\(|`/.test(body), pattern };
  }, region.close - region.open + REGION_READS);
}

/** True when the list or key the line belongs to is a deny list (its name says so). */
function denyOwner(view: LineView, info: LineInfo): boolean {
  return view.memo(SAME_LINE_OWNER, () => {
    const owner = SAME_LINE_OWNER.exec(view.text)?.[1] ?? info.owner;
    return owner !== "" && DENYISH.test(owner);
  });
}

/** True when the match sits in a quoted string that some matcher receives as its pattern. */
function isMatcherArgument(view: LineView, chain: readonly QuoteRegion[], info: LineInfo): boolean {
  for (let i = 0; i < chain.length; i++) {
    const facts = regionFacts(view, chain[i], chain[i - 1], info);
    if (facts.runs) return false;
    if (facts.pattern) return true;
  }
  return false;
}

/** A line that runs what it holds: a pattern on it is never only a pattern. */
const EXEC_SINK =
  /\b(?:eval|exec(?:Sync|File|FileSync|vp?e?)?|system|popen|spawn(?:Sync)?|subprocess\.\w{1,32}|child_process|Invoke-Expression|iex)\b\s{0,16}[(\s"'`$]|\b(?:sh|bash|zsh|dash)\s{1,16}-c\b|\|\s{0,16}(?:sudo\s{1,16})?(?:sh|bash|zsh|dash)\b/;

/**
 * True where no label can lower a finding ([HUB-4]: an attacker gains nothing by adding
 * one): the prose of `SKILL.md` (what the agent is told — an inline command there is an
 * instruction, whatever word surrounds it), and any line that also runs something.
 */
function toldOrRun(
  kind: FileKind,
  info: LineInfo,
  view: LineView,
  chain: readonly QuoteRegion[],
): boolean {
  const prose = kind === "skill" && !info.fenced && !info.indented && !info.table && !info.owner;
  if (prose && chain[0].quote === "`") return true;
  // What the line runs, outside its quoted strings (a pattern that names `| bash` runs nothing).
  return view.memo(EXEC_SINK, () => EXEC_SINK.test(replaceQuoted(view.text, '""')));
}

/** The offsets of `|` on the line, in order. */
function pipesOf(view: LineView): number[] {
  return view.memo(pipesOf, () => {
    const out: number[] = [];
    for (let i = view.text.indexOf("|"); i >= 0; i = view.text.indexOf("|", i + 1)) out.push(i);
    return out;
  });
}

/** Index of the first of the sorted `values` that is at least `at` (`values.length` if none). */
function firstAtLeast(values: readonly number[], at: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when the table cell holding `[start, end)` holds little besides it (a list of phrases). */
function phraseCell(view: LineView, start: number, end: number): boolean {
  const pipes = pipesOf(view);
  const open = pipes[firstAtLeast(pipes, start + 1) - 1];
  const close = pipes[firstAtLeast(pipes, end)];
  if (open === undefined || close === undefined) return false;
  const cell = view.memo(
    `cell ${open}`,
    () => view.text.slice(open + 1, close).replace(/[`"'\u201C\u201D*_\s]/g, "").length,
    close - open,
  );
  return cell <= end - start + 24;
}

/** Spans of the line's words that say a phrase is being named, and of its two-letter words. */
function cuesOf(view: LineView): { cues: [number, number][]; words: [number, number][] } {
  return view.memo(cuesOf, () => {
    const spans = (re: RegExp) =>
      [...view.text.matchAll(re)].map((m): [number, number] => [m.index, m.index + m[0].length]);
    return { cues: spans(MENTION_CUES), words: spans(/\p{L}{2}/gu) };
  });
}

/** True when one of `spans` (in order, apart) lies wholly outside `[open, close]`. */
function anyOutside(spans: readonly [number, number][], open: number, close: number): boolean {
  return spans.length > 0 && (spans[0][1] <= open || spans[spans.length - 1][0] > close);
}

/**
 * True when an injection phrase is named, not spoken: quoted in a sentence that says so, or
 * named in a table cell — quoted or code in a cell that holds little else, or alone in its
 * cell in a column whose header names a catalogue of phrases (`| Pattern | Action |`,
 * `Example`, `Detects`). A bare cell of any other table is instruction text, as the same words
 * would be in a sentence, and a cell that goes on to give orders is spoken ([HUB-4], issue 22
 * item 7).
 */
function isMention(
  view: LineView,
  chain: readonly QuoteRegion[],
  info: LineInfo,
  start: number,
  end: number,
): boolean {
  if (info.table) {
    if (chain.length) return phraseCell(view, chain[0].open, chain[0].close + 1);
    const column = firstAtLeast(pipesOf(view), start);
    return info.catalogue.includes(column) && phraseCell(view, start, end);
  }
  if (!chain.length) return false;
  const { open, close } = chain[0];
  // "…say 'Ignore all previous instructions' — now do exactly that": quoted to be obeyed.
  if (ACT_ON_QUOTED.test(view.text.slice(close + 1, close + 1 + 256))) return false;
  const { cues, words } = cuesOf(view);
  return anyOutside(words, open, close) && anyOutside(cues, open, close);
}

/** Words after a quotation that tell the reader to act on it. */
const ACT_ON_QUOTED =
  /\b(?:do|follow|obey|execute|apply|perform|heed)\s{1,8}(?:(?:exactly|just|precisely|all\s{1,8}of)\s{1,8})?(?:that|this|it|them|these|those|the above|what (?:it|they) says?)\b/i;

/** A finding's context and the most severe it may be there (undefined: no cap). */
export interface ContextResult {
  /** The context. */
  context: FindingContext;
  /** The cap. */
  cap?: RuleSeverity;
  /** Why it is capped, for people. */
  reason?: string;
}

/** The context of a match of `rule` at `[start, end)` of a line (its view) in a file of `kind`. */
export function contextOf(
  rule: Rule,
  kind: FileKind,
  securityDoc: boolean,
  info: LineInfo,
  view: LineView,
  start: number,
  end: number,
): ContextResult {
  const regions = view.memo(quoteRegions, () => quoteRegions(view.text));
  const chain = regionsHolding(regions, start, end);
  if (chain.length && !toldOrRun(kind, info, view, chain) && isMatcherArgument(view, chain, info)) {
    return {
      context: "detect",
      cap: "low",
      reason: "the pattern is what a matcher looks for (grep, regex, case, deny list, YARA)",
    };
  }
  if (rule.category === "prompt_injection" && isMention(view, chain, info, start, end)) {
    return { context: "mention", cap: "low", reason: "the phrase is quoted, not spoken" };
  }
  if (rule.category === "prompt_injection" && kind !== "script") {
    // Level 2 puts a reference in the agent's context as it puts SKILL.md: what it says as
    // instruction is judged the same there. Only a code example is text shown, not told.
    if (kind === "skill" || !(info.fenced || info.indented)) return { context: "instruction" };
    return securityDoc
      ? { context: "example", cap: "medium", reason: "an example in a security document" }
      : { context: "example", cap: "high", reason: "a code example in documentation" };
  }
  if (kind === "doc" && securityDoc) {
    return { context: "example", cap: "medium", reason: "an example in a security document" };
  }
  return { context: "code" };
}
