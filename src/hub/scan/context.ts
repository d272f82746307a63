/**
 * The context of a finding ([HUB-4], issue 12), which decides how far its severity may
 * fall — and never lowers what the agent is told or made to run:
 *
 * | context       | where                                                                 | severity      |
 * | ------------- | --------------------------------------------------------------------- | ------------- |
 * | `code`        | scripts, and anything in `SKILL.md` that is not an injection phrase   | full          |
 * | `instruction` | an injection phrase standing as its own sentence, fenced or not       | full (`high` at most outside `SKILL.md`) |
 * | `mention`     | an injection phrase quoted in a sentence that names it, or a table cell | `low` at most |
 * | `detect`      | the argument of a matcher: grep/regex/`case` pattern, deny list, YARA | `low` at most |
 * | `example`     | documentation (not `SKILL.md`, not scripts) of a security document   | `medium` at most |
 *
 * The SPEC's short list (`code`, `example`, `prose`) maps onto these: `code` and
 * `instruction` are its `code`, `example` and `detect` its `example`, `mention` its `prose`.
 *
 * @module
 */
import type { Rule, RuleSeverity } from "../rules.ts";
import type { LineInfo } from "./lines.ts";
import { isMarkdown } from "./lines.ts";
import { type QuoteRegion, quoteRegions, regionsHolding } from "./quotes.ts";

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

const MATCHER_BEFORE = new RegExp(
  [
    String
      .raw`\b(?:grep|egrep|fgrep|zgrep|rg|ag|ack|findstr|Select-String|sed|awk)\b(?:\s+-{1,2}[\w-]+(?:=\S+)?)*\s+(?:-e\s+|--regexp[= ]|-P\s+|-E\s+|-F\s+|-i\s+)?`,
    String
      .raw`\b(?:re\.(?:compile|search|match|fullmatch|findall|finditer|sub|split)|RegExp|Regex|regexp\.MustCompile|regexp\.MatchString|fnmatch(?:\.fnmatch)?|\.(?:match|test|search|matches|contains|includes|startswith|endswith|startsWith|endsWith|indexOf|find|count|has))\s*\(\s*(?:[rbuRBU]{1,2})?`,
    String.raw`=~\s*`,
    String
      .raw`\b\w*(?:block|deny|denied|danger|forbid|reject|detect|unsafe|malicious|suspicious|blacklist|disallow)\w*\s*\(\s*`,
    String.raw`\[\[[^\]]*(?:==|!=)\s*\*?`,
    String.raw`-(?:match|like|cmatch|imatch|notmatch)\s+`,
  ].map((s) => `(?:${s})`).join("|") + "$",
);
const MEMBERSHIP_AFTER = /^\s+(?:not\s+)?in\s+[\w.]+/;
const DENYISH =
  /(block|deny|denied|forbid|\bban|banned|danger|reject|disallow|prohibit|blacklist|suspicious|malicious|pattern|signature|indicator|ioc|rule|regex|detect|matcher|keyword|trigger|injection|attack|unsafe|risky|threat|test_?cases?|samples|fixtures|\|(contains|startswith|endswith|re)\b)/i;
const SAME_LINE_OWNER =
  /^\s*(?:-\s+)?(?:(?:export|const|let|var|readonly|local|static|final|public|private|declare\s+-a)\s+)*["']?([\w.|-]+)["']?\s*[:=]/;
const MENTION_CUE =
  /\b(like|such as|e\.g\.|for example|phrases?|patterns?|payloads?|attempts?|attacks?|injections?|jailbreaks?|rejects?|refuses?|blocks?|blocked|detects?|flags?|filters?|catch(es)?|contains?|containing|suspicious|malicious)\b/i;

/** True when the match sits in a quoted string that some matcher receives as its pattern. */
function isMatcherArgument(
  line: string,
  chain: readonly QuoteRegion[],
  info: LineInfo,
): boolean {
  const owner = SAME_LINE_OWNER.exec(line)?.[1] ?? info.owner;
  let base = 0;
  for (const region of chain) {
    const body = line.slice(region.open + 1, region.close);
    if (region.quote !== "'" && /\$\(|`/.test(body)) return false;
    const before = line.slice(base, region.open);
    const after = line.slice(region.close + 1);
    if (MATCHER_BEFORE.test(before) || MEMBERSHIP_AFTER.test(after)) return true;
    if (info.yara && /^\s*\$\w*\s*=\s*$/.test(before)) return true;
    if (
      info.caseBlock && base === 0 && !/[;]|\)/.test(before.replace(/"[^"]*"|'[^']*'/g, "")) &&
      /^[^;\s]*\)/.test(after.replace(/"[^"]*"|'[^']*'/g, ""))
    ) return true;
    if (owner && DENYISH.test(owner) && /(^|[\[(,{:=]|^\s*-)\s*$/.test(before)) return true;
    base = region.open + 1;
  }
  return false;
}

/** A line that runs what it holds: a pattern on it is never only a pattern. */
const EXEC_SINK =
  /\b(?:eval|exec(?:Sync|File|FileSync|vp?e?)?|system|popen|spawn(?:Sync)?|subprocess\.\w+|child_process|Invoke-Expression|iex)\b\s*[(\s"'`$]|\b(?:sh|bash|zsh|dash)\s+-c\b|\|\s*(?:sudo\s+)?(?:sh|bash|zsh|dash)\b/;

/**
 * True where no label can lower a finding ([HUB-4]: an attacker gains nothing by adding
 * one): the prose of `SKILL.md` (what the agent is told — an inline command there is an
 * instruction, whatever word surrounds it), and any line that also runs something.
 */
function toldOrRun(
  kind: FileKind,
  info: LineInfo,
  line: string,
  chain: readonly QuoteRegion[],
): boolean {
  const prose = kind === "skill" && !info.fenced && !info.indented && !info.table && !info.owner;
  if (prose && chain[0].quote === "`") return true;
  // What the line runs, outside its quoted strings (a pattern that names `| bash` runs nothing).
  const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  return EXEC_SINK.test(code);
}

/** True when the table cell holding `[start, end)` holds little besides it (a list of phrases). */
function phraseCell(line: string, start: number, end: number): boolean {
  const open = line.lastIndexOf("|", start);
  const close = line.indexOf("|", end);
  if (open < 0 || close < 0) return false;
  const cell = line.slice(open + 1, close).replace(/[`"'\u201C\u201D*_\s]/g, "");
  return cell.length <= end - start + 24;
}

/**
 * True when an injection phrase is named, not spoken: quoted in a sentence that says so, or
 * a table cell that holds little else (a cell that goes on to give orders is spoken).
 */
function isMention(
  line: string,
  chain: readonly QuoteRegion[],
  info: LineInfo,
  start: number,
  end: number,
): boolean {
  if (info.table) return phraseCell(line, start, end);
  if (!chain.length) return false;
  const outer = chain[0];
  const outside = (line.slice(0, outer.open) + " " + line.slice(outer.close + 1)).trim();
  return /[\p{L}]{2,}/u.test(outside) && MENTION_CUE.test(outside);
}

/** A finding's context and the most severe it may be there (undefined: no cap). */
export interface ContextResult {
  /** The context. */
  context: FindingContext;
  /** The cap. */
  cap?: RuleSeverity;
  /** Why it is capped, for people. */
  reason?: string;
}

/** The context of a match of `rule` at `[start, end)` of `line` in a file of `kind`. */
export function contextOf(
  rule: Rule,
  kind: FileKind,
  securityDoc: boolean,
  info: LineInfo,
  line: string,
  start: number,
  end: number,
): ContextResult {
  const chain = regionsHolding(quoteRegions(line), start, end);
  if (chain.length && !toldOrRun(kind, info, line, chain) && isMatcherArgument(line, chain, info)) {
    return {
      context: "detect",
      cap: "low",
      reason: "the pattern is what a matcher looks for (grep, regex, case, deny list, YARA)",
    };
  }
  if (rule.category === "prompt_injection" && isMention(line, chain, info, start, end)) {
    return { context: "mention", cap: "low", reason: "the phrase is quoted, not spoken" };
  }
  if (rule.category === "prompt_injection" && kind !== "script") {
    if (kind === "skill") return { context: "instruction" };
    if (securityDoc && (info.fenced || info.comment || info.indented)) {
      return { context: "example", cap: "medium", reason: "an example in a security document" };
    }
    return { context: "instruction", cap: "high", reason: "in documentation, not SKILL.md" };
  }
  if (kind === "doc" && securityDoc) {
    return { context: "example", cap: "medium", reason: "an example in a security document" };
  }
  return { context: "code" };
}
