/**
 * Trust and install policy ([HUB-5]): a pure table from (trust, verdict) to
 * allow / block / ask, and the rules for `--force` and `--yes`.
 *
 * @module
 */
import type { Verdict } from "../scanner/scanner.ts";

/** How much a source is trusted. */
export type Trust = "builtin" | "trusted" | "local" | "community";
/** What the policy says before confirmations. */
export type PolicyAction = "allow" | "block" | "ask";

/** Repositories whose skills are `trusted` ([HUB-5]). */
export const TRUSTED_REPOSITORIES: readonly string[] = [
  "openai/skills",
  "anthropics/skills",
  "huggingface/skills",
];

// deno-fmt-ignore
/** The policy table of [HUB-5]: rows are trust levels, columns safe / caution / dangerous. */
export const POLICY: Readonly<Record<Trust, Readonly<Record<Verdict, PolicyAction>>>> = {
  builtin:   { safe: "allow", caution: "allow", dangerous: "allow" },
  trusted:   { safe: "allow", caution: "allow", dangerous: "block" },
  local:     { safe: "allow", caution: "allow", dangerous: "ask" },
  community: { safe: "allow", caution: "block", dangerous: "block" },
};

/** A source as far as trust goes. */
export interface SourceTrustFacts {
  /** `official` for the agent's own bundled skills. */
  kind: "official" | "local-folder" | "repository" | "other";
  /** `owner/repo` for repository sources. */
  repository?: string;
}

/** The trust of a source ([HUB-5]). */
export function trustOf(source: SourceTrustFacts): Trust {
  if (source.kind === "official") return "builtin";
  if (source.kind === "local-folder") return "local";
  if (source.repository && TRUSTED_REPOSITORIES.includes(source.repository.toLowerCase())) {
    return "trusted";
  }
  return "community";
}

/** What the user said on the command line and at the terminal. */
export interface Consent {
  /** `--force`. */
  force: boolean;
  /** `--yes`. */
  yes: boolean;
  /** A yes typed at the terminal (undefined when there is no terminal to ask). */
  typedYes?: boolean;
}

/** The decision and the sentence that explains it. */
export interface Decision {
  /** Install or not. */
  install: boolean;
  /** Why, in one sentence. */
  reason: string;
}

/**
 * Decides an install ([HUB-5]): `--force` overrides `block` except for `dangerous` from
 * community and trusted sources; `ask` needs a yes typed at the terminal or `--force`
 * (`--yes` alone does not satisfy it).
 */
export function decide(trust: Trust, verdict: Verdict, consent: Consent): Decision {
  const action = POLICY[trust][verdict];
  if (action === "allow") {
    return { install: true, reason: `Policy allows a ${verdict} skill from a ${trust} source.` };
  }
  if (action === "block") {
    if (verdict === "dangerous" && (trust === "community" || trust === "trusted")) {
      return {
        install: false,
        reason:
          `Blocked: a dangerous skill from a ${trust} source is never installed, not even with --force.`,
      };
    }
    if (consent.force) {
      return {
        install: true,
        reason: `Policy blocks a ${verdict} skill from a ${trust} source; --force overrides it.`,
      };
    }
    return {
      install: false,
      reason:
        `Blocked: policy refuses a ${verdict} skill from a ${trust} source (use --force to override).`,
    };
  }
  if (consent.force) {
    return {
      install: true,
      reason: `A ${verdict} skill from a ${trust} source needs confirmation; --force gives it.`,
    };
  }
  if (consent.typedYes) {
    return {
      install: true,
      reason: `A ${verdict} skill from a ${trust} source was confirmed at the terminal.`,
    };
  }
  return {
    install: false,
    reason:
      `A ${verdict} skill from a ${trust} source needs a yes typed at the terminal or --force (--yes alone is not enough).`,
  };
}
