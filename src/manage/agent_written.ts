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
import { SkillrtError } from "../errors.ts";

/** The marks file of a local root. */
export function agentWrittenFile(localRoot: string): string {
  return joinPath(localRoot, ".agent_written.json");
}

/** Every path recording a mark writes (inside the local root: MCP's write grant). */
export function agentWrittenPaths(localRoot: string): string[] {
  return lockedWritePaths(agentWrittenFile(localRoot));
}

/** The skill folders marked (real paths); none when the file is absent or unreadable. */
export function readAgentWritten(localRoot: string): string[] {
  try {
    const data: unknown = JSON.parse(Deno.readTextFileSync(agentWrittenFile(localRoot)));
    const list = isMapping(data) ? data.skills : undefined;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Whether `skillDir` (real) is, holds or lies in a folder an MCP client wrote — or the marks
 * file is there but cannot be read as marks: what is unknown is not the user's own.
 */
export function isAgentWritten(localRoot: string, skillDir: string): boolean {
  if (!marksReadable(localRoot)) return true;
  return readAgentWritten(localRoot).some((dir) =>
    isInside(dir, skillDir) || isInside(skillDir, dir)
  );
}

/** Whether the marks file is absent or holds marks. */
function marksReadable(localRoot: string): boolean {
  let text: string;
  try {
    text = Deno.readTextFileSync(agentWrittenFile(localRoot));
  } catch (error) {
    return error instanceof Deno.errors.NotFound;
  }
  try {
    const data: unknown = JSON.parse(text);
    return isMapping(data) && Array.isArray(data.skills);
  } catch {
    return false;
  }
}

/** Marks the skill folder `skillDir` as written by an MCP client. */
export async function markAgentWritten(localRoot: string, skillDir: string): Promise<void> {
  const dir = realPathOrUndefined(skillDir) ?? skillDir;
  const file = agentWrittenFile(localRoot);
  await withLock(file, () => {
    if (!marksReadable(localRoot)) {
      throw new SkillrtError(
        `'${file}' does not hold marks of what MCP clients wrote; fix it or remove it (every local skill's scripts then ask first) before one writes again.`,
      );
    }
    const kept = readAgentWritten(localRoot).filter((d) => d !== dir);
    atomicWriteJson(file, { skills: [...kept, dir].sort() });
  });
}
