/**
 * Skills an MCP client created or changed ([RUN-3]): `skill_manage` (through `mcp
 * --allow-writes`, applied at once) records the skill folder it wrote in one file of the
 * local root, `skills/.agent_written.json`, under its lock through the atomic writer. A
 * local skill so marked is no longer the user's own: `run` at the CLI asks before its
 * scripts run, as for a hub skill's, and an approval is needed anew after every change.
 * A mark stays until the file is removed by the user.
 *
 * @module
 */
import { isInside, joinPath, realPathOrUndefined } from "../home/paths.ts";
import { atomicWriteJson } from "./atomic.ts";
import { lockedWritePaths, withLock } from "./mutex.ts";
import { isMapping } from "../mapping.ts";
import { ValidationError } from "../errors.ts";

/** The marks file of a local root. */
export function agentWrittenFile(localRoot: string): string {
  return joinPath(localRoot, ".agent_written.json");
}

/** Every path recording a mark writes (inside the local root: MCP's write grant). */
export function agentWrittenPaths(localRoot: string): string[] {
  return lockedWritePaths(agentWrittenFile(localRoot));
}

/**
 * The skill folders marked (real paths): none when the file is absent, undefined when it is
 * there but holds no marks (a folder, a link to nowhere, not JSON) — unknown.
 */
function readMarks(localRoot: string): string[] | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(agentWrittenFile(localRoot));
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? [] : undefined;
  }
  try {
    const data: unknown = JSON.parse(text);
    const list = isMapping(data) ? data.skills : undefined;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : undefined;
  } catch {
    return undefined;
  }
}

/** The skill folders marked (real paths); none when the file is absent or unreadable. */
export function readAgentWritten(localRoot: string): string[] {
  return readMarks(localRoot) ?? [];
}

/**
 * Whether `skillDir` (real) is, holds or lies in a folder an MCP client wrote — or the marks
 * file is there but cannot be read as marks: what is unknown is not the user's own.
 */
export function isAgentWritten(localRoot: string, skillDir: string): boolean {
  const marks = readMarks(localRoot);
  return marks === undefined ||
    marks.some((dir) => isInside(dir, skillDir) || isInside(skillDir, dir));
}

/** Marks the skill folder `skillDir` as written by an MCP client. */
export async function markAgentWritten(localRoot: string, skillDir: string): Promise<void> {
  const dir = realPathOrUndefined(skillDir) ?? skillDir;
  const file = agentWrittenFile(localRoot);
  await withLock(file, () => {
    const marks = readMarks(localRoot);
    if (marks === undefined) {
      throw new ValidationError(
        `'${file}' does not hold marks of what MCP clients wrote; fix it or remove it (every local skill's scripts then ask first) before one writes again.`,
      );
    }
    const kept = marks.filter((d) => d !== dir);
    atomicWriteJson(file, { skills: [...kept, dir].sort() });
  });
}
