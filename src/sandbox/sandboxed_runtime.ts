/**
 * `openSandboxedRuntime()` ([X-4]): the library's way to run skill parsing in a Worker
 * with a computed plan, the same way the CLI does. Each call runs in a fresh Worker.
 *
 * @module
 */
import type { CommandRequest } from "../worker/request.ts";
import { errorOfCode, SkillrtError } from "../errors.ts";
import type { FileResult } from "../files/file_view.ts";
import type { ListResult } from "../level0/list.ts";
import type { PromptResult } from "../level0/prompt.ts";
import { type HomeLayout, resolveHomeLayout } from "../home/layout.ts";
import type { RuntimeOptions } from "../runtime.ts";
import type { ViewResult } from "../view/view.ts";
import type { InvokeResult } from "../view/invoke.ts";
import type { PermissionPlan } from "../warden/plan.ts";
import { planFor, preloads } from "../cli/plan_for.ts";
import { runInWorker } from "../warden/run_worker.ts";
import { CLI_HOST } from "../cli/worker_host.ts";

/** A runtime whose every call runs in a sandbox Worker. */
export interface SandboxedRuntime {
  /** The setup the plans are computed from. */
  readonly setup: HomeLayout;
  /** The plan a command's Worker gets. */
  plan(command: string): PermissionPlan;
  /** Level 0 ([L0-1]); with `all`, the hidden skills too, each with `hidden` ([L0-9]). */
  list(options?: { category?: string; all?: boolean }): Promise<ListResult>;
  /** Ranked search ([L0-7]). */
  search(query: string): Promise<ListResult>;
  /** Level 1 ([V-1]); with `brief` or `sections`, only that part ([V-8]). */
  view(
    name: string,
    options?: { strict?: boolean; args?: string; brief?: boolean; sections?: string[] },
  ): Promise<ViewResult>;
  /** The slash-command invocation message ([V-7]). */
  invoke(
    name: string,
    instruction?: string,
    options?: { strict?: boolean; args?: string },
  ): Promise<InvokeResult>;
  /** Level 2 ([F-3]). */
  viewFile(name: string, path: string): Promise<FileResult>;
  /** The Level-0 prompt block ([L0-8]), then the preloaded skills ([L0-10]). */
  prompt(
    options?: { format?: "xml" | "markdown" | "json"; budgetChars?: number; preload?: string[] },
  ): Promise<PromptResult>;
}

/** Runs one command of the library in a Worker holding its plan; its typed result, or its error again. */
async function callInWorker<T>(
  setup: HomeLayout,
  options: RuntimeOptions,
  command: string,
  args: string[],
  opts: CommandRequest["options"] = {},
): Promise<T> {
  const request: CommandRequest = {
    command,
    args,
    options: opts,
    global: {
      json: true,
      typed: true,
      color: false,
      platform: options.platform,
      sessionId: options.sessionId,
      toolsets: options.toolsets,
      tools: options.tools,
    },
  };
  const plan = planFor(command, setup, [], [], preloads(request));
  const outcome = await runInWorker({ request, setup, plan }, CLI_HOST);
  const doc = outcome.result;
  if (doc === undefined) {
    // The Worker failed before the command could answer: its one line on stderr.
    throw new SkillrtError(
      outcome.stderr.trim().replace(/^skillrt: /, "") || "The sandbox returned no result.",
      {},
      outcome.exitCode || 1,
    );
  }
  if (doc.success === false) {
    const { error, success: _s, ...details } = doc;
    throw errorOfCode(outcome.code, String(error), details, outcome.exitCode);
  }
  return doc as T;
}

/** Opens a runtime that runs each call in a Worker holding only that call's plan. */
export function openSandboxedRuntime(options: RuntimeOptions = {}): SandboxedRuntime {
  const setup = options.setup ?? resolveHomeLayout(options);
  const call = <T>(command: string, args: string[], opts: CommandRequest["options"] = {}) =>
    callInWorker<T>(setup, options, command, args, opts);
  return {
    setup,
    plan: (command) => planFor(command, setup),
    list: (o = {}) => call("list", [], { category: o.category, all: o.all }),
    search: (query) => call("search", [query]),
    view: (name, o = {}) =>
      call("view", [name], {
        strict: o.strict,
        args: o.args,
        brief: o.brief,
        section: o.sections,
      }),
    invoke: (name, instruction, o = {}) =>
      call("invoke", instruction === undefined ? [name] : [name, instruction], {
        strict: o.strict,
        args: o.args,
      }),
    viewFile: (name, path) => call("view", [name, path]),
    prompt: (o = {}) =>
      call("prompt", [], {
        format: o.format,
        budgetChars: o.budgetChars,
        preload: o.preload?.join(","),
      }),
  };
}
