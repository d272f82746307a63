/**
 * The work dir of a command that runs skills' scripts ([RUN-1]): `run --workdir DIR` (the
 * current folder by default) and `mcp --allow-run --workdir DIR`, read by its plan.
 *
 * @module
 */
import { realPathOrUndefined, resolvePath } from "../home/paths.ts";
import { repositoryMarks } from "../run/kept_places.ts";
import type { CommandRequest } from "../worker/request.ts";

/**
 * The work dir a `run` request reads (the Worker proves it real and a folder, and in no
 * repository: `kept_places.ts`; the script writes it), first, then what that check reads.
 */
export function workDirPaths(options: CommandRequest["options"], cwd: string): string[] {
  const dir = resolvePath(
    cwd,
    typeof options.workdir === "string" ? options.workdir : ".",
  );
  const real = realPathOrUndefined(dir) ?? dir;
  return [real, ...repositoryMarks(real)];
}

/** The work dir of `mcp --allow-run [--workdir DIR]`'s scripts; undefined without `--allow-run`. */
export function runWorkDir(options: CommandRequest["options"], cwd: string): string | undefined {
  return options.allowRun === true ? workDirPaths(options, cwd)[0] : undefined;
}
