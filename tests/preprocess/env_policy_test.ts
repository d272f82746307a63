/**
 * One environment-name policy (issue 22 item 8): a skill may claim the variables it works
 * with (keys, tokens, plain settings) and never one that changes how programs run or where
 * they connect — in `setup` (asked, stored in `.env`), in the `.env` writer itself, and in
 * [P-7]'s declared ground (the view asks, the warden answers). A table of names both ways,
 * then each place through the real runtime, the real CLI and the warden's answer.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { envNamePolicy } from "../../src/preprocess/env_policy.ts";
import { dotenvWith } from "../../src/home/config_write.ts";
import { defaultConfig } from "../../src/home/config.ts";
import { answerEnv } from "../../src/warden/run_worker.ts";
import { SkillRuntime } from "../../src/runtime.ts";
import { cliJson, makeTree, removeTrees, skill, testHost } from "../helpers.ts";

/** Names that steer programs, each with the family that refuses it. */
const REFUSED: Record<string, string> = {
  // The issue's list.
  LESSOPEN: "pager-editor",
  PROMPT_COMMAND: "shell",
  RUSTC_WRAPPER: "tool-options",
  GOFLAGS: "tool-options",
  _JAVA_OPTIONS: "tool-options",
  JDK_JAVA_OPTIONS: "tool-options",
  GCONV_PATH: "loader",
  ZDOTDIR: "shell",
  HTTPS_PROXY: "network",
  ALL_PROXY: "network",
  PIP_INDEX_URL: "network",
  NPM_CONFIG_REGISTRY: "network",
  // The families, one or two each, and other cases.
  LD_PRELOAD: "loader",
  ld_preload: "loader",
  DYLD_INSERT_LIBRARIES: "loader",
  GLIBC_TUNABLES: "loader",
  BASH_ENV: "shell",
  ENV: "shell",
  PS4: "shell",
  IFS: "shell",
  https_proxy: "network",
  NO_PROXY: "network",
  UV_INDEX_URL: "network",
  AWS_ENDPOINT_URL: "network",
  SSL_CERT_FILE: "tls",
  REQUESTS_CA_BUNDLE: "tls",
  NODE_EXTRA_CA_CERTS: "tls",
  SSLKEYLOGFILE: "tls",
  MAVEN_OPTS: "tool-options",
  CFLAGS: "tool-options",
  GIT_ASKPASS: "tool-options",
  PAGER: "pager-editor",
  GIT_PAGER: "pager-editor",
  EDITOR: "pager-editor",
  VISUAL: "pager-editor",
  NODE_OPTIONS: "tool-options",
  Node_Options: "tool-options",
  NODE_PATH: "interpreter",
  PYTHONSTARTUP: "interpreter",
  PERL5OPT: "tool-options",
  RUBYOPT: "tool-options",
  JAVA_HOME: "interpreter",
  GIT_SSH_COMMAND: "pager-editor",
  GOPROXY: "interpreter",
  CARGO_HOME: "interpreter",
  PIP_TRUSTED_HOST: "network",
  DOTNET_STARTUP_HOOKS: "interpreter",
  CC: "build",
  PKG_CONFIG_PATH: "build",
  HOME: "session",
  SHELL: "session",
  TMPDIR: "session",
  LC_ALL: "session",
  TZ: "session",
  AWS_CONFIG_FILE: "config-location",
  KUBECONFIG: "config-location",
  OPENSSL_CONF: "tls",
  XDG_CONFIG_HOME: "config-location",
  GNUPGHOME: "config-location",
  PATH: "search-path",
  Path: "search-path",
  MANPATH: "search-path",
  SSH_AUTH_SOCK: "credential-helper",
  HERMES_HOME: "skillrt",
  SKILLRT_DEBUG: "skillrt",
  // Red team round 5: endpoints (an API key is the skill's; where it is sent is not).
  ANTHROPIC_BASE_URL: "network",
  OPENAI_BASE_URL: "network",
  OPENAI_API_BASE: "network",
  AZURE_OPENAI_ENDPOINT: "network",
  HF_ENDPOINT: "network",
  VAULT_ADDR: "network",
  CONSUL_HTTP_ADDR: "network",
  GH_HOST: "network",
  BUILDKIT_HOST: "network",
  SOCKS_SERVER: "network",
  NIX_REMOTE: "network",
  GITHUB_API_URL: "network",
  // Programs run, options, rc files.
  GOAUTH: "interpreter",
  GOCACHEPROG: "interpreter",
  GO111MODULE: "interpreter",
  TARGET_CC: "build",
  HOST_CC: "build",
  CC_x86_64_unknown_linux_gnu: "build",
  CXX_aarch64_linux_android: "build",
  LDSHARED: "build",
  MAKEFILES: "build",
  PYO3_PYTHON: "interpreter",
  PYTEST_ADDOPTS: "tool-options",
  PYTEST_PLUGINS: "tool-location",
  IPYTHONDIR: "tool-location",
  TF_PLUGIN_CACHE_DIR: "tool-location",
  HELM_PLUGINS: "tool-location",
  COMPOSE_FILE: "tool-location",
  VAGRANT_CWD: "tool-location",
  PSQLRC: "config-location",
  IRBRC: "config-location",
  GEMRC: "config-location",
  SYSSCREENRC: "config-location",
  HELM_REGISTRY_CONFIG: "config-location",
  GVIMINIT: "interpreter",
  FCEDIT: "pager-editor",
  CVSEDITOR: "pager-editor",
  HGEDITOR: "pager-editor",
  TEXEDIT: "pager-editor",
  RSYNC_RSH: "pager-editor",
  RSYNC_CONNECT_PROG: "pager-editor",
  CVS_RSH: "pager-editor",
  SVN_SSH: "pager-editor",
  TF_CLI_ARGS: "tool-options",
  MAVEN_ARGS: "tool-options",
  ANT_ARGS: "tool-options",
  XZ_OPT: "tool-options",
  ZIPOPT: "tool-options",
  GZIP: "tool-options",
  UNZIP: "tool-options",
  MANROFFOPT: "tool-options",
  // Red team hM: Windows' shell and paths, version managers, other config files.
  COMSPEC: "windows",
  PATHEXT: "windows",
  SystemRoot: "windows",
  windir: "windows",
  APPDATA: "windows",
  LOCALAPPDATA: "windows",
  ProgramFiles: "windows",
  NVM_DIR: "tool-location",
  PYENV_VERSION: "tool-location",
  RBENV_ROOT: "tool-location",
  GNUTLS_SYSTEM_PRIORITY_FILE: "tls",
  MAGIC: "config-location",
  PGPASSFILE: "config-location",
  // Variants of our own.
  MISTRAL_API_BASE: "network",
  ollama_host: "network",
  PGSERVICEFILE: "tool-location",
  NPMRC: "config-location",
  GIT_EDITOR_X: "interpreter",
  SUDO_EDITOR: "pager-editor",
  AR_wasm32_unknown_unknown: "build",
  CARGO_TARGET_X_LINKER: "interpreter",
  MY_LINKER: "build",
  BZIP2: "tool-options",
  NODE_TLS_REJECT_UNAUTHORIZED: "interpreter",
  JUPYTER_PATH: "tool-location",
  "BAD-NAME": "invalid",
  "9X": "invalid",
  "": "invalid",
};

/** Names a skill may normally ask for. */
const ALLOWED = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GITLAB_TOKEN",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_REGION",
  "GOOGLE_API_KEY",
  "GOOGLE_CLOUD_PROJECT",
  "DATABASE_URL",
  "REDIS_URL",
  "POSTGRES_PASSWORD",
  "SLACK_WEBHOOK_URL",
  "NOTION_TOKEN",
  "HF_TOKEN",
  "STRIPE_SECRET_KEY",
  "SENTRY_DSN",
  "JIRA_EMAIL",
  "PINECONE_INDEX",
  "DOCKER_USERNAME",
  "NPM_TOKEN",
  "TWILIO_AUTH_TOKEN",
  "api_key",
  "MY_SERVICE_URL",
  // Keys, regions, projects and models stay a skill's to ask for.
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GODADDY_API_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_PROFILE",
  "AWS_DEFAULT_REGION",
  "GCP_PROJECT",
  "OPENAI_ORG_ID",
  "OPENAI_ORGANIZATION",
  "ANTHROPIC_MODEL",
  "OPENAI_MODEL",
  "POSTGRES_PASSWORD_FILE",
  "MYSQL_PWD",
  "IMAGE_SRC",
  "OUTPUT_DIR",
  "DATA_DIR",
  "HOSTED_ZONE_ID",
  "ZIP_CODE",
  "WALLET_ADDRESS",
  "EMAIL_ADDRESS",
  "GOOGLE",
];

Deno.test("[P-7][V-9] envNamePolicy: names that steer programs are refused by family, names a skill asks for are allowed", () => {
  const refused = Object.fromEntries(
    Object.keys(REFUSED).map((name) => [name, envNamePolicy(name).family ?? "allowed"]),
  );
  deepEqual(refused, REFUSED);
  deepEqual(ALLOWED.filter((name) => !envNamePolicy(name).allowed), []);
  deepEqual(envNamePolicy("LESSOPEN"), {
    allowed: false,
    family: "pager-editor",
    reason: "it chooses a program that other programs start (pager, editor, remote shell, browser)",
  });
  deepEqual(envNamePolicy("OPENAI_API_KEY"), {
    allowed: true,
    reason: "a value a skill may ask for",
  });
  equal(envNamePolicy(`A${"_".repeat(300)}`).family, "invalid", "an endless name");
});

Deno.test("[V-9] setup asks only for allowed names, in any case; the .env writer refuses the others too", async () => {
  const steering = [
    "LESSOPEN",
    "PROMPT_COMMAND",
    "RUSTC_WRAPPER",
    "GOFLAGS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "GCONV_PATH",
    "ZDOTDIR",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "PIP_INDEX_URL",
    "NPM_CONFIG_REGISTRY",
    "https_proxy",
  ];
  const declared = [...steering, "OPENAI_API_KEY", "notion_token"];
  const h = Deno.realPathSync(makeTree({
    "skills/sly/SKILL.md": skill(
      "sly",
      "Sly.",
      `required_environment_variables:\n${declared.map((n) => `  - ${n}\n`).join("")}`,
    ),
  }));
  try {
    const runtime = new SkillRuntime({ home: h, host: testHost(h, { envNames: [] }) });
    const asked: string[] = [];
    const result = await runtime.setupSkill("sly", (q) => {
      asked.push(q.name);
      return Promise.resolve("value");
    });
    deepEqual(asked, ["OPENAI_API_KEY", "notion_token"]);
    deepEqual(
      result.stillMissing,
      steering.map((n) => `${n} (environment variable that setup does not store)`),
    );
    equal(Deno.readTextFileSync(`${h}/.env`), "OPENAI_API_KEY=value\nnotion_token=value\n");
  } finally {
    removeTrees(h);
  }
  throws(() => dotenvWith("", { OK_TOKEN: "t", LESSOPEN: "|sh -c id" }), {
    message:
      "Refusing to store LESSOPEN in .env: it chooses a program that other programs start (pager, editor, remote shell, browser).",
  });
  throws(() => dotenvWith("", { "BAD-NAME": "x" }), {
    message: "Invalid variable name 'BAD-NAME'.",
  });
});

Deno.test("[P-7] a local skill's declared HTTPS_PROXY or GIT_ASKPASS is not read (the view, and the warden's answer); its declared token is", async () => {
  const home = makeTree({
    "skills/proxy/SKILL.md": skill(
      "proxy",
      "P",
      "required_environment_variables: [HTTPS_PROXY, git_askpass, MY_TOKEN]\n" +
        "metadata:\n  hermes:\n    config:\n" +
        '      - key: proxy\n        default: "${HTTPS_PROXY}"\n' +
        '      - key: askpass\n        default: "${git_askpass}"\n' +
        '      - key: token\n        default: "${MY_TOKEN}"\n',
    ),
  });
  try {
    const env = { HTTPS_PROXY: "http://10.0.0.1:8080", git_askpass: "/tmp/x", MY_TOKEN: "tok" };
    const view = await cliJson(["--home", home, "view", "proxy"], { env });
    equal(view.code, 0, view.stderr);
    deepEqual(view.json.config, {
      proxy: "${HTTPS_PROXY}",
      askpass: "${git_askpass}",
      token: "tok",
    });
    deepEqual(view.json.notes, [
      "Config 'proxy' of skill 'proxy': ${HTTPS_PROXY} was left as written: HTTPS_PROXY is not in skills.env_passthrough, and no skill may claim it: it changes where programs connect (a proxy, a package index or an endpoint) ([P-7]).",
      "Config 'askpass' of skill 'proxy': ${git_askpass} was left as written: git_askpass is not in skills.env_passthrough, and no skill may claim it: it passes options or a wrapper to the programs that read it ([P-7]).",
    ]);
  } finally {
    removeTrees(home);
  }
  const asks = ["LD_PRELOAD", "HTTPS_PROXY", "PYTHONPATH", "API_KEY"].map((name) => ({
    name,
    why: "declared",
  }));
  deepEqual(answerEnv(1, asks, defaultConfig(), (n) => `value-of-${n}`).values, {
    API_KEY: "value-of-API_KEY",
  });
});
