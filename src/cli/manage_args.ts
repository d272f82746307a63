/**
 * Turning a parsed management command into a {@linkcode ManageAction} — shared by the
 * warden's plan step and the command itself, so both see the same action.
 *
 * @module
 */
import type { ManageAction } from "../manage/actions.ts";
import { UsageError } from "../errors.ts";
import type { CommandRequest } from "../worker/request.ts";
import { SKELETON_DIRS, skeletonSkill } from "../manage/skeleton_skill.ts";

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The members `--skills a,b` names (commas, spaces around them dropped). */
export function skillList(value: unknown): string[] | undefined {
  if (typeof value !== "string") return undefined;
  return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function bundleActionOf(request: CommandRequest): ManageAction {
  const [action, name] = request.args;
  if (name === undefined) throw new UsageError(`'bundle ${action}' needs a bundle name.`);
  const o = request.options;
  const text = {
    ...(str(o.description) !== undefined ? { description: str(o.description) } : {}),
    ...(str(o.instruction) !== undefined ? { instruction: str(o.instruction) } : {}),
  };
  const skills = skillList(o.skills);
  if (action === "create") {
    return { action: "bundle-create", name, skills: skills ?? [], ...text, actor: "user" };
  }
  if (action === "edit") {
    return {
      action: "bundle-edit",
      name,
      ...(skills !== undefined ? { skills } : {}),
      ...text,
      actor: "user",
    };
  }
  return { action: "bundle-delete", name, actor: "user" };
}

/** The action a management request asks for; the CLI's actor is the user. */
export function actionOf(request: CommandRequest): ManageAction {
  if (request.command === "bundle") return bundleActionOf(request);
  if (request.command === "init") {
    const [name] = request.args;
    const category = str(request.options.category);
    return {
      action: "create",
      name,
      content: skeletonSkill(name, str(request.options.description)),
      ...(category !== undefined ? { category } : {}),
      dirs: [...SKELETON_DIRS],
      actor: "user",
    };
  }
  return { ...skillActionOf(request), actor: "user" };
}

function skillActionOf(request: CommandRequest): ManageAction {
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
