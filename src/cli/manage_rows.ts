/**
 * The rows of the command table (`command_table.ts`) of the commands that change one
 * skill through the manager ([M-1], [M-6]): `create`, `init`, `edit`, `patch`, `delete`,
 * `write-file`, `remove-file`. Each writes in the local root — or, with write approval on,
 * into the approval queue ([A-1]) — so each needs both made before it is planned.
 *
 * @module
 */
import type { CommandRow, PlannedLine } from "./command_row.ts";
import type { HomeLayout } from "../home/layout.ts";
import {
  FORCE_WRITE_OPTION,
  PATCH_GRAMMAR,
  SKILL_FILE_OPTION,
  SKILL_NAME_ARGUMENT,
} from "./command_grammar.ts";

/** The local root, and the approval queue when write approval is on. */
export function skillsFolders(_: PlannedLine, setup: HomeLayout): string[] {
  return ["skills", ...(setup.config.write_approval ? ["pending/skills"] : [])];
}

/** The skill commands' rows, in the order help lists them. */
export const MANAGE_ROWS = {
  create: {
    plan: "writes",
    skeleton: skillsFolders,
    content: "skill",
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "create a skill in the local root (content from --file or stdin)",
      arguments: [
        { spec: "<name>", description: "the new skill's name (its folder)" },
      ],
      options: [
        FORCE_WRITE_OPTION,
        { flags: "--category <name>", description: "put it in this category folder" },
        SKILL_FILE_OPTION,
      ],
    },
  },
  init: {
    plan: "writes",
    skeleton: skillsFolders,
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "start a skill: a skeleton SKILL.md with the recommended sections",
      arguments: [
        { spec: "<name>", description: "the new skill's name (its folder)" },
      ],
      options: [
        { flags: "--category <name>", description: "put it in this category folder" },
        { flags: "--description <text>", description: "its description (one line)" },
      ],
    },
  },
  edit: {
    plan: "writes",
    skeleton: skillsFolders,
    content: "skill",
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "replace a skill's SKILL.md (content from --file or stdin)",
      arguments: [
        SKILL_NAME_ARGUMENT,
      ],
      options: [
        FORCE_WRITE_OPTION,
        SKILL_FILE_OPTION,
      ],
    },
  },
  patch: {
    plan: "writes",
    skeleton: skillsFolders,
    load: () => import("./commands/manage.ts"),
    grammar: PATCH_GRAMMAR,
  },
  delete: {
    plan: "writes",
    skeleton: skillsFolders,
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "delete a skill",
      arguments: [
        SKILL_NAME_ARGUMENT,
      ],
      options: [
        {
          flags: "--absorbed-into <name>",
          description: "the skill that now holds what this one did",
          complete: "skill",
        },
      ],
    },
  },
  "write-file": {
    plan: "writes",
    skeleton: skillsFolders,
    content: "file",
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "write a support file (content from --file or stdin)",
      arguments: [
        SKILL_NAME_ARGUMENT,
        { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
      ],
      options: [
        FORCE_WRITE_OPTION,
        {
          flags: "--file <path>",
          description: "read the content from this file instead of stdin",
          complete: "file",
        },
      ],
    },
  },
  "remove-file": {
    plan: "writes",
    skeleton: skillsFolders,
    load: () => import("./commands/manage.ts"),
    grammar: {
      description: "remove a support file",
      arguments: [
        SKILL_NAME_ARGUMENT,
        { spec: "<path>", description: "under references/, templates/, scripts/ or assets/" },
      ],
    },
  },
} satisfies Record<string, CommandRow>;
