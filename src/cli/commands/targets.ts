/**
 * The first step of every writing command ([X-1]); for now in `hub_targets.ts`.
 *
 * @module
 */
export { run } from "./hub_targets.ts";
