/**
 * Which environment variable names a skill may have (issue 22, [P-7], [V-9]): the one
 * policy behind every place a skill's claim on a variable counts — `setup` storing a value
 * in `<home>/.env`, a skill's declared names reading values ([P-7], `env_access.ts`), and
 * whatever hands variables to a program a skill runs. A skill may ask for what it works
 * with (API keys, tokens, plain settings: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `DATABASE_URL`,
 * `AWS_REGION`); never for a variable that changes how programs run or where they connect
 * — a value typed for "an API key" there would change what runs. Those come in families
 * (the loader, shell start-up, interpreter and tool options, build tools, pagers and
 * editors, proxies and package indexes, TLS trust, config-file locations, search paths,
 * the session, credential helpers, skillrt itself), matched in any case: `.env` readers
 * on Windows (and Hermes there) take `Path` or `ld_preload` for the variable itself.
 * Pure.
 *
 * @module
 */

/** A family of variables no skill may claim. */
export type EnvFamily =
  | "invalid"
  | "loader"
  | "shell"
  | "interpreter"
  | "build"
  | "tool-options"
  | "pager-editor"
  | "network"
  | "tls"
  | "config-location"
  | "search-path"
  | "session"
  | "credential-helper"
  | "tool-location"
  | "windows"
  | "skillrt";

/** What the policy says of a name. */
export interface EnvNameVerdict {
  /** True when a skill may claim it. */
  allowed: boolean;
  /** The family that refuses it (undefined when allowed). */
  family?: EnvFamily;
  /** Why, in a few words (for messages: "it changes …"). */
  reason: string;
}

/** A family: what it does, and the names in it (patterns over the upper-cased name). */
interface Family {
  family: EnvFamily;
  reason: string;
  names: RegExp;
}

/** An alternation anchored at both ends. */
const exactly = (...parts: string[]) => new RegExp(`^(?:${parts.join("|")})$`);

const FAMILIES: readonly Family[] = [
  {
    family: "skillrt",
    reason: "it steers skillrt or Hermes itself",
    names: exactly("HERMES_\\w*", "SKILLRT_\\w*"),
  },
  {
    family: "loader",
    reason: "it changes what the dynamic loader or the C library loads",
    names: exactly(
      "LD_\\w*",
      "DYLD_\\w*",
      "_RLD\\w*",
      "LIBPATH",
      "SHLIB_PATH",
      "GCONV_PATH",
      "GETCONF_DIR",
      "GLIBC_TUNABLES",
      "MALLOC_\\w*",
      "NLSPATH",
      "LOCPATH",
      "LOCALE_ARCHIVE",
      "HOSTALIASES",
      "LOCALDOMAIN",
      "RES_OPTIONS",
      "RESOLV_\\w*",
    ),
  },
  {
    family: "shell",
    reason: "it changes what a shell runs when it starts or prompts",
    names: exactly(
      "ENV",
      "BASH_\\w*",
      "BASHOPTS",
      "SHELLOPTS",
      "PROMPT_COMMAND",
      "PS[0-4]",
      "IFS",
      "ZDOTDIR",
      "ZSH_\\w*",
      "KSH_\\w*",
      "FPATH",
      "CDPATH",
      "GLOBIGNORE",
      "HISTFILE",
      "HISTCONTROL",
      "INPUTRC",
      "MAILPATH",
      "TERM",
      "TERMINFO\\w*",
      "TERMCAP",
    ),
  },
  {
    family: "network",
    reason: "it changes where programs connect (a proxy, a package index or an endpoint)",
    names: exactly(
      "\\w*_PROXY",
      "\\w*_INDEX_URL",
      "\\w*_REGISTRY",
      "\\w*_MIRROR",
      "\\w*_ENDPOINT(?:_URL)?(?:_\\w+)?",
      "\\w*_BASE_URL",
      "\\w*_API_BASE",
      "\\w*_API_URL",
      "\\w*_ADDR",
      "\\w*_HOST",
      "\\w*_HOSTNAME",
      "\\w*_SERVERS?",
      "\\w*_REMOTE",
      "SOCKS\\w*",
      "DOCKER_CONTEXT",
      "DOCKER_TLS_VERIFY",
      "CONTAINER_HOST",
      "DBUS_\\w*",
    ),
  },
  {
    family: "tls",
    reason: "it changes which certificates programs trust, or records their TLS keys",
    names: exactly(
      "SSL_\\w*",
      "OPENSSL_\\w*",
      "SSLKEYLOGFILE",
      "\\w*_CA_BUNDLE",
      "\\w*_CA_CERTS?",
      "\\w*_CAINFO",
      "\\w*_CAPATH",
      "CURL_\\w*",
      "GNUTLS_\\w*",
    ),
  },
  {
    family: "tool-options",
    reason: "it passes options or a wrapper to the programs that read it",
    names: exactly(
      "\\w*OPTIONS",
      "\\w*OPTS?",
      "\\w*FLAGS",
      "\\w*_ARGS(?:_\\w+)?",
      "\\w*_WRAPPER",
      "\\w*_ASKPASS",
      "GZIP",
      "BZIP2?",
      "UNZIP",
      "ZIPINFO",
      "XZ_\\w*",
      "ZSTD_\\w*",
    ),
  },
  {
    family: "pager-editor",
    reason: "it chooses a program that other programs start (pager, editor, remote shell, browser)",
    names: exactly(
      "PAGER",
      "\\w*_PAGER",
      "MANPAGER",
      "MANOPT",
      "\\w*EDITOR",
      "FCEDIT",
      "TEXEDIT",
      "\\w*_RSH",
      "\\w*_SSH",
      "\\w*_PROG(?:RAM)?",
      "\\w*_COMMAND",
      "\\w*_CMD",
      "VISUAL",
      "BROWSER",
      "LESS",
      "LESS(?:OPEN|CLOSE|KEY\\w*|SECURE|CHARSET|EDIT|HIST\\w*|META\\w*|ANSI\\w*|BINFMT|UTF\\w*|GLOBALTAGS|SEPARATOR|DEBUG|_\\w*)",
      "MORE",
    ),
  },
  {
    family: "interpreter",
    reason: "it changes how an interpreter or runtime starts or what it loads",
    names: exactly(
      "NODE_\\w*",
      "NPM_CONFIG_\\w*",
      "YARN_\\w*",
      "BUN_\\w*",
      "DENO_\\w*",
      "ELECTRON_\\w*",
      "PYTHON\\w*",
      "PYO3_\\w*",
      "MATURIN_\\w*",
      "PIP_\\w*",
      "UV_\\w*",
      "POETRY_\\w*",
      "CONDA\\w*",
      "VIRTUAL_ENV",
      "PERL\\w*",
      "RUBY\\w*",
      "BUNDLE_\\w*",
      "JAVA_\\w*",
      "JDK_\\w*",
      "CLASSPATH",
      "DOTNET_\\w*",
      "CORECLR_\\w*",
      "COMPLUS_\\w*",
      "PHP\\w*",
      "COMPOSER\\w*",
      "LUA_\\w*",
      "R_PROFILE\\w*",
      "R_ENVIRON\\w*",
      "R_LIBS\\w*",
      "JULIA_\\w*",
      "OCAML\\w*",
      "ERL_\\w*",
      "TCLLIBPATH",
      "\\w*VIMINIT",
      "EXINIT",
      "VIMRUNTIME",
      "MYVIMRC",
      "GIT_\\w*",
      // Go's own names have no underscore (GOAUTH, GOCACHEPROG, GO111MODULE…); GOOGLE_API_KEY has one.
      "GO(?!OGLE)[A-Z0-9]*",
      "CGO_\\w*",
      "GCCGO",
      "CARGO\\w*",
      "RUSTC\\w*",
      "RUSTDOC\\w*",
      "RUSTFLAGS",
      "RUSTUP_\\w*",
    ),
  },
  {
    family: "build",
    reason: "it chooses the compiler or build tool that runs",
    names: exactly(
      "CC",
      "CXX",
      "CPP",
      "LD",
      "AR",
      // Per target and per host (cc-rs, autotools): CC_x86_64_unknown_linux_gnu, TARGET_CC.
      "(?:CC|CXX|CPP|LD|AR|AS|RANLIB)_\\w*",
      "\\w*_(?:CC|CXX|CPP|LD|AR|AS|RANLIB|LINKER)",
      "TARGET_\\w*",
      "HOST_\\w*",
      "LD(?:CXX)?SHARED",
      "AS",
      "FC",
      "F77",
      "NM",
      "RANLIB",
      "STRIP",
      "OBJCOPY",
      "OBJDUMP",
      "YACC",
      "LEX",
      "M4",
      "MAKE\\w*",
      "CMAKE_\\w*",
      "PKG_CONFIG\\w*",
      "CCACHE_\\w*",
      "SCCACHE_\\w*",
      "DISTCC_\\w*",
    ),
  },
  {
    family: "session",
    reason: "it changes who, where and in what locale programs think they run",
    names: exactly(
      "HOME",
      "USER",
      "LOGNAME",
      "SHELL",
      "PWD",
      "OLDPWD",
      "SHLVL",
      "MAIL",
      "TMPDIR",
      "TMP",
      "TEMP",
      "TZ",
      "TZDIR",
      "LANG",
      "LANGUAGE",
      "LC_\\w*",
      "DISPLAY",
      "WAYLAND_DISPLAY",
      "XAUTHORITY",
      "SUDO_\\w*",
      "INIT_CWD",
    ),
  },
  {
    family: "config-location",
    reason: "it points programs at another configuration, which can run commands",
    names: exactly(
      "\\w*_CONFIG_FILE",
      "\\w*_CONFIG_DIR",
      "\\w*_CONF",
      "\\w*CONFIG(?:_\\w+)?",
      // rc files (PSQLRC, IRBRC, GEMRC, SYSSCREENRC); not …SRC, a source.
      "\\w*(?<!S)RC",
      "AWS_SHARED_CREDENTIALS_FILE",
      "\\w*PASSFILE",
      "NETRC",
      "MAGIC",
      "KRB5\\w*",
      "XDG_\\w*",
      "\\w*HOME",
    ),
  },
  {
    family: "tool-location",
    reason: "it points a tool at other code, plugins or project files, which it runs",
    names: exactly(
      "\\w*PLUGINS?(?:_\\w+)?",
      "\\w*_PLUGIN_\\w*",
      "\\w*STARTUP\\w*",
      "IPYTHONDIR",
      "JUPYTER_\\w*",
      "MPLCONFIGDIR",
      "\\w*SERVICEFILE",
      "COMPOSE_\\w*",
      "VAGRANT_\\w*",
      "TF_\\w*",
      "HELM_\\w*",
      "NIX_\\w*",
      // Version managers choose the interpreter that runs, and source their own scripts.
      "NVM_\\w*",
      "PYENV_\\w*",
      "RBENV_\\w*",
      "NODENV_\\w*",
      "ASDF_\\w*",
      "SDKMAN_\\w*",
      "VOLTA_\\w*",
      "MISE_\\w*",
    ),
  },
  {
    family: "windows",
    reason:
      "it tells Windows programs which shell runs commands, which files run, or where system and program files are",
    names: exactly(
      "COMSPEC",
      "PATHEXT",
      "SYSTEMROOT",
      "SYSTEMDRIVE",
      "WINDIR",
      "\\w*APPDATA",
      "PROGRAMDATA",
      "PROGRAMFILES\\w*",
      "COMMONPROGRAMFILES\\w*",
      "ALLUSERSPROFILE",
      "USERPROFILE",
      "DRIVERDATA",
    ),
  },
  {
    family: "search-path",
    reason: "it changes where programs are looked up or loaded from",
    names: exactly("\\w*PATH", "\\w*INPUTS"),
  },
  {
    family: "credential-helper",
    reason: "it reaches the user's SSH or GPG agent and keys",
    names: exactly("SSH_\\w*", "GPG_\\w*", "GNUPG\\w*"),
  },
];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the policy says of a variable name: allowed for a skill to claim (store, read,
 * be given), or refused with the family and the reason. Names are compared upper-cased.
 */
export function envNamePolicy(name: string): EnvNameVerdict {
  if (name.length > 255 || !NAME.test(name)) {
    return { allowed: false, family: "invalid", reason: "it is not a variable name" };
  }
  const upper = name.toUpperCase();
  const hit = FAMILIES.find((f) => f.names.test(upper));
  if (hit) return { allowed: false, family: hit.family, reason: hit.reason };
  return { allowed: true, reason: "a value a skill may ask for" };
}

/** True when a skill may claim the variable ({@linkcode envNamePolicy}). */
export function envNameAllowed(name: string): boolean {
  return envNamePolicy(name).allowed;
}
