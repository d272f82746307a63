/**
 * Turning a parsed management command into a {@linkcode ManageAction} — shared by the
 * warden's plan step and the command itself, so both see the same action.
 *
 * @module
 */
import type { ManageAction } from "../manage/actions.ts";
import { UsageError } from "../errors.ts";
import type { CommandRequest } from "./request.ts";
import { MANAGE_COMMANDS } from "../sandbox/plan.ts";

export { MANAGE_COMMANDS };

/** Commands that take content from `--file` or stdin. */
export const CONTENT_COMMANDS: readonly string[] = ["create", "edit", "write-file"];

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The action a management request asks for. */
export function actionOf(request: CommandRequest): ManageAction {
  const [name, path] = request.args;
  const o = request.options;
  const content = str(o.content) ?? "";
  switch (request.command) {
    case "create":
      return {
        action: "create",
        name,
        content,
        ...(str(o.category) !== undefined ? { category: str(o.category) } : {}),
      };
    case "edit":
      return { action: "edit", name, content };
    case "patch":
      return {
        action: "patch",
        name,
        old: str(o.old) ?? "",
        new: str(o.new) ?? "",
        ...(str(o.filePath) !== undefined ? { file_path: str(o.filePath) } : {}),
        ...(o.replaceAll === true ? { replace_all: true } : {}),
      };
    case "delete":
      return {
        action: "delete",
        name,
        ...(str(o.absorbedInto) !== undefined ? { absorbed_into: str(o.absorbedInto) } : {}),
      };
    case "write-file":
      return {
        action: "write-file",
        name,
        path,
        content,
        encoding: o.encoding === "base64" ? "base64" : "utf8",
      };
    case "remove-file":
      return { action: "remove-file", name, path };
  }
  throw new UsageError(`'${request.command}' is not a management command.`);
}
