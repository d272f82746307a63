/**
 * Command modules a Worker entry registers before its first message: the one way a row's
 * `load` reaches a module its Worker's graph holds but the warden's and the other Workers'
 * graphs do not. `mcp` is the one: its module pulls in the MCP SDK (about ninety npm
 * packages), which `list` or `--help` must not download on a fresh machine; only
 * `src/cli/mcp_worker.ts` registers it.
 *
 * @module
 */
import { SkillrtError } from "../errors.ts";
import type { CommandModule } from "./command_row.ts";

const registered = new Map<string, CommandModule>();

/** Registers the module of `command` in this Worker. */
export function registerModule(command: string, module: CommandModule): void {
  registered.set(command, module);
}

/**
 * The registered module of `command`.
 * @throws {SkillrtError} when this Worker's entry did not register it.
 */
export function registeredModule(command: string): Promise<CommandModule> {
  const module = registered.get(command);
  if (module === undefined) {
    return Promise.reject(new SkillrtError(`'${command}' runs only in its own Worker.`));
  }
  return Promise.resolve(module);
}
