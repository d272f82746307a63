/**
 * Secrets from the environment sent over the network ([HUB-4], issue 12): an env variable
 * whose name says key, token, secret or password, in the URL, query string, DNS name or a
 * header of `curl`, `wget`, `fetch`, `requests`, `http.client`, `Invoke-WebRequest` and
 * kin. A token sent to its own service (`$GITHUB_TOKEN` to `api.github.com`) is how APIs
 * are used, not exfiltration; a target on loopback is not exfiltration either. Pure.
 *
 * @module
 */
import type { RuleSeverity } from "./severity.ts";

const PART = String
  .raw`(?:KEY|KEYS|TOKEN|TOKENS|SECRET|SECRETS|PASS|PASSWD|PASSWORD|PWD|CRED|CREDS|CREDENTIALS|AUTH|APIKEY|PAT|SESSION|COOKIE)`;
/** An env variable name that holds a secret (`API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`). */
export const SECRET_NAME = String
  .raw`(?:[A-Za-z0-9]{1,64}_){0,8}${PART}(?:_[A-Za-z0-9]{1,64}){0,8}`;

/** A reference to a secret env variable, in shell, PowerShell, Python, JavaScript, Deno, Ruby. */
export const ENV_SECRET = [
  String.raw`\$\{?(${SECRET_NAME})\b\}?`,
  String.raw`\$env:(${SECRET_NAME})\b`,
  String.raw`os\.environ(?:\.get)?\s{0,16}[\[(]\s{0,16}["'](${SECRET_NAME})["']`,
  String.raw`\bgetenv\(\s{0,16}["'](${SECRET_NAME})["']`,
  String.raw`process\.env(?:\.(${SECRET_NAME})\b|\[\s{0,16}["'](${SECRET_NAME})["'])`,
  String.raw`Deno\.env\.get\(\s{0,16}["'](${SECRET_NAME})["']`,
  String.raw`\bENV\[\s{0,16}["'](${SECRET_NAME})["']`,
].join("|");

const ENV_REF = new RegExp(ENV_SECRET, "gi");
const URL_START = /\b(?:https?|wss?|ftp):\/\//gi;
const DNS_TOOL =
  /(?:^\s{0,16}|[;&|(`"']\s{0,16})(?:nslookup|dig|host|drill|ping)\s{1,16}([^;&|\n]{0,256})/gi;
const HEADER =
  /(?:-H\s|--header\b|headers?\s{0,16}[=:]|-Headers\b|setRequestHeader|Authorization|\bX-[\w-]{1,64}\s{0,16}:|Bearer\b|Cookie\s{0,16}:|\s-u\s|--user\b|auth\s{0,16}=)/i;
const PAYLOAD = /(?:\b(?:params|data|json|body|form)\s{0,16}[=:]|-Body\b)/i;
const GENERIC = new Set(
  "api key keys token tokens secret secrets access auth bearer client app my private public user pass password passwd pwd service session cookie cred creds credentials id env prod dev default personal oauth refresh x the apikey pat svc bot account admin"
    .split(" "),
);
const ALIASES: Record<string, string[]> = {
  gh: ["github"],
  hf: ["huggingface", "hf"],
  gemini: ["googleapis", "google"],
  google: ["googleapis", "google"],
  aws: ["amazonaws"],
  azure: ["azure", "microsoft"],
  openai: ["openai"],
  claude: ["anthropic"],
};

/** True for `localhost`, `127.x.x.x`, `::1`, `0.0.0.0`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(h) ||
    h === "::1" || h === "0.0.0.0";
}

/** The hosts a line talks to: URLs, `/dev/tcp/HOST/`, `nc HOST PORT`. */
export function hostsOf(line: string): string[] {
  const hosts: string[] = [];
  for (
    const m of line.matchAll(
      /\b(?:https?|wss?|ftp|tcp|udp):\/\/(\[[^\]\s]{1,64}\]|[^\/\s"'`:?#<>]{1,256})/gi,
    )
  ) {
    hosts.push(m[1]);
  }
  for (const m of line.matchAll(/\/dev\/(?:tcp|udp)\/([\w.-]{1,256})\//g)) hosts.push(m[1]);
  for (
    const m of line.matchAll(
      /\b(?:nc|ncat|netcat|telnet)\s{1,16}(?:-\S{1,32}\s{1,16}){0,8}([\w.-]{1,256})\s{1,16}\d/g,
    )
  ) {
    hosts.push(m[1]);
  }
  return hosts;
}

interface UrlToken {
  start: number;
  end: number;
  host: string;
  /** An `HTTPSConnection("host"…)`: it holds the rest of the line. */
  conn?: boolean;
}

/** How far a URL is looked along for its end (a longer one runs to the end of the line). */
const URL_WINDOW = 4096;

/** The URLs of a line; a quoted URL runs to its closing quote (so `{os.environ[...]}` is inside). */
function urlTokens(line: string): UrlToken[] {
  const out: UrlToken[] = [];
  for (const m of line.matchAll(URL_START)) {
    const start = m.index!;
    const quote = line[start - 1];
    let end: number;
    if (quote === '"' || quote === "'" || quote === "`") {
      end = line.indexOf(quote, start);
      if (end < 0) end = line.length;
    } else {
      const stop = /[\s"'<>)]/.exec(line.slice(start, start + URL_WINDOW));
      end = stop ? start + stop.index : line.length;
    }
    const rest = line.slice(end + 1);
    const concat = /^\s{0,16}(?:\+|\.\.|%|\.)\s{0,16}/.exec(rest);
    if (concat && (quote === '"' || quote === "'" || quote === "`")) {
      const next = /[\s,;)]/.exec(rest.slice(concat[0].length, concat[0].length + URL_WINDOW));
      end = end + 1 + concat[0].length + (next ? next.index : rest.length);
    }
    const authority = /^[a-z]{1,8}:\/\/(\[[^\]\s]{1,64}\]|[^\/\s"'`?#<>]{0,256})/i.exec(
      line.slice(start, start + 300),
    )?.[1] ??
      "";
    // The host is what follows any `user:password@` (`https://api.github.com@evil.example/`).
    const host = authority.slice(authority.lastIndexOf("@") + 1).replace(/:\d*$/, "");
    out.push({ start, end, host });
  }
  const conn = /\bHTTPS?Connection\(\s{0,16}["']([^"'\/:]{1,256})/.exec(line);
  if (conn) out.push({ start: conn.index, end: line.length, host: conn[1], conn: true });
  return out;
}

/** A host written out (not taken from a variable or a template). */
function literalHost(host: string): boolean {
  return /^[\w.-]+$/.test(host) || isLoopback(host);
}

/** True when a word of the variable's name (or its alias) is a label of the host. */
function vendorMatches(name: string, host: string): boolean {
  // Only the registrable part counts: `api.github.com.evil.example.com` is example.com's.
  const parts = host.toLowerCase().split(".");
  const labels = new Set(parts.slice(-2).flatMap((p) => p.split("-")));
  const words = name.toLowerCase().split("_").filter((w) => w && !GENERIC.has(w));
  return words.some((w) => labels.has(w) || (ALIASES[w] ?? []).some((a) => labels.has(a)));
}

/** How a secret-in-request match is judged: a severity and a reason, or null (not a finding). */
export interface SecretJudgement {
  /** The severity this match has. */
  severity: RuleSeverity;
  /** Why, for people. */
  reason: string;
}

/** The first of `spans` (sorted by start) that holds `at`, for `at` that only grows. */
function sweeper<T extends { start: number; end: number }>(spans: readonly T[]) {
  let k = 0;
  return (at: number): T | undefined => {
    while (k < spans.length && spans[k].end <= at) k++;
    return k < spans.length && spans[k].start <= at ? spans[k] : undefined;
  };
}

/** Where the first match of `re` on the line ends (a prefix ending at or after it holds one). */
function firstEnd(re: RegExp, line: string): number {
  const m = re.exec(line);
  return m ? m.index + m[0].length : Infinity;
}

/** The first of the hosts a request names that `name` does not belong to (at most 64 looked at). */
function foreignHost(name: string, hosts: readonly string[]): string | undefined {
  const checked = hosts.slice(0, 64);
  const foreign = checked.find((h) => !isLoopback(h) && !vendorMatches(name, h));
  // Past 64 hosts on one line, the rest count as foreign: a long line buys no pass.
  return foreign ?? (hosts.length > checked.length ? hosts[checked.length] : undefined);
}

/** Judges every secret env reference on a line that also makes a request. */
export function judgeSecretRequest(line: string): SecretJudgement | null {
  const urls = urlTokens(line);
  const inUrl = sweeper(urls.filter((u) => !u.conn).sort((a, b) => a.start - b.start));
  const conn = urls.find((u) => u.conn);
  const inDns = sweeper([...line.matchAll(DNS_TOOL)].map((m) => ({
    start: m.index! + m[0].indexOf(m[1]),
    end: m.index! + m[0].length,
  })));
  const header = firstEnd(HEADER, line);
  const payload = firstEnd(PAYLOAD, line);
  const hosts = [...new Set(urls.map((u) => u.host).filter(literalHost))];
  const order: RuleSeverity[] = ["low", "medium", "high", "critical"];
  let best: SecretJudgement | null = null;
  const consider = (j: SecretJudgement) => {
    if (!best || order.indexOf(j.severity) > order.indexOf(best.severity)) best = j;
  };
  for (const m of line.matchAll(ENV_REF)) {
    const name = m.slice(1).find((g) => g) ?? "";
    const at = m.index!;
    const url = inUrl(at) ?? (conn && conn.start <= at ? conn : undefined);
    if (inDns(at)) {
      consider({ severity: "critical", reason: `${name} is put into a DNS name` });
    } else if (url) {
      const judged = judgeInUrl(name, url.host);
      if (judged) consider(judged);
    } else if (header <= at || payload <= at) {
      const where = header <= at ? "a header" : "the request";
      const vendor = name.toLowerCase().split("_").some((w) => w && !GENERIC.has(w));
      if (!hosts.length && vendor && where === "a header") {
        consider({ severity: "high", reason: `${name} is sent in a header to a host not fixed` });
      }
      const foreign = foreignHost(name, hosts);
      if (foreign === undefined) continue;
      consider({
        severity: vendor ? "critical" : "high",
        reason: `${name} is sent in ${where} to ${foreign}`,
      });
    }
  }
  return best;
}

/** How a secret put into a URL to `host` is judged (loopback, a host not fixed, another vendor). */
function judgeInUrl(name: string, host: string): SecretJudgement | null {
  if (isLoopback(host)) return { severity: "low", reason: `${name} goes to loopback (${host})` };
  if (!literalHost(host)) {
    return { severity: "high", reason: `${name} is put into a URL whose host is not fixed` };
  }
  if (!vendorMatches(name, host)) {
    return { severity: "critical", reason: `${name} is put into a URL to ${host}` };
  }
  return null;
}
