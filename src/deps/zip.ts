// deno-lint-ignore-file no-import-prefix -- full npm: specifiers, so the module imports with no import map ([C-7])
/**
 * The one place skillrt touches its zip library (fflate from npm).
 *
 * @module
 */
import { inflateSync } from "npm:fflate@^0.8";

/** Inflates raw DEFLATE data (zip method 8), stopping at `limit` output bytes. */
export function inflateRaw(data: Uint8Array, size: number): Uint8Array {
  return inflateSync(data, { out: new Uint8Array(size) });
}
