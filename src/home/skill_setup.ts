/**
 * `setup NAME` ([V-9]): what a skill still needs — each required environment variable
 * that is neither set in the process nor in `<home>/.env`, and each config entry without
 * a value in `skills.config` — asked one by one through a prompt reader (the terminal, at
 * the CLI; any function, in the library), then stored: variables in `<home>/.env` (mode
 * 0600, other lines kept), config values under `skills.config` in config.yaml (comments
 * and other keys kept). Without a reader (no terminal) it refuses, listing what is missing.
 *
 * @module
 */
import { InterruptedError, SkillrtError, UsageError } from "../errors.ts";
import { configEntries, type ConfigEntry, dotPath } from "../preprocess/config_block.ts";
import { envNameAllowed } from "../preprocess/env_policy.ts";
import { resolveSkill } from "../resolve/resolve.ts";
import type { Catalog } from "../scan/catalog.ts";
import { type RequiredEnvVar, requiredEnvVars } from "../view/env_vars.ts";
import {
  configAfter,
  type ConfigEdit,
  dotenvWith,
  writeConfigEdits,
  writeDotenv,
} from "./config_write.ts";
import type { HomeLayout } from "./layout.ts";

/** One question `setup` asks. */
export interface SetupQuestion {
  /** `env` for a variable (its answer is a secret), `config` for a config entry. */
  kind: "env" | "config";
  /** The variable's name, or the config entry's dot path. */
  name: string;
  /** What to ask (from the skill). */
  prompt: string;
  /** Where to get a value, when the skill says. */
  help?: string;
  /** The value used when the answer is empty (config entries). */
  default?: string;
  /** True when the answer must not be echoed. */
  secret: boolean;
}

/**
 * Reads one answer: a string (empty to skip), `null` when the user cancelled, or
 * undefined when there is no terminal to ask at.
 */
export type PromptReader = (question: SetupQuestion) => Promise<string | null | undefined>;

/** What a skill still needs. */
export interface SetupNeeds {
  /** The skill's name. */
  name: string;
  /** Required variables not set anywhere. */
  env: RequiredEnvVar[];
  /** Config entries without a value in `skills.config` (their dot paths checked). */
  config: ConfigEntry[];
  /** Required variables not set that `setup` will not store (refused by `envNamePolicy`). */
  unsafe: string[];
}

/** What `setup` did. */
export interface SetupResult {
  /** Always true. */
  success: true;
  /** The skill. */
  name: string;
  /** Variables stored in `<home>/.env` (names only; values are never shown). */
  storedEnv: string[];
  /** Config keys stored under `skills.config`. */
  storedConfig: string[];
  /** What is still missing (answers left empty). */
  stillMissing: string[];
  /** One line for people. */
  message: string;
}

const KEY_PART = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);

/** True for a config key skillrt can store: dot-separated plain words. */
export function storableKey(key: string): boolean {
  const parts = key.split(".");
  return parts.length <= 8 && parts.every((p) => KEY_PART.test(p) && !RESERVED.has(p));
}

/** What a skill still needs; `envNames` are the variables set in the process or `.env`. */
export function setupNeeds(
  name: string,
  catalog: Catalog,
  setup: HomeLayout,
  envNames: Set<string>,
): SetupNeeds {
  const { record } = resolveSkill(name, catalog);
  const unset = requiredEnvVars(record.frontmatter).vars.filter((v) => !envNames.has(v.name));
  // Variables that steer programs are never asked for: the one policy of env_policy.ts.
  const env = unset.filter((v) => envNameAllowed(v.name));
  const unsafe = unset.filter((v) => !envNameAllowed(v.name)).map((v) => v.name);
  const config = configEntries(record).filter((entry) =>
    storableKey(entry.key) && dotPath(setup.config.config, entry.key) === undefined
  );
  return { name: record.name, env, config, unsafe };
}

/**
 * What is missing, one line each: the variables, and the config entries with neither a
 * value nor a default (an entry with a default works without an answer).
 */
export function missingLines(needs: SetupNeeds): string[] {
  return [
    ...needs.env.map((v) => `${v.name} (environment variable)`),
    ...needs.unsafe.map((n) => `${n} (environment variable that setup does not store)`),
    ...needs.config.filter((c) => c.default === undefined || c.default === null).map((c) =>
      `${c.key} (skills.config)`
    ),
  ];
}

function shown(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function questions(needs: SetupNeeds): SetupQuestion[] {
  return [
    ...needs.env.map((v): SetupQuestion => ({
      kind: "env",
      name: v.name,
      prompt: v.prompt,
      ...(v.help ? { help: v.help } : {}),
      secret: true,
    })),
    ...needs.config.map((c): SetupQuestion => {
      const d = shown(c.default);
      return {
        kind: "config",
        name: c.key,
        // The prompt, else the description, else the key; the description is help beside a prompt.
        prompt: text(c.prompt) ?? text(c.description) ?? `Value for ${c.key}`,
        ...(text(c.prompt) && text(c.description) ? { help: text(c.description) } : {}),
        ...(d !== undefined ? { default: d } : {}),
        secret: false,
      };
    }),
  ];
}

/**
 * Asks for what a skill needs and stores the answers. An empty answer leaves that one
 * missing (a config entry then keeps its default).
 * @throws {UsageError} (exit 2) without a terminal, listing what is missing.
 */
export async function runSkillSetup(
  needs: SetupNeeds,
  setup: HomeLayout,
  ask: PromptReader | undefined,
): Promise<SetupResult> {
  const missing = missingLines(needs);
  const asked = questions(needs);
  const askable = missing.filter((line) => !line.includes("setup does not store"));
  if (asked.length === 0 || (askable.length === 0 && !ask)) return nothingAsked(needs, missing);
  const refuse = () =>
    new UsageError(
      `'setup ${needs.name}' asks at a terminal, and there is none. Missing: ${
        missing.join(", ")
      }. Run it at a terminal, or set them in ${setup.home}/.env and config.yaml.`,
    );
  if (!ask) throw refuse();
  const answers: Answers = { env: {}, values: {} };
  for (const q of asked) {
    const answer = await ask(q).catch((error) => {
      if (!(error instanceof InterruptedError)) throw error;
      throw new InterruptedError("Setup cancelled; nothing was written.");
    });
    if (answer === undefined) {
      if (askable.length === 0) return nothingAsked(needs, missing); // defaults only, no terminal
      throw refuse();
    }
    if (answer === null) throw new SkillrtError("Setup cancelled; nothing was written.");
    if (answer !== "") (q.kind === "env" ? answers.env : answers.values)[q.name] = answer;
  }
  await storeAnswers(setup, answers);
  return stored(needs, missing, answers);
}

/** What `setup` was told: variables for `.env`, config values by dotted key. */
interface Answers {
  env: Record<string, string>;
  values: Record<string, string>;
}

/** The result when there is nothing to ask (or only defaults, and no one to confirm them). */
function nothingAsked(needs: SetupNeeds, missing: string[]): SetupResult {
  return {
    success: true,
    name: needs.name,
    storedEnv: [],
    storedConfig: [],
    stillMissing: missing,
    message: missing.length
      ? `Nothing to ask for '${needs.name}'.`
      : `'${needs.name}' needs nothing more: it is ready.`,
  };
}

/** Stores the answers in `.env` and config.yaml, every write proved before the first. */
async function storeAnswers(setup: HomeLayout, { env, values }: Answers): Promise<void> {
  const edits: ConfigEdit[] = Object.entries(values).map(([key, value]) => ({
    path: ["skills", "config", ...key.split(".")],
    change: { kind: "scalar", value },
  }));
  // config.yaml's edit (a skill may declare keys that cannot both be stored, `a` and
  // `a.b`) and .env's text are made first, so a refusal writes nothing.
  if (edits.length) configAfter(setup, edits);
  if (Object.keys(env).length) dotenvWith("", env);
  if (Object.keys(env).length) await writeDotenv(setup, env);
  if (edits.length) await writeConfigEdits(setup, edits);
}

/** The result after storing: what was stored, and what is still missing. */
function stored(needs: SetupNeeds, missing: string[], { env, values }: Answers): SetupResult {
  const answered = (line: string) => {
    const name = line.split(" ")[0];
    return Object.hasOwn(env, name) || Object.hasOwn(values, name);
  };
  const names = [...Object.keys(env), ...Object.keys(values)];
  return {
    success: true,
    name: needs.name,
    storedEnv: Object.keys(env),
    storedConfig: Object.keys(values),
    stillMissing: missing.filter((line) => !answered(line)),
    message: names.length
      ? `Stored ${names.join(", ")} for '${needs.name}'.`
      : `Nothing stored for '${needs.name}'.`,
  };
}
