/**
 * Whether a listen address is loopback ([T-3]): on its own, so the warden checks `--host`
 * without loading the MCP SDK behind `src/mcp/http.ts`.
 *
 * @module
 */

/** True for a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
