/**
 * The severities of the guard scanner's findings ([HUB-4]), worst first.
 *
 * @module
 */

/** How bad a finding is: `critical` makes a skill dangerous, `high` makes it caution. */
export type RuleSeverity = "critical" | "high" | "medium" | "low";
