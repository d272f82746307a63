/**
 * The guard scanner's text rules ([HUB-4]): a policy table of id, category, severity,
 * description and pattern. Pure data; `scanner.ts` applies it.
 *
 * @module
 */

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
export type RuleSeverity = "critical" | "high" | "medium" | "low";

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
  /** The pattern, applied to one line at a time (text rules only). */
  pattern?: RegExp;
}

const r = (
  id: string,
  category: RuleCategory,
  severity: RuleSeverity,
  description: string,
  pattern: RegExp,
): Rule => ({
  id,
  category,
  severity,
  description,
  pattern,
});

/** Text rules, applied line by line to every text file of a skill. */
export const TEXT_RULES: readonly Rule[] = [
  // Exfiltration
  r(
    "exfiltration.curl-post-secrets",
    "exfiltration",
    "critical",
    "Sends secrets, keys or .env files with curl or wget",
    /\b(curl|wget)\b[^\n]*(-d|--data(-binary|-raw)?|-F|--form|--upload-file|--post-file)[^\n]*(\$\{?\w*(KEY|TOKEN|SECRET|PASS)\w*|\.env\b|id_rsa|\.ssh\/|\.aws\/)/i,
  ),
  r(
    "exfiltration.env-pipe",
    "exfiltration",
    "critical",
    "Pipes the environment to a network tool",
    /\b(env|printenv)\s*\|\s*(curl|wget|nc|ncat|netcat)\b/,
  ),
  r(
    "exfiltration.ssh-keys",
    "exfiltration",
    "high",
    "Reads SSH private keys or authorized_keys",
    /(~|\$HOME|\/home\/[^/\s]+|\/root)\/\.ssh\/(id_[a-z0-9]+|authorized_keys)\b/,
  ),
  r(
    "exfiltration.cloud-credentials",
    "exfiltration",
    "high",
    "Reads cloud credential files",
    /\.(aws\/credentials|config\/gcloud|azure\/accessTokens)/,
  ),
  r(
    "exfiltration.browser-data",
    "exfiltration",
    "high",
    "Reads browser cookie or password stores",
    /(Login Data|Cookies\.sqlite|\.mozilla\/firefox\/|Chrome\/User Data|Library\/Keychains)/,
  ),
  r(
    "exfiltration.dns-tunnel",
    "exfiltration",
    "high",
    "Encodes data into DNS lookups",
    /\b(nslookup|dig|host)\b[^\n]*\$\(/,
  ),
  r(
    "exfiltration.webhook",
    "exfiltration",
    "high",
    "Posts to chat webhooks often used to collect stolen data",
    /(discord(app)?\.com\/api\/webhooks|hooks\.slack\.com\/services|api\.telegram\.org\/bot)/i,
  ),
  r(
    "exfiltration.paste-sites",
    "exfiltration",
    "medium",
    "Uploads to anonymous paste or file-drop sites",
    /\b(pastebin\.com\/api|transfer\.sh|0x0\.st|file\.io|termbin\.com)\b/i,
  ),
  // Prompt injection
  r(
    "prompt_injection.ignore-previous",
    "prompt_injection",
    "critical",
    "Tells the agent to ignore its previous instructions",
    /\bignore (all |any )?(previous|prior|above|earlier) (instructions|prompts|rules|directions)\b/i,
  ),
  r(
    "prompt_injection.disregard",
    "prompt_injection",
    "critical",
    "Tells the agent to disregard its instructions",
    /\bdisregard (your|all|the|any) (previous |prior |system )?(instructions|rules|guidelines|prompt)\b/i,
  ),
  r(
    "prompt_injection.forget",
    "prompt_injection",
    "high",
    "Tells the agent to forget its instructions",
    /\bforget (your|all|everything|previous|prior) (instructions|rules|you were told)\b/i,
  ),
  r(
    "prompt_injection.you-are-now",
    "prompt_injection",
    "high",
    "Reassigns the agent's identity",
    /\byou are now (a|an|in|the)\b/i,
  ),
  r(
    "prompt_injection.new-instructions",
    "prompt_injection",
    "high",
    "Announces replacement instructions",
    /\bnew instructions\s*:/i,
  ),
  r(
    "prompt_injection.system-prompt",
    "prompt_injection",
    "high",
    "Poses as a system prompt",
    /\bsystem prompt\s*:/i,
  ),
  r(
    "prompt_injection.system-tag",
    "prompt_injection",
    "high",
    "Uses system-message markup",
    /<\/?system>|<\|im_start\|>\s*system/i,
  ),
  r(
    "prompt_injection.hide-from-user",
    "prompt_injection",
    "high",
    "Asks the agent to hide actions from the user",
    /\bdo not (tell|inform|show|mention (this|it) to) the user\b/i,
  ),
  r(
    "prompt_injection.covert",
    "prompt_injection",
    "medium",
    "Asks the agent to act secretly",
    /\b(secretly|covertly|without (telling|asking|informing|notifying) the user)\b/i,
  ),
  r(
    "prompt_injection.mode-switch",
    "prompt_injection",
    "high",
    "Invokes a jailbreak or unrestricted mode",
    /\b(developer|god|DAN|jailbreak|unrestricted) mode\b/i,
  ),
  r(
    "prompt_injection.cdata-close",
    "prompt_injection",
    "medium",
    "Closes a CDATA section to break out of a wrapper",
    /\]\]>/,
  ),
  // Destructive commands
  r(
    "destructive.rm-rf-root",
    "destructive",
    "critical",
    "Deletes the root or home folder recursively",
    /\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]+\s+|--no-preserve-root\s+)*("?(\/|~|\$HOME|\/\*)"?)(\s|;|$)/,
  ),
  r(
    "destructive.rm-rf-variable",
    "destructive",
    "high",
    "Deletes a folder named only by a variable (empty variable = disaster)",
    /\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+"?\$\{?\w+\}?\/?\*?"?(\s|;|$)/,
  ),
  r("destructive.mkfs", "destructive", "critical", "Formats a file system", /\bmkfs(\.\w+)?\s/),
  r(
    "destructive.dd-device",
    "destructive",
    "critical",
    "Writes raw data over a disk device",
    /\bdd\b[^\n]*\bof=\/dev\/(sd|nvme|hd|disk|mmcblk)/,
  ),
  r(
    "destructive.fork-bomb",
    "destructive",
    "critical",
    "A shell fork bomb",
    /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
  ),
  r(
    "destructive.force-push-main",
    "destructive",
    "medium",
    "Force-pushes a main branch",
    /\bgit\s+push\b[^\n]*(--force\b|\s-f\b)[^\n]*\b(main|master)\b/,
  ),
  r(
    "destructive.drop-database",
    "destructive",
    "high",
    "Drops a database or schema",
    /\bDROP\s+(DATABASE|SCHEMA)\b/i,
  ),
  r(
    "destructive.chmod-777-root",
    "destructive",
    "high",
    "Makes the whole file system world-writable",
    /\bchmod\s+-R\s+0?777\s+\/(\s|$)/,
  ),
  r("destructive.shred-device", "destructive", "high", "Shreds a device", /\bshred\b[^\n]*\/dev\//),
  // Persistence
  r(
    "persistence.crontab",
    "persistence",
    "high",
    "Installs a cron job",
    /(\bcrontab\s+-e\b|\(crontab -l|\bcrontab\s+[^\s-]|\/etc\/cron\.(d|daily|hourly))/,
  ),
  r(
    "persistence.shell-rc",
    "persistence",
    "high",
    "Appends to a shell start-up file",
    />>\s*("?(~|\$HOME)\/)?\.(bashrc|zshrc|profile|bash_profile|zprofile)\b/,
  ),
  r(
    "persistence.systemd",
    "persistence",
    "medium",
    "Installs or enables a system service",
    /(\bsystemctl\s+(--user\s+)?enable\b|\/etc\/systemd\/system\/)/,
  ),
  r(
    "persistence.launchd",
    "persistence",
    "medium",
    "Installs a macOS launch agent",
    /\bLaunch(Agents|Daemons)\//,
  ),
  r(
    "persistence.authorized-keys",
    "persistence",
    "critical",
    "Adds an SSH key to authorized_keys",
    />>?\s*[^\n]*authorized_keys\b/,
  ),
  r(
    "persistence.git-hooks",
    "persistence",
    "medium",
    "Writes git hooks that run on every commit",
    /\.git\/hooks\/(pre|post)-/,
  ),
  // Network
  r(
    "network.reverse-shell",
    "network",
    "critical",
    "Opens a reverse shell",
    /(\bbash\s+-i\s+>&\s*\/dev\/tcp\/|\/dev\/tcp\/\d{1,3}(\.\d{1,3}){3}\/\d+)/,
  ),
  r(
    "network.netcat-exec",
    "network",
    "critical",
    "Runs a shell over netcat",
    /\b(nc|ncat|netcat)\b[^\n]*\s-(e|c)\s/,
  ),
  r(
    "network.listener",
    "network",
    "high",
    "Opens a listening socket",
    /\b(nc|ncat|netcat)\s+-[a-zA-Z]*l/,
  ),
  r(
    "network.curl-pipe-shell",
    "network",
    "high",
    "Pipes a download straight into a shell",
    /\b(curl|wget)\b[^\n|]*\|\s*(sudo\s+)?(ba|z|da)?sh\b/,
  ),
  r(
    "network.raw-ip",
    "network",
    "medium",
    "Talks to a raw IP address instead of a host name",
    /\bhttps?:\/\/\d{1,3}(\.\d{1,3}){3}(:\d+)?\//,
  ),
  r(
    "network.tunnel",
    "network",
    "medium",
    "Exposes the machine through a tunnel service",
    /\b(ngrok|localtunnel|serveo\.net|cloudflared tunnel)\b/i,
  ),
  // Obfuscation
  r(
    "obfuscation.base64-shell",
    "obfuscation",
    "critical",
    "Decodes base64 into a shell",
    /\bbase64\s+(-d|--decode|-D)\b[^\n]*\|\s*(ba|z)?sh\b/,
  ),
  r(
    "obfuscation.eval-decode",
    "obfuscation",
    "high",
    "Evaluates decoded data",
    /\beval\s*\(\s*(atob|base64_decode|Buffer\.from|unescape)\s*\(/,
  ),
  r(
    "obfuscation.exec-decode",
    "obfuscation",
    "high",
    "Executes decoded Python code",
    /\bexec\s*\([^\n]*(b64decode|codecs\.decode|\.decode\()/,
  ),
  r(
    "obfuscation.hex-escapes",
    "obfuscation",
    "medium",
    "Long runs of hex escapes",
    /(\\x[0-9a-fA-F]{2}){12,}/,
  ),
  r(
    "obfuscation.long-base64",
    "obfuscation",
    "medium",
    "A long base64 blob",
    /[A-Za-z0-9+/]{240,}={0,2}/,
  ),
  r(
    "obfuscation.char-codes",
    "obfuscation",
    "medium",
    "Builds strings from character codes",
    /String\.fromCharCode\((\s*\d+\s*,){10,}/,
  ),
  // Execution
  r(
    "execution.eval-input",
    "execution",
    "high",
    "Evaluates untrusted input",
    /\beval\s*\(\s*(input|request|req\.|process\.argv|sys\.argv|params)/,
  ),
  r(
    "execution.shell-true",
    "execution",
    "medium",
    "Runs subprocesses through a shell",
    /\bsubprocess\.(call|run|Popen|check_output)\([^\n]*shell\s*=\s*True/,
  ),
  r("execution.os-system", "execution", "low", "Runs commands with os.system", /\bos\.system\s*\(/),
  r(
    "execution.child-process",
    "execution",
    "low",
    "Runs commands with child_process",
    /\bchild_process\b[^\n]*\bexec(Sync)?\b|\bexecSync\s*\(/,
  ),
  r(
    "execution.pickle",
    "execution",
    "medium",
    "Unpickles data (runs code)",
    /\bpickle\.loads?\s*\(/,
  ),
  r(
    "execution.powershell-encoded",
    "execution",
    "critical",
    "Runs an encoded PowerShell command",
    /\bpowershell(\.exe)?\b[^\n]*\s-(e|enc|encodedcommand)\s/i,
  ),
  // Path traversal
  r(
    "path_traversal.dotdot",
    "path_traversal",
    "medium",
    "Climbs out of its folder with ../../",
    /(\.\.\/){2,}|(\.\.\\){2,}/,
  ),
  r(
    "path_traversal.system-files",
    "path_traversal",
    "high",
    "Reads system account files",
    /\/etc\/(passwd|shadow|sudoers|gshadow)\b/,
  ),
  r(
    "path_traversal.proc-environ",
    "path_traversal",
    "high",
    "Reads another process's environment",
    /\/proc\/(self|\d+|\$\w+)\/environ\b/,
  ),
  // Crypto mining
  r(
    "crypto_mining.miner",
    "crypto_mining",
    "critical",
    "Runs a cryptocurrency miner",
    /\b(xmrig|minerd|cpuminer|ethminer|nbminer|t-rex miner)\b/i,
  ),
  r(
    "crypto_mining.stratum",
    "crypto_mining",
    "critical",
    "Connects to a mining pool",
    /\bstratum\+(tcp|ssl|tls):\/\//,
  ),
  r(
    "crypto_mining.pool",
    "crypto_mining",
    "high",
    "Names a mining pool",
    /\b(nanopool\.org|supportxmr\.com|minexmr\.com|2miners\.com|f2pool\.com)\b/i,
  ),
  // Supply chain
  r(
    "supply_chain.pip-url",
    "supply_chain",
    "medium",
    "Installs a Python package from a URL",
    /\bpip3?\s+install\s+[^\n]*(git\+|https?:\/\/)/,
  ),
  r(
    "supply_chain.npm-url",
    "supply_chain",
    "medium",
    "Installs an npm package from a URL",
    /\bnpm\s+(i|install|add)\s+[^\n]*(https?:\/\/|git\+)/,
  ),
  r(
    "supply_chain.typosquat",
    "supply_chain",
    "high",
    "Installs a known typo-squat of a popular package",
    /\bpip3?\s+install\s+(reqeusts|requets|urlib3|python-dateutils|beautifulsoup\b|colourama|djanga)\b/,
  ),
  r(
    "supply_chain.insecure-index",
    "supply_chain",
    "medium",
    "Trusts an unverified package index",
    /(--trusted-host\b|--index-url\s+http:\/\/|registry\s*=?\s*http:\/\/)/,
  ),
  r(
    "supply_chain.install-script",
    "supply_chain",
    "medium",
    "Runs a remote install script",
    /\b(curl|wget)\b[^\n]*\binstall[^\s]*\.sh\b/,
  ),
  // Privilege escalation
  r(
    "privilege_escalation.sudo-shell",
    "privilege_escalation",
    "high",
    "Gets a root shell with sudo",
    /\bsudo\s+(-S\b|-i\b|su\b|bash\b|sh\b)/,
  ),
  r(
    "privilege_escalation.setuid",
    "privilege_escalation",
    "high",
    "Sets the setuid or setgid bit",
    /\bchmod\s+([ugoa]*\+[rwx]*s\b|[2467][0-7]{3}\b)/,
  ),
  r(
    "privilege_escalation.sudoers",
    "privilege_escalation",
    "critical",
    "Edits sudoers",
    /(>>|\btee\b)[^\n]*\/etc\/sudoers/,
  ),
  r(
    "privilege_escalation.docker-socket",
    "privilege_escalation",
    "high",
    "Uses the Docker socket (root on the host)",
    /\/var\/run\/docker\.sock\b/,
  ),
  // Credential exposure
  r(
    "credential_exposure.aws-key",
    "credential_exposure",
    "critical",
    "Contains an AWS access key",
    /\bAKIA[0-9A-Z]{16}\b/,
  ),
  r(
    "credential_exposure.private-key",
    "credential_exposure",
    "critical",
    "Contains a private key",
    /-----BEGIN (RSA |EC |OPENSSH |DSA |ENCRYPTED )?PRIVATE KEY-----/,
  ),
  r(
    "credential_exposure.github-token",
    "credential_exposure",
    "critical",
    "Contains a GitHub token",
    /\bgh[pousr]_[A-Za-z0-9]{36,}\b/,
  ),
  r(
    "credential_exposure.slack-token",
    "credential_exposure",
    "high",
    "Contains a Slack token",
    /\bxox[baprs]-[A-Za-z0-9-]{10,}/,
  ),
  r(
    "credential_exposure.openai-key",
    "credential_exposure",
    "high",
    "Contains an OpenAI-style secret key",
    /\bsk-(proj-)?[A-Za-z0-9_-]{32,}\b/,
  ),
  r(
    "credential_exposure.hardcoded-secret",
    "credential_exposure",
    "high",
    "Hard-codes a secret value",
    /\b(api[_-]?key|secret|password|passwd|access[_-]?token)\s*[:=]\s*["'][^"'\s$]{12,}["']/i,
  ),
];

/** Structural rules, computed from the files themselves ([HUB-4]). */
export const STRUCTURAL_RULES: readonly Rule[] = [
  {
    id: "structural.too-many-files",
    category: "structural",
    severity: "medium",
    description: "More than 50 files",
  },
  {
    id: "structural.large-file",
    category: "structural",
    severity: "medium",
    description: "A file over 256 KB",
  },
  {
    id: "structural.total-size",
    category: "structural",
    severity: "high",
    description: "More than 5 MB in all",
  },
  {
    id: "structural.binary-executable",
    category: "structural",
    severity: "critical",
    description: "A compiled executable (ELF, Mach-O or PE)",
  },
  {
    id: "structural.executable-outside-scripts",
    category: "structural",
    severity: "high",
    description: "An executable file outside scripts/",
  },
  {
    id: "structural.symlink",
    category: "structural",
    severity: "high",
    description: "A symbolic link",
  },
  {
    id: "structural.invisible-unicode",
    category: "structural",
    severity: "high",
    description: "Invisible Unicode (zero-width, bidi controls, tag characters)",
  },
  {
    id: "structural.html-comment",
    category: "structural",
    severity: "medium",
    description: "An HTML comment outside code fences (hidden from readers)",
  },
];

/** Every rule. */
export const ALL_RULES: readonly Rule[] = [...TEXT_RULES, ...STRUCTURAL_RULES];
