/**
 * A source string read with the home's settings ([HUB-1], [T-4]): its GitHub base, codeload
 * host and token variable, its well-known indexes; and what the sandbox plan grants a
 * parsed source — hosts, programs, and the one environment variable a GitHub token is
 * read from.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";
import type { HomeLayout } from "../home/layout.ts";
import { parseSource, type Source } from "./source.ts";
import { configuredIndexes } from "./well_known.ts";

/** What the sandbox plan grants a source: hosts, programs and environment variable names. */
export interface SourceNeeds {
  /** Hosts it may reach. */
  net: string[];
  /** Programs it may run. */
  run: string[];
  /** Environment variables it may read: only the GitHub token's name ([T-4]). */
  env: string[];
}

/** The hosts, programs and variables a source needs: what the sandbox plan grants for it. */
export function sourceNeeds(source: Source): SourceNeeds {
  if (source.kind === "http") return { net: [source.host], run: [], env: [] };
  if (source.kind === "github") {
    return { net: source.hosts, run: [], env: source.tokenEnv ? [source.tokenEnv] : [] };
  }
  if (source.kind === "well-known") return { net: source.hosts, run: [], env: [] };
  if (source.kind === "git") return { net: [], run: ["git"], env: [] };
  return { net: [], run: [], env: [] };
}

/** Adds `more` to `into`, each list without repeats. */
export function addNeeds(into: SourceNeeds, more: SourceNeeds): SourceNeeds {
  into.net = [...new Set([...into.net, ...more.net])];
  into.run = [...new Set([...into.run, ...more.run])];
  into.env = [...new Set([...into.env, ...more.env])];
  return into;
}

/**
 * `skills.hub.github_token_env`: the name of the variable a GitHub token is read from
 * ([T-4]; never the token itself), or undefined when unset.
 * @throws {SkillrtError} for a value that is not a variable name.
 */
export function githubTokenEnv(setup: HomeLayout): string | undefined {
  const name = setup.config.hub.github_token_env;
  if (name === undefined || name === null || name === "") return undefined;
  // Upper case only: a token (`ghp_…`, `github_pat_…`) is never taken for a name.
  if (typeof name !== "string" || !/^[A-Z_][A-Z0-9_]*$/.test(name)) {
    throw new ValidationError(
      "skills.hub.github_token_env must name an environment variable (e.g. GITHUB_TOKEN), never hold the token.",
    );
  }
  return name;
}

/** Parses a source with the home's GitHub base and well-known indexes (`index` overrides them). */
export function sourceOf(setup: HomeLayout, raw: string, index?: string): Source {
  const { github_base: base, github_codeload: codeload } = setup.config.hub;
  const tokenEnv = githubTokenEnv(setup);
  const github = {
    base: typeof base === "string" ? base : "https://api.github.com",
    ...(typeof codeload === "string" ? { codeload } : {}),
    ...(tokenEnv !== undefined ? { tokenEnv } : {}),
  };
  return parseSource(raw, github, configuredIndexes(setup, index));
}
