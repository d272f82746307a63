/**
 * The guard scanner's rules ([HUB-4]): a policy table of id, category, severity,
 * description and pattern, one rule a line. Pure data; `scanner.ts` applies it.
 *
 * @module
 */
import type { RuleSeverity } from "../scanner/severity.ts";
import { ENV_SECRET, judgeSecretRequest } from "../scanner/secrets.ts";
import { assertBounded, gap, seq } from "../scanner/linear.ts";
import { PROMPT_INJECTION } from "../scanner/injection.ts";

export type { Sequence } from "../scanner/linear.ts";

export type { Judge, Pattern, Row, Rule, RuleCategory, RuleSeverity } from "../scanner/rule.ts";
import type { Row, Rule, RuleCategory } from "../scanner/rule.ts";

/** Placeholder values that are not secrets: words that say so, or an env variable's own name. */
const PLACEHOLDER =
  /["'][^"']{0,256}(test|example|changeme|change[_-]me|placeholder|your[_-]|dummy|fake|sample|hashed|redacted|xxxx|<[\w-]{1,64}>|secret-api-key|[_-]here\b|generate|replace[_-]?(me|with|this)|insert|todo|fixme|\.\.\.|\*{3})[^"']{0,256}["']|["'](\$\{?)?[A-Z][A-Z0-9]{0,64}(_[A-Z0-9]{1,64}){1,8}\}?["']/i;

/** Options of a command: `-x`, `--long`, each followed by space (at most eight). */
const OPTS = String.raw`(?:(?:-[a-zA-Z]{1,32}|--[a-z-]{1,32})\s{1,16}){0,8}`;
const RM = String
  .raw`\brm\s{1,16}${OPTS}(?:-[a-zA-Z]{0,32}[rR][a-zA-Z]{0,32}|--recursive)\s{1,16}${OPTS}`;
const ROOT = String
  .raw`["']?(?:\/|\/\*|~\/?|~\/\*|\$\{?HOME\}?\/?|\$\{?HOME\}?\/\*)["']?(?=[\s;&|"'\x60)]|$)`;
const SECRET_FILE = String.raw`\.ssh\/|\.aws\/|\.env\b|\bid_[a-z0-9]{1,64}\b`;
const SH = String.raw`\|\s{0,16}(?:sudo\s{1,16})?`;

/** Sending secrets, keys or data elsewhere. */
// deno-fmt-ignore
const EXFILTRATION: Row[] = [
  ["exfiltration.curl-post-secrets", "critical", "Sends secrets, keys or .env files with curl or wget", seq(/\b(curl|wget)\b/i, /(-d|--data(-binary|-raw|-urlencode)?|-F|--form|--upload-file|--post-file|--post-data|--body-data|--body-file|-T)/i, /(\$\{?\w{0,256}(KEY|TOKEN|SECRET|PASS)|\.env\b|id_[a-z0-9]{1,64}\b|\.ssh\/|\.aws\/|\/etc\/(passwd|shadow)\b)/i)],
  ["exfiltration.command-in-request", "critical", "Puts the environment or a secret file's content into a request", [seq(/\b(curl|wget|nslookup|dig)\b/, /(\$\(|`)\s{0,16}(env|printenv|set)/), seq(/\b(curl|wget|nslookup|dig)\b/, /(\$\(|`)\s{0,16}cat\s/, gap(")`"), new RegExp(`(${SECRET_FILE}|\\/etc\\/(passwd|shadow)\\b)`))]],
  ["exfiltration.copy-secret-remote", "critical", "Copies key or credential files to another machine", seq(/\b(scp|rsync|sftp)\b/, /(\.ssh\/|\.aws\/|\.env\b|\bid_[a-z0-9]{1,64}\b|\.kube\/config)/, /\s(?:[\w.-]{1,256}@[\w.-]{1,256}|[\w.-]{2,256}):/)],
  ["exfiltration.secret-request", "critical", "Puts a secret env variable into the URL, query, DNS name or a header of a request to another host", seq(/(?:\b(?:curl|wget|xh|httpie|fetch|requests|httpx|http\.client|HTTPS?Connection|urlopen|urllib|axios|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|nslookup|dig|drill)\b|https?:\/\/)/i, new RegExp(`(?:${ENV_SECRET})`, "i")), { judge: judgeSecretRequest }],
  ["exfiltration.pipe-secret-file", "critical", "Pipes or redirects key or credential files to a network tool", [seq(/(\.ssh\b|\.aws\/credentials|\.env\b|\bid_rsa\b|\/etc\/shadow|\.netrc\b|\.kube\/config)/, gap("|"), /\|\s{0,16}(base64\s{0,16}\|\s{0,16}|gzip\s{0,16}\|\s{0,16})?(curl|wget|nc|ncat|netcat|socat)\b/), seq(/\b(nc|ncat|netcat|socat|telnet)\b/, /<\s{0,16}\S{0,256}(\.ssh\/|\.aws\/|\.env\b|\bid_[a-z0-9]{1,64}\b|\/etc\/shadow)/)]],
  ["exfiltration.file-upload-code", "critical", "Uploads key or credential files from code", seq(/\b(requests\.(post|put)|httpx\.(post|put)|axios\.(post|put)|fetch|urlopen|UploadFile|Invoke-RestMethod)\b/, /(\.ssh\/|\.aws\/credentials|\bid_rsa\b|\/etc\/shadow|\.env["'])/)],
  ["exfiltration.env-pipe", "critical", "Pipes the environment to a network tool", /\b(env|printenv)\s{0,16}\|\s{0,16}(base64\s{0,16}\|\s{0,16})?(curl|wget|nc|ncat|netcat)\b/],
  ["exfiltration.ssh-keys", "high", "Reads SSH private keys or authorized_keys", /(~|\$\{?HOME\}?|\/home\/[^/\s]{1,64}|\/root|\/Users\/[^/\s]{1,64})\/\.ssh\/((?![\w*?\[\]{}.-]{0,128}\.pub\b)id_[\w*?\[\]{}.-]{0,128}|\*|authorized_keys\b|identity\b)/, { notAfter: /(\bssh-keygen\b[^;&|\n]{0,200}\s-f\s{0,16}["']?|\bIdentityFile\s{1,16}["']?|\bssh\b[^;&|\n]{0,200}\s-i\s{0,16}["']?|\bssh-add\s{1,16}(-\S{1,32}\s{1,16}){0,8}["']?|\bchmod\s{1,16}[0-7]{3,4}\s{1,16}["']?)$/ }],
  ["exfiltration.cloud-credentials", "high", "Reads cloud credential files", /\.(aws\/credentials|config\/gcloud|azure\/accessTokens)/],
  ["exfiltration.browser-data", "high", "Reads browser cookie or password stores", /(Login Data|Cookies\.sqlite|\.mozilla\/firefox\/|Chrome\/User Data|Library\/Keychains)/],
  ["exfiltration.dns-tunnel", "critical", "Encodes data into DNS lookups", /\b(nslookup|dig|host|drill)\s{1,16}([-+]\S{1,64}\s{1,16}){0,8}["']?[\w.-]{0,256}(\$\(|`)/, { onlyAfter: /(?:^|[;&|(`"'{]|\$\()\s{0,16}(?:sudo\s{1,16})?$/ }],
  ["exfiltration.webhook", "high", "Posts to chat webhooks often used to collect stolen data", /(discord(app)?\.com\/api\/webhooks|hooks\.slack\.com\/services|api\.telegram\.org\/bot)/i],
  ["exfiltration.paste-sites", "medium", "Uploads to anonymous paste or file-drop sites", /\b(pastebin\.com\/api|transfer\.sh|0x0\.st|file\.io|termbin\.com)\b/i],
];

/** Deleting or overwriting what cannot be got back. */
// deno-fmt-ignore
const DESTRUCTIVE: Row[] = [
  ["destructive.rm-rf-root", "critical", "Deletes the root or home folder recursively", new RegExp(RM + String.raw`(?:--no-preserve-root\s{1,16})?` + ROOT)],
  ["destructive.rm-argv", "critical", "Deletes the root or home folder recursively (argument list)", /["']rm["']\s{0,16},\s{0,16}(["']-[\w-]{0,32}["']\s{0,16},\s{0,16}){0,8}["'](-[a-zA-Z]{0,32}[rR][a-zA-Z]{0,32}|--recursive)["']\s{0,16},\s{0,16}(["']-[\w-]{0,32}["']\s{0,16},\s{0,16}){0,8}["'](\/|~|\/\*|~\/)["']/],
  ["destructive.rmtree-root", "critical", "Removes the root or home folder from code", /\b(shutil\.rmtree|rmSync|rmdirSync|Deno\.remove|fs\.rm|Remove-Item)\b\s{0,16}\(?\s{0,16}(["'](\/|~\/?|\/\*|C:\\\\?)["']|os\.path\.expanduser\(\s{0,16}["']~\/?["']\s{0,16}\)|Path\.home\(\)|os\.homedir\(\)|os\.environ\[["']HOME["']\]|\$HOME|\$env:USERPROFILE)/],
  ["destructive.rm-rf-variable", "high", "Deletes a folder named only by a variable (an empty variable is a disaster)", /\brm\s{1,16}-[a-zA-Z]{0,32}[rR][a-zA-Z]{0,32}\s{1,16}"?\$\{?\w{1,64}\}?\/?\*?"?(?=[\s;&|'`)]|$)/],
  ["destructive.mkfs", "critical", "Formats a file system", /\bmkfs(\.\w{1,32})?\s/],
  ["destructive.dd-device", "critical", "Writes raw data over a disk device", seq(/\bdd\b/, /\bof=\/dev\/(sd|nvme|hd|disk|mmcblk)/)],
  ["destructive.fork-bomb", "critical", "A shell fork bomb", /:\(\)\s{0,16}\{\s{0,16}:\s{0,16}\|\s{0,16}:\s{0,16}&\s{0,16}\}\s{0,16};\s{0,16}:/],
  ["destructive.force-push-main", "medium", "Force-pushes a main branch", seq(/\bgit\s{1,16}push\b/, /(--force\b|\s-f\b)/, /\b(main|master)\b/)],
  ["destructive.drop-database", "high", "Drops a database or schema", /\bDROP\s{1,16}(DATABASE|SCHEMA)\b/i],
  ["destructive.chmod-777-root", "high", "Makes the whole file system world-writable", /\bchmod\s{1,16}-R\s{1,16}0?777\s{1,16}\/(\s|$)/],
  ["destructive.shred-device", "high", "Shreds a device", seq(/\bshred\b/, /\/dev\//)],
];

/** Staying on the machine after the skill is done. */
// deno-fmt-ignore
const PERSISTENCE: Row[] = [
  ["persistence.crontab", "high", "Installs a cron job", /(\bcrontab\s{1,16}-e\b|\(crontab -l|\bcrontab\s{1,16}[^\s-]|\/etc\/cron\.(d|daily|hourly))/],
  ["persistence.shell-rc", "high", "Appends to a shell start-up file", />>\s{0,16}("?(~|\$HOME)\/)?\.(bashrc|zshrc|profile|bash_profile|zprofile)\b/],
  ["persistence.systemd", "medium", "Installs or enables a system service", /(\bsystemctl\s{1,16}(--user\s{1,16})?enable\b|\/etc\/systemd\/system\/)/],
  ["persistence.launchd", "medium", "Installs a macOS launch agent", /\bLaunch(Agents|Daemons)\//],
  ["persistence.authorized-keys", "critical", "Adds an SSH key to authorized_keys", seq(/>/, /authorized_keys\b/)],
  ["persistence.git-hooks", "medium", "Writes git hooks that run on every commit", /\.git\/hooks\/(pre|post)-/],
];

/** Shells over the network, downloads piped into interpreters, odd hosts. */
// deno-fmt-ignore
const NETWORK: Row[] = [
  ["network.reverse-shell", "critical", "Opens a reverse shell", [seq(/\b(ba)?sh\s{1,16}-i\s/i, /\/dev\/(tcp|udp)\//i), seq(/\/dev\/(tcp|udp)\/[\w.-]{1,256}\/\d{1,8}/i, /(0>&1|<&|>&)/), seq(/\bos\.dup2\(/i, /fileno\(\)/i), /\bpty\.spawn\(\s{0,16}["']\/bin\/(ba)?sh/i, seq(/\bmkfifo\b/i, /\|\s{0,16}(nc|ncat|netcat)\b/i), seq(/\bsocat\b/i, /\bexec:/i, /\b(ba)?sh\b/i), /Net\.Sockets\.TCPClient\(/i]],
  ["network.netcat-exec", "critical", "Runs a shell over netcat", seq(/\b(nc|ncat|netcat)\b/, /\s-(e|c)\s/)],
  ["network.listener", "high", "Opens a listening socket", /\b(nc|ncat|netcat)\s{1,16}-[a-zA-Z]{0,32}l/],
  ["network.curl-pipe-shell", "high", "Pipes a download straight into a shell or interpreter", [seq(/\b(curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/i, gap("|"), new RegExp(`${SH}((ba|z|da|k)?sh|python3?|perl|ruby|node|iex)\\b`, "i")), /\b(ba|z)?sh\s{1,16}(-c\s{1,16})?["']?(<\(|\$\()\s{0,16}(curl|wget)\b/i]],
  ["network.raw-ip", "medium", "Talks to a raw IP address instead of a host name", /\bhttps?:\/\/\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?\//],
  ["network.tunnel", "medium", "Exposes the machine through a tunnel service", /\b(ngrok|localtunnel|serveo\.net|cloudflared tunnel)\b/i],
];

const B64D = /\bbase64\s{1,16}(-d|--decode|-D)\b/;

/** Hiding what runs. */
// deno-fmt-ignore
const OBFUSCATION: Row[] = [
  ["obfuscation.base64-shell", "critical", "Decodes base64 into a shell", [seq(B64D, new RegExp(`${SH}((ba|z|da)?sh|python3?|perl)\\b`)), seq(/\beval\b/, B64D), seq(/\b(ba|z)?sh\s{1,16}-c\s{1,16}["']?\$\(/, B64D)]],
  ["obfuscation.eval-decode", "high", "Evaluates decoded data", /\beval\s{0,16}\(\s{0,16}(atob|base64_decode|Buffer\.from|unescape)\s{0,16}\(/],
  ["obfuscation.exec-decode", "high", "Executes decoded Python code", seq(/\bexec\s{0,16}\(/, /(b64decode|codecs\.decode|\.decode\()/)],
  ["obfuscation.hex-escapes", "medium", "Long runs of hex escapes", /(\\x[0-9a-fA-F]{2}){12}/],
  ["obfuscation.long-base64", "medium", "A long base64 blob", /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{240}/],
  ["obfuscation.char-codes", "medium", "Builds strings from character codes", /String\.fromCharCode\((\s{0,16}\d{1,8}\s{0,16},){10}/],
];

/** Running code in risky ways. */
// deno-fmt-ignore
const EXECUTION: Row[] = [
  ["execution.eval-input", "high", "Evaluates untrusted input", /\beval\s{0,16}\(\s{0,16}(input|request|req\.|process\.argv|sys\.argv|params)/],
  ["execution.shell-true", "medium", "Runs subprocesses through a shell", seq(/\bsubprocess\.(call|run|Popen|check_output)\(/, /shell\s{0,16}=\s{0,16}True/)],
  ["execution.os-system", "low", "Runs commands with os.system", /\bos\.system\s{0,16}\(/],
  ["execution.child-process", "low", "Runs commands with child_process", [seq(/\bchild_process\b/, /\bexec(Sync)?\b/), /\bexecSync\s{0,16}\(/]],
  ["execution.pickle", "medium", "Unpickles data (runs code)", /\bpickle\.loads?\s{0,16}\(/],
  ["execution.powershell-encoded", "critical", "Runs an encoded PowerShell command", seq(/\bpowershell(\.exe)?\b/i, /\s-(e|enc|encodedcommand)\s/i)],
];

/** Reading outside the skill's folder. */
// deno-fmt-ignore
const PATH_TRAVERSAL: Row[] = [
  ["path_traversal.dotdot", "medium", "Climbs out of its folder with ../../", /(\.\.\/){2}|(\.\.\\){2}/],
  ["path_traversal.system-files", "high", "Reads system account files", /\/etc\/(passwd|shadow|sudoers|gshadow)\b/],
  ["path_traversal.proc-environ", "high", "Reads another process's environment", /\/proc\/(self|\d{1,10}|\$\w{1,64})\/environ\b/],
];

/** Mining on the user's machine. */
// deno-fmt-ignore
const CRYPTO_MINING: Row[] = [
  ["crypto_mining.miner", "critical", "Runs a cryptocurrency miner", /\b(xmrig|minerd|cpuminer|ethminer|nbminer|t-rex miner)\b/i],
  ["crypto_mining.stratum", "critical", "Connects to a mining pool", /\bstratum\+(tcp|ssl|tls):\/\//],
  ["crypto_mining.pool", "high", "Names a mining pool", /\b(nanopool\.org|supportxmr\.com|minexmr\.com|2miners\.com|f2pool\.com)\b/i],
];

/** Installing code from untrusted places. */
// deno-fmt-ignore
const SUPPLY_CHAIN: Row[] = [
  ["supply_chain.pip-url", "medium", "Installs a Python package from a URL", seq(/\bpip3?\s{1,16}install\s/, /(git\+|https?:\/\/)/)],
  ["supply_chain.npm-url", "medium", "Installs an npm package from a URL", seq(/\bnpm\s{1,16}(i|install|add)\s/, /(https?:\/\/|git\+)/)],
  ["supply_chain.typosquat", "high", "Installs a known typo-squat of a popular package", /\bpip3?\s{1,16}install\s{1,16}(reqeusts|requets|urlib3|python-dateutils|beautifulsoup\b|colourama|djanga)\b/],
  ["supply_chain.insecure-index", "medium", "Trusts an unverified package index", /(--trusted-host\b|--index-url\s{1,16}http:\/\/|registry\s{0,16}=?\s{0,16}http:\/\/)/],
  ["supply_chain.install-script", "medium", "Runs a remote install script", seq(/\b(curl|wget)\b/, /\binstall[^\s]{0,64}\.sh\b/)],
];

/** Becoming root. */
// deno-fmt-ignore
const PRIVILEGE_ESCALATION: Row[] = [
  ["privilege_escalation.sudo-shell", "high", "Gets a root shell with sudo", /\bsudo\s{1,16}(-S\b|-i\b|su\b|bash\b|sh\b)/],
  ["privilege_escalation.setuid", "high", "Sets the setuid or setgid bit", /\bchmod\s{1,16}([ugoa]{0,4}\+[rwx]{0,3}s\b|[2467][0-7]{3}\b)/],
  ["privilege_escalation.sudoers", "critical", "Edits sudoers", seq(/(>>|\btee\b)/, /\/etc\/sudoers/)],
  ["privilege_escalation.docker-socket", "high", "Uses the Docker socket (root on the host)", /\/var\/run\/docker\.sock\b/],
];

/** Secrets written into the skill itself. */
// deno-fmt-ignore
const CREDENTIAL_EXPOSURE: Row[] = [
  ["credential_exposure.aws-key", "critical", "Contains an AWS access key", /\bAKIA[0-9A-Z]{16}\b/, { unless: /EXAMPLE/ }],
  ["credential_exposure.private-key", "critical", "Contains a private key (a header followed by key material)", /-----BEGIN (RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/, { next: /^\s{0,64}[A-Za-z0-9+/]{40,256}={0,2}\s{0,64}$/ }],
  ["credential_exposure.github-token", "critical", "Contains a GitHub token", /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/, { unless: /x{6}|X{6}|0{8}/ }],
  ["credential_exposure.slack-token", "high", "Contains a Slack token", /\bxox[baprs]-[A-Za-z0-9-]{10}/],
  ["credential_exposure.openai-key", "high", "Contains an OpenAI-style secret key", /\bsk-(proj-)?[A-Za-z0-9_-]{32,255}\b/, { unless: /x{6}|X{6}|your|example|\.\.\./i }],
  ["credential_exposure.hardcoded-secret", "high", "Hard-codes a secret value", /\b(api[_-]?key|secret|password|passwd|access[_-]?token)\s{0,16}[:=]\s{0,16}["'][^"'\s$]{12,255}["']/i, { unless: PLACEHOLDER }],
];

/** Every text rule, category by category. */
const ROWS: Row[] = [
  ...EXFILTRATION,
  ...PROMPT_INJECTION,
  ...DESTRUCTIVE,
  ...PERSISTENCE,
  ...NETWORK,
  ...OBFUSCATION,
  ...EXECUTION,
  ...PATH_TRAVERSAL,
  ...CRYPTO_MINING,
  ...SUPPLY_CHAIN,
  ...PRIVILEGE_ESCALATION,
  ...CREDENTIAL_EXPOSURE,
];

/** A row's further conditions, each regular expression checked bounded. */
function boundedExtra(extra: Row[4]): Row[4] {
  if (!extra) return extra;
  for (const key of ["unless", "notAfter", "onlyAfter", "next"] as const) {
    const re = extra[key];
    if (re) assertBounded(re);
  }
  return extra;
}

/** Text rules, applied to every file of a skill: its original text and its normal form. */
export const TEXT_RULES: readonly Rule[] = ROWS.map((
  [id, severity, description, pattern, extra],
) => ({
  id,
  category: id.split(".")[0] as RuleCategory,
  severity,
  description,
  patterns: pattern instanceof RegExp || "parts" in pattern ? [pattern] : pattern,
  ...boundedExtra(extra),
}));

/** The structural rules' rows: id, severity, description. */
// deno-fmt-ignore
const STRUCTURAL: [string, RuleSeverity, string][] = [
  ["structural.too-many-files", "medium", "More than 50 files"],
  ["structural.large-file", "medium", "A file over 256 KB"],
  ["structural.total-size", "high", "More than 5 MB in all"],
  ["structural.binary-executable", "critical", "A compiled executable (ELF, Mach-O or PE)"],
  ["structural.executable-outside-scripts", "high", "An executable file outside scripts/"],
  ["structural.symlink", "high", "A symbolic link"],
  ["structural.unscanned", "critical", "Content past the scan limit (25 MiB per skill read) or too large to scan (past 25,000 lines or 1.5 MiB a file, 40,000 lines or 2 MiB a skill), which was not scanned"],
  ["structural.invisible-unicode", "high", "Invisible Unicode (format and control characters, selectors, tags, fillers; not in emoji or joining scripts)"],
  ["structural.html-comment", "medium", "An HTML comment outside code fences (hidden from readers)"],
];

/** Structural rules, computed from the files themselves ([HUB-4]). */
export const STRUCTURAL_RULES: readonly Rule[] = STRUCTURAL.map(([id, severity, description]) => ({
  id,
  category: "structural",
  severity,
  description,
}));

/** Every rule. */
export const ALL_RULES: readonly Rule[] = [...TEXT_RULES, ...STRUCTURAL_RULES];
