/**
 * The hub ([HUB-1..8], [SY-1] in SPEC.md): sources, the guard scanner and its rules, the
 * trust policy, installs through the quarantine, the lock and the hash-chained audit log,
 * checks and updates, well-known indexes, and the bundled-skills sync.
 *
 * @example
 * ```ts
 * import { scanFolder } from "@skillrt/skillrt/hub";
 *
 * const report = scanFolder("examples/home/skills/hello"); // a folder you downloaded
 * console.log(report.verdict, report.findings.length);
 * ```
 *
 * @module
 */
export {
  type ScanFinding,
  scanFolder,
  type ScanReport,
  scanText,
  type Verdict,
  verdictOf,
} from "../scanner/scanner.ts";
export {
  ALL_RULES,
  type Judge,
  type Rule,
  type RuleCategory,
  type RuleSeverity,
  type Sequence,
} from "./rules.ts";
export type { FindingContext } from "../scanner/context.ts";
export type { ScanTextOptions } from "../scanner/engine.ts";
export type { ScanBudget } from "../scanner/bounds.ts";
export {
  type Consent,
  decide,
  type Decision,
  POLICY,
  type PolicyAction,
  type SourceTrustFacts,
  type Trust,
  trustOf,
} from "./policy.ts";
export { type AuditCheck, type AuditEvent, verifyAudit } from "./audit.ts";
export { type InstallOptions, type InstallResult, installSkill } from "./install.ts";
export {
  type InstalledSkill,
  listInstalled,
  uninstall,
  type VerifiedSkill,
  verifyInstalled,
} from "./installed.ts";
export type { AuditHead, LockDocument, LockRecord } from "./lockfile.ts";
export { hashFolder } from "./content_hash.ts";
export {
  type CheckedSkill,
  checkInstalled,
  type CheckStatus,
  updateInstalled,
  type UpdateOptions,
} from "./check.ts";
export { folderMd5, syncBundled, type SyncResult } from "./sync.ts";
export { type GitHubBase, parseSource, type Source } from "./source.ts";
export type { ArchiveFile } from "./archive.ts";
export {
  configuredIndexes,
  fetchWellKnown,
  type SearchHit,
  searchIndexes,
  type SearchResult,
  verifyAgainstIndex,
  type WellKnownSkill,
} from "./well_known.ts";
export {
  type ArtifactType,
  DISCOVERY_SCHEMA,
  type IndexArtifact,
  type IndexFile,
  type IndexSkill,
  indexUrl,
  parseIndex,
  skillDigest,
  type WellKnownIndex,
} from "./well_known_index.ts";
export {
  generateKeyPair,
  parseKeyLine,
  type SignatureCheck,
  signBytes,
  trustedKeysOf,
  verifySignature,
} from "./signing.ts";
export { type PublishOptions, type PublishResult, publishSite } from "./publish.ts";
