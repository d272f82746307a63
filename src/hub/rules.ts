/**
 * The guard scanner's rules ([HUB-4]): a policy table of id, category, severity,
 * description and pattern, one rule a line. Pure data; `scanner.ts` applies it.
 *
 * @module
 */
import type { RuleSeverity } from "./scan/severity.ts";
import { ENV_SECRET, judgeSecretRequest } from "./scan/secrets.ts";

/** The categories of [HUB-4]. */
export type RuleCategory =
  | "exfiltration"
  | "prompt_injection"
  | "destructive"
  | "persistence"
  | "network"
  | "obfuscation"
  | "execution"
  | "path_traversal"
  | "crypto_mining"
  | "supply_chain"
  | "privilege_escalation"
  | "credential_exposure"
  | "structural";

/** How bad a finding is. */
export type { RuleSeverity } from "./scan/severity.ts";

/** A further judgement of a match on its line: a severity and a reason, or null (no finding). */
export type Judge = (line: string) => { severity: RuleSeverity; reason: string } | null;

/** One rule. */
export interface Rule {
  /** Stable id, `category.name`. */
  id: string;
  /** Its category. */
  category: RuleCategory;
  /** Its severity. */
  severity: RuleSeverity;
  /** What it looks for, for people. */
  description: string;
  /** The pattern (text rules only), matched on the original text and on its normal form. */
  pattern?: RegExp;
  /** A match is let go when the matched text also matches this (placeholders, examples). */
  unless?: RegExp;
  /** A match is let go when the text before it on its line matches this (`ssh-keygen -f`). */
  notAfter?: RegExp;
  /** A match counts only when the text before it on its line matches this (command position). */
  onlyAfter?: RegExp;
  /** The line after a match must match this too (a key header must be followed by key material). */
  next?: RegExp;
  /** A phrase rule: also matched with line breaks taken as spaces (a phrase split over lines). */
  flow?: boolean;
  /** Judges each matching line further (who receives a secret). */
  judge?: Judge;
}

/** A text rule's row: id, severity, description, pattern and its further conditions. */
type Row = [
  string,
  RuleSeverity,
  string,
  RegExp,
  Pick<Rule, "unless" | "notAfter" | "onlyAfter" | "next" | "flow" | "judge">?,
];

/** Placeholder values that are not secrets: words that say so, or an env variable's own name. */
const PLACEHOLDER =
  /["'][^"']*(test|example|changeme|change[_-]me|placeholder|your[_-]|dummy|fake|sample|hashed|redacted|xxxx|<[\w-]+>|secret-api-key|[_-]here\b|generate|replace[_-]?(me|with|this)|insert|todo|fixme|\.\.\.|\*{3,})[^"']*["']|["'](\$\{?)?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\}?["']/i;

const RM = String
  .raw`\brm\s+(?:(?:-[a-zA-Z]+|--[a-z-]+)\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(?:(?:-[a-zA-Z]+|--[a-z-]+)\s+)*`;
const ROOT = String
  .raw`["']?(?:\/|\/\*|~\/?|~\/\*|\$\{?HOME\}?\/?|\$\{?HOME\}?\/\*)["']?(?=[\s;&|"'\x60)]|$)`;

/** Sending secrets, keys or data elsewhere. */
// deno-fmt-ignore
const EXFILTRATION: Row[] = [
  ["exfiltration.curl-post-secrets", "critical", "Sends secrets, keys or .env files with curl or wget", /\b(curl|wget)\b[^\n]*(-d|--data(-binary|-raw|-urlencode)?|-F|--form|--upload-file|--post-file|--post-data|--body-data|--body-file|-T)[^\n]*(\$\{?\w*(KEY|TOKEN|SECRET|PASS)\w*|\.env\b|id_[a-z0-9]+\b|\.ssh\/|\.aws\/|\/etc\/(passwd|shadow)\b)/i],
  ["exfiltration.command-in-request", "critical", "Puts the environment or a secret file's content into a request", /\b(curl|wget|nslookup|dig)\b[^\n]*(\$\(|`)\s*(env|printenv|set|cat\s+[^)`\n]*(\.ssh\/|\.aws\/|\.env\b|id_[a-z0-9]+\b|\/etc\/(passwd|shadow)\b))/],
  ["exfiltration.copy-secret-remote", "critical", "Copies key or credential files to another machine", /\b(scp|rsync|sftp)\b[^\n]*(\.ssh\/|\.aws\/|\.env\b|\bid_[a-z0-9]+\b|\.kube\/config)[^\n]*\s[\w.-]+@?[\w.-]+:/],
  ["exfiltration.secret-request", "critical", "Puts a secret env variable into the URL, query, DNS name or a header of a request to another host", new RegExp(String.raw`(?:\b(?:curl|wget|xh|httpie|fetch|requests|httpx|http\.client|HTTPS?Connection|urlopen|urllib|axios|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|nslookup|dig|drill)\b|https?:\/\/)[^\n]*?(?:${ENV_SECRET})`, "i"), { judge: judgeSecretRequest }],
  ["exfiltration.pipe-secret-file", "critical", "Pipes or redirects key or credential files to a network tool", /((\.ssh\b|\.aws\/credentials|\.env\b|\bid_rsa\b|\/etc\/shadow|\.netrc\b|\.kube\/config)[^\n|]*\|\s*(base64\s*\|\s*|gzip\s*\|\s*)?(curl|wget|nc|ncat|netcat|socat)\b|\b(nc|ncat|netcat|socat|telnet)\b[^\n]*<\s*\S*(\.ssh\/|\.aws\/|\.env\b|\bid_[a-z0-9]+\b|\/etc\/shadow))/],
  ["exfiltration.file-upload-code", "critical", "Uploads key or credential files from code", /\b(requests\.(post|put)|httpx\.(post|put)|axios\.(post|put)|fetch|urlopen|UploadFile|Invoke-RestMethod)\b[^\n]*(\.ssh\/|\.aws\/credentials|\bid_rsa\b|\/etc\/shadow|\.env["'])/],
  ["exfiltration.env-pipe", "critical", "Pipes the environment to a network tool", /\b(env|printenv)\s*\|\s*(base64\s*\|\s*)?(curl|wget|nc|ncat|netcat)\b/],
  ["exfiltration.ssh-keys", "high", "Reads SSH private keys or authorized_keys", /(~|\$\{?HOME\}?|\/home\/[^/\s]+|\/root|\/Users\/[^/\s]+)\/\.ssh\/((?![\w*?\[\]{}.-]*\.pub\b)id_[\w*?\[\]{}.-]*|\*|authorized_keys\b|identity\b)/, { notAfter: /(\bssh-keygen\b[^;&|\n]*\s-f\s*["']?|\bIdentityFile\s+["']?|\bssh\b[^;&|\n]*\s-i\s*["']?|\bssh-add\s+(-\S+\s+)*["']?|\bchmod\s+[0-7]{3,4}\s+["']?)$/ }],
  ["exfiltration.cloud-credentials", "high", "Reads cloud credential files", /\.(aws\/credentials|config\/gcloud|azure\/accessTokens)/],
  ["exfiltration.browser-data", "high", "Reads browser cookie or password stores", /(Login Data|Cookies\.sqlite|\.mozilla\/firefox\/|Chrome\/User Data|Library\/Keychains)/],
  ["exfiltration.dns-tunnel", "critical", "Encodes data into DNS lookups", /\b(nslookup|dig|host|drill)\s+([-+]\S+\s+)*["']?[\w.-]*(\$\(|`)/, { onlyAfter: /(?:^|[;&|(`"'{]|\$\()\s*(?:sudo\s+)?$/ }],
  ["exfiltration.webhook", "high", "Posts to chat webhooks often used to collect stolen data", /(discord(app)?\.com\/api\/webhooks|hooks\.slack\.com\/services|api\.telegram\.org\/bot)/i],
  ["exfiltration.paste-sites", "medium", "Uploads to anonymous paste or file-drop sites", /\b(pastebin\.com\/api|transfer\.sh|0x0\.st|file\.io|termbin\.com)\b/i],
];

/** Text that tries to take over the agent. */
// deno-fmt-ignore
const PROMPT_INJECTION: Row[] = [
  ["prompt_injection.ignore-previous", "critical", "Tells the agent to ignore its previous instructions", /\bignore\s+(?:(?:(?:all|any|the|your|of|these|those|my|every)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|original|system|other)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|commands|context|messages)|(?:(?:all|any|the|your|of|my)\s+){1,3}(?:instructions?|prompts?|rules|directions|guidelines)\s+(?:above|before|so far|given (?:to you )?(?:before|earlier|above)))\b/i, { flow: true }],
  ["prompt_injection.disregard", "critical", "Tells the agent to disregard its instructions", /\bdisregard\s+(?:(?:all|any|the|your|of|my|every)\s+){1,3}(?:(?:previous|prior|above|earlier|system|original)\s+)?(?:instructions?|rules|guidelines|prompts?|directions|directives)\b/i, { flow: true }],
  ["prompt_injection.forget", "high", "Tells the agent to forget its instructions", /\bforget (your|all|everything|previous|prior) (instructions|rules|you were told)\b/i, { flow: true }],
  ["prompt_injection.you-are-now", "high", "Reassigns the agent's identity", /\byou are now (a|an|in|the)\b/i, { flow: true }],
  ["prompt_injection.new-instructions", "high", "Announces replacement instructions", /\bnew instructions\s*:/i],
  ["prompt_injection.system-prompt", "high", "Poses as a system prompt (a line that opens with it)", /^[\s>#*_\-\[(|]*system prompt\s*:(?!\s*\d)/im],
  ["prompt_injection.system-tag", "high", "Uses system-message markup", /<\/?system>|<\|im_start\|>\s*system/i],
  ["prompt_injection.hide-from-user", "high", "Asks the agent to hide actions from the user", /\bdo not (tell|inform|show|mention (this|it) to) the user\b/i, { flow: true }],
  ["prompt_injection.covert", "medium", "Asks the agent to act secretly", /\b(secretly|covertly|without (telling|asking|informing|notifying) the user)\b/i, { flow: true }],
  ["prompt_injection.mode-switch", "high", "Invokes a jailbreak or unrestricted mode", /\b(developer|god|DAN|jailbreak|unrestricted) mode\b/i, { flow: true }],
  ["prompt_injection.cdata-close", "medium", "Closes a CDATA section to break out of a wrapper", /\]\]>/],
];

/** Deleting or overwriting what cannot be got back. */
// deno-fmt-ignore
const DESTRUCTIVE: Row[] = [
  ["destructive.rm-rf-root", "critical", "Deletes the root or home folder recursively", new RegExp(RM + String.raw`(?:--no-preserve-root\s+)?` + ROOT)],
  ["destructive.rm-argv", "critical", "Deletes the root or home folder recursively (argument list)", /["']rm["']\s*,\s*(["']-[\w-]*["']\s*,\s*)*["'](-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)["']\s*,\s*(["']-[\w-]*["']\s*,\s*)*["'](\/|~|\/\*|~\/)["']/],
  ["destructive.rmtree-root", "critical", "Removes the root or home folder from code", /\b(shutil\.rmtree|rmSync|rmdirSync|Deno\.remove|fs\.rm|Remove-Item)\b\s*\(?\s*(["'](\/|~\/?|\/\*|C:\\\\?)["']|os\.path\.expanduser\(\s*["']~\/?["']\s*\)|Path\.home\(\)|os\.homedir\(\)|os\.environ\[["']HOME["']\]|\$HOME|\$env:USERPROFILE)/],
  ["destructive.rm-rf-variable", "high", "Deletes a folder named only by a variable (an empty variable is a disaster)", /\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+"?\$\{?\w+\}?\/?\*?"?(?=[\s;&|'`)]|$)/],
  ["destructive.mkfs", "critical", "Formats a file system", /\bmkfs(\.\w+)?\s/],
  ["destructive.dd-device", "critical", "Writes raw data over a disk device", /\bdd\b[^\n]*\bof=\/dev\/(sd|nvme|hd|disk|mmcblk)/],
  ["destructive.fork-bomb", "critical", "A shell fork bomb", /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/],
  ["destructive.force-push-main", "medium", "Force-pushes a main branch", /\bgit\s+push\b[^\n]*(--force\b|\s-f\b)[^\n]*\b(main|master)\b/],
  ["destructive.drop-database", "high", "Drops a database or schema", /\bDROP\s+(DATABASE|SCHEMA)\b/i],
  ["destructive.chmod-777-root", "high", "Makes the whole file system world-writable", /\bchmod\s+-R\s+0?777\s+\/(\s|$)/],
  ["destructive.shred-device", "high", "Shreds a device", /\bshred\b[^\n]*\/dev\//],
];

/** Staying on the machine after the skill is done. */
// deno-fmt-ignore
const PERSISTENCE: Row[] = [
  ["persistence.crontab", "high", "Installs a cron job", /(\bcrontab\s+-e\b|\(crontab -l|\bcrontab\s+[^\s-]|\/etc\/cron\.(d|daily|hourly))/],
  ["persistence.shell-rc", "high", "Appends to a shell start-up file", />>\s*("?(~|\$HOME)\/)?\.(bashrc|zshrc|profile|bash_profile|zprofile)\b/],
  ["persistence.systemd", "medium", "Installs or enables a system service", /(\bsystemctl\s+(--user\s+)?enable\b|\/etc\/systemd\/system\/)/],
  ["persistence.launchd", "medium", "Installs a macOS launch agent", /\bLaunch(Agents|Daemons)\//],
  ["persistence.authorized-keys", "critical", "Adds an SSH key to authorized_keys", />>?\s*[^\n]*authorized_keys\b/],
  ["persistence.git-hooks", "medium", "Writes git hooks that run on every commit", /\.git\/hooks\/(pre|post)-/],
];

/** Shells over the network, downloads piped into interpreters, odd hosts. */
// deno-fmt-ignore
const NETWORK: Row[] = [
  ["network.reverse-shell", "critical", "Opens a reverse shell", /(\b(ba)?sh\s+-i\s+[^\n]*\/dev\/(tcp|udp)\/|\/dev\/(tcp|udp)\/[\w.-]+\/\d+[^\n]*(0>&1|<&|>&)|\bos\.dup2\([^\n]*fileno\(\)|\bpty\.spawn\(\s*["']\/bin\/(ba)?sh|\bmkfifo\b[^\n]*\|\s*(nc|ncat|netcat)\b|\bsocat\b[^\n]*\bexec:[^\n]*\b(ba)?sh\b|Net\.Sockets\.TCPClient\()/i],
  ["network.netcat-exec", "critical", "Runs a shell over netcat", /\b(nc|ncat|netcat)\b[^\n]*\s-(e|c)\s/],
  ["network.listener", "high", "Opens a listening socket", /\b(nc|ncat|netcat)\s+-[a-zA-Z]*l/],
  ["network.curl-pipe-shell", "high", "Pipes a download straight into a shell or interpreter", /(\b(curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]*\|\s*(sudo\s+)?((ba|z|da|k)?sh|python3?|perl|ruby|node|iex)\b|\b(ba|z)?sh\s+(-c\s+)?["']?(<\(|\$\()\s*(curl|wget)\b)/i],
  ["network.raw-ip", "medium", "Talks to a raw IP address instead of a host name", /\bhttps?:\/\/\d{1,3}(\.\d{1,3}){3}(:\d+)?\//],
  ["network.tunnel", "medium", "Exposes the machine through a tunnel service", /\b(ngrok|localtunnel|serveo\.net|cloudflared tunnel)\b/i],
];

/** Hiding what runs. */
// deno-fmt-ignore
const OBFUSCATION: Row[] = [
  ["obfuscation.base64-shell", "critical", "Decodes base64 into a shell", /(\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(sudo\s+)?((ba|z|da)?sh|python3?|perl)\b|\beval\b[^\n]*\bbase64\s+(-d|--decode|-D)\b|\b(ba|z)?sh\s+-c\s+["']?\$\([^\n]*\bbase64\s+(-d|--decode|-D)\b)/],
  ["obfuscation.eval-decode", "high", "Evaluates decoded data", /\beval\s*\(\s*(atob|base64_decode|Buffer\.from|unescape)\s*\(/],
  ["obfuscation.exec-decode", "high", "Executes decoded Python code", /\bexec\s*\([^\n]*(b64decode|codecs\.decode|\.decode\()/],
  ["obfuscation.hex-escapes", "medium", "Long runs of hex escapes", /(\\x[0-9a-fA-F]{2}){12,}/],
  ["obfuscation.long-base64", "medium", "A long base64 blob", /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{240,}={0,2}/],
  ["obfuscation.char-codes", "medium", "Builds strings from character codes", /String\.fromCharCode\((\s*\d+\s*,){10,}/],
];

/** Running code in risky ways. */
// deno-fmt-ignore
const EXECUTION: Row[] = [
  ["execution.eval-input", "high", "Evaluates untrusted input", /\beval\s*\(\s*(input|request|req\.|process\.argv|sys\.argv|params)/],
  ["execution.shell-true", "medium", "Runs subprocesses through a shell", /\bsubprocess\.(call|run|Popen|check_output)\([^\n]*shell\s*=\s*True/],
  ["execution.os-system", "low", "Runs commands with os.system", /\bos\.system\s*\(/],
  ["execution.child-process", "low", "Runs commands with child_process", /\bchild_process\b[^\n]*\bexec(Sync)?\b|\bexecSync\s*\(/],
  ["execution.pickle", "medium", "Unpickles data (runs code)", /\bpickle\.loads?\s*\(/],
  ["execution.powershell-encoded", "critical", "Runs an encoded PowerShell command", /\bpowershell(\.exe)?\b[^\n]*\s-(e|enc|encodedcommand)\s/i],
];

/** Reading outside the skill's folder. */
// deno-fmt-ignore
const PATH_TRAVERSAL: Row[] = [
  ["path_traversal.dotdot", "medium", "Climbs out of its folder with ../../", /(\.\.\/){2,}|(\.\.\\){2,}/],
  ["path_traversal.system-files", "high", "Reads system account files", /\/etc\/(passwd|shadow|sudoers|gshadow)\b/],
  ["path_traversal.proc-environ", "high", "Reads another process's environment", /\/proc\/(self|\d+|\$\w+)\/environ\b/],
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
  ["supply_chain.pip-url", "medium", "Installs a Python package from a URL", /\bpip3?\s+install\s+[^\n]*(git\+|https?:\/\/)/],
  ["supply_chain.npm-url", "medium", "Installs an npm package from a URL", /\bnpm\s+(i|install|add)\s+[^\n]*(https?:\/\/|git\+)/],
  ["supply_chain.typosquat", "high", "Installs a known typo-squat of a popular package", /\bpip3?\s+install\s+(reqeusts|requets|urlib3|python-dateutils|beautifulsoup\b|colourama|djanga)\b/],
  ["supply_chain.insecure-index", "medium", "Trusts an unverified package index", /(--trusted-host\b|--index-url\s+http:\/\/|registry\s*=?\s*http:\/\/)/],
  ["supply_chain.install-script", "medium", "Runs a remote install script", /\b(curl|wget)\b[^\n]*\binstall[^\s]*\.sh\b/],
];

/** Becoming root. */
// deno-fmt-ignore
const PRIVILEGE_ESCALATION: Row[] = [
  ["privilege_escalation.sudo-shell", "high", "Gets a root shell with sudo", /\bsudo\s+(-S\b|-i\b|su\b|bash\b|sh\b)/],
  ["privilege_escalation.setuid", "high", "Sets the setuid or setgid bit", /\bchmod\s+([ugoa]*\+[rwx]*s\b|[2467][0-7]{3}\b)/],
  ["privilege_escalation.sudoers", "critical", "Edits sudoers", /(>>|\btee\b)[^\n]*\/etc\/sudoers/],
  ["privilege_escalation.docker-socket", "high", "Uses the Docker socket (root on the host)", /\/var\/run\/docker\.sock\b/],
];

/** Secrets written into the skill itself. */
// deno-fmt-ignore
const CREDENTIAL_EXPOSURE: Row[] = [
  ["credential_exposure.aws-key", "critical", "Contains an AWS access key", /\bAKIA[0-9A-Z]{16}\b/, { unless: /EXAMPLE/ }],
  ["credential_exposure.private-key", "critical", "Contains a private key (a header followed by key material)", /-----BEGIN (RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/, { next: /^\s*[A-Za-z0-9+/]{40,}={0,2}\s*$/ }],
  ["credential_exposure.github-token", "critical", "Contains a GitHub token", /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, { unless: /x{6,}|X{6,}|0{8,}/ }],
  ["credential_exposure.slack-token", "high", "Contains a Slack token", /\bxox[baprs]-[A-Za-z0-9-]{10,}/],
  ["credential_exposure.openai-key", "high", "Contains an OpenAI-style secret key", /\bsk-(proj-)?[A-Za-z0-9_-]{32,}\b/, { unless: /x{6,}|X{6,}|your|example|\.\.\./i }],
  ["credential_exposure.hardcoded-secret", "high", "Hard-codes a secret value", /\b(api[_-]?key|secret|password|passwd|access[_-]?token)\s*[:=]\s*["'][^"'\s$]{12,}["']/i, { unless: PLACEHOLDER }],
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

/** Text rules, applied to every file of a skill: its original text and its normal form. */
export const TEXT_RULES: readonly Rule[] = ROWS.map((
  [id, severity, description, pattern, extra],
) => ({
  id,
  category: id.split(".")[0] as RuleCategory,
  severity,
  description,
  pattern,
  ...extra,
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
  ["structural.unscanned", "high", "Content past the scan limit (25 MiB per skill), which was not scanned"],
  ["structural.invisible-unicode", "high", "Invisible Unicode (zero-width, bidi controls, tag characters; not a joiner inside an emoji)"],
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
