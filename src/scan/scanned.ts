/**
 * What one walk of a root yields — its records, legacy flat skills and diagnostics — the
 * unit the catalog, the scan helper and the watched cache keep and pass around.
 *
 * @module
 */
import type { Diagnostic } from "../diagnostics.ts";
import type { SkillRecord } from "./record.ts";
import type { FoundFlat } from "./walk.ts";

/** One scanned root. */
export interface ScannedRoot {
  /** Its skills, in walk order. */
  records: SkillRecord[];
  /** Its legacy flat skills. */
  flat: FoundFlat[];
  /** Walk diagnostics. */
  diagnostics: Diagnostic[];
  /** The folders its walk read, when asked for (a watched cache stamps them, `stamps.ts`). */
  dirs?: string[];
}
