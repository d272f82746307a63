/**
 * Scanning with a helper thread (SPEC §19): this thread reads the top of each root, and
 * every folder there becomes a unit of work (`walk_shared.ts`) that this thread and a
 * scan helper Worker (`scan_helper.ts`) take in turn through a shared counter, each
 * walking its units and reading their skills' heads. The helper is asked for only once a
 * scan has found a batch of skills, so a small home never pays for one; the units are
 * posted to it then, and it takes what is left. The results are put back together in
 * walk order, so the scan is exactly that of `scanRoot` (a root whose links could make
 * two units meet is walked again by this thread alone).
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import type { ScannedRoot } from "./scanned.ts";
import { scanRoot } from "./scan_root.ts";
import { aboutOf, type SkillRecord } from "./record.ts";
import { invocationOf } from "./invocation.ts";
import type { FoundSkill, WalkLimits } from "./walk.ts";
import { joinPath } from "../home/paths.ts";
import { mergeRoot, planRoot, type UnitDone, type UnitTask, walkUnit } from "./walk_shared.ts";

/** A scan helper Worker, reached through a message port. */
export interface ScanHelper {
  /** The port to the helper (messages posted before it is up wait in the port). */
  port: MessagePort;
  /** Settles when the helper has failed: its units are then walked here. */
  failed?: Promise<unknown>;
  /**
   * Test hook: once the helper is asked for, it walks every unit left and this thread
   * none (or, should it fail, all it left), so that a test sees the helper's records.
   */
  takesAll?: boolean;
}

let helperUnits = 0;

/**
 * Diagnostic counter: the units scan helpers have walked and answered to this isolate
 * (their records were used), since it started.
 */
export function helperUnitsWalked(): number {
  return helperUnits;
}

/**
 * Gets a scan helper when a scan turns out to be worth one; undefined: scan alone.
 * `started`: true when a helper is already on its way (the warden started it with the
 * command's Worker), so the scan hands it units from the start.
 */
export type HelperSource = (() => ScanHelper | undefined) & { started?: () => boolean };

/** Messages to the helper: the units and the counter they are claimed through, then `done`. */
export type ToHelper = { kind: "units"; claims: Int32Array; tasks: UnitTask[] } | {
  kind: "done";
};

/**
 * The helper's answer for one unit it walked: as JSON text of {@linkcode UnitJson} when
 * JSON carries it exactly (parsing it costs this thread a fraction of a structured clone),
 * else the result itself (a frontmatter holding NaN, say).
 */
export type HelperResult = { id: number; json: string } | { id: number; done: UnitDone };

/** A unit's result as JSON carries it: its folders as `[dir, rel]`, slim records, the rest. */
type UnitJson = [
  [string, string][],
  SlimRecord[],
  Omit<UnitDone, "skills" | "records">,
];

/**
 * What of a record its folder and root do not already say: name, description, category, tags,
 * related skills, frontmatter and diagnostics (the paths, root and kind come from the unit).
 */
export type SlimRecord = [
  string,
  string,
  string | null,
  string[],
  string[],
  SkillRecord["frontmatter"],
  SkillRecord["diagnostics"],
];

/** The part of a record its folder and root do not say. */
export function slimRecord(r: SkillRecord): SlimRecord {
  return [
    r.name,
    r.description,
    r.category,
    r.tags,
    r.relatedSkills,
    r.frontmatter,
    r.diagnostics,
  ];
}

/** The whole record of the skill in folder `found` of a root, as `readRecord` builds it. */
export function wholeRecord(
  root: { root: string; source: SkillRecord["source"]; namespace?: string },
  found: FoundSkill,
  slim: SlimRecord,
): SkillRecord {
  const { dir, rel } = found;
  const [name, description, category, tags, relatedSkills, frontmatter, diagnostics] = slim;
  return {
    name,
    description,
    category,
    tags,
    relatedSkills,
    path: rel,
    skillDir: dir,
    file: joinPath(dir, "SKILL.md"),
    root: root.root,
    source: root.source,
    ...(root.namespace ? { namespace: root.namespace } : {}),
    about: aboutOf(frontmatter), // derived from the frontmatter, so not sent
    invocation: invocationOf(frontmatter),
    frontmatter,
    diagnostics,
  };
}

/** True when JSON gives back exactly this value: no dates, `undefined`, NaN, -0 or class instances. */
export function survivesJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(survivesJson);
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!survivesJson((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * The helper's answer for a unit it walked. Only the frontmatter needs checking: every
 * other field is text, lists of text, numbers or our own diagnostics.
 */
export function helperResult(id: number, done: UnitDone): HelperResult {
  if (!done.records.every((r) => survivesJson(r.frontmatter))) return { id, done };
  const { skills, records, ...rest } = done;
  const json: UnitJson = [skills.map((s) => [s.dir, s.rel]), records.map(slimRecord), rest];
  return { id, json: JSON.stringify(json) };
}

/** A unit's result from the helper's answer. */
export function unitOf(task: UnitTask, result: HelperResult): UnitDone {
  if ("done" in result) return result.done;
  const [found, slim, rest] = JSON.parse(result.json) as UnitJson;
  const skills = found.map(([dir, rel]) => ({ dir, rel }));
  const records = slim.map((s, i) => wholeRecord(task, skills[i], s));
  return { skills, records, ...rest };
}

/** Skills a scan finds before it asks for a helper. */
export const BATCH = 256;

/** What {@linkcode scanWithHelper} found, and how the work was shared. */
export interface HelpedScan {
  /** One result per root, exactly as `scanRoot` gives it. */
  roots: ScannedRoot[];
  /** Units in all. */
  units: number;
  /** Units the helper walked. */
  helped: number;
}

/**
 * Scans `roots` with a helper (got from `source` once `batchSize` skills are found)
 * walking and reading alongside; `realRoots` are every root of the setup (by default,
 * `roots`), for [S-9]. `keepDirs`: each scan notes the folders its walk read.
 */
export async function scanWithHelper(
  roots: (Root | PluginRoot)[],
  limits: WalkLimits,
  source: HelperSource,
  batchSize: number = BATCH,
  realRoots: readonly string[] = roots.map((r) => r.path),
  keepDirs = false,
): Promise<HelpedScan> {
  const plans = roots.map((root) => planRoot(root, limits, realRoots, keepDirs));
  const shared = new SharedWalk(plans.flatMap((p) => p.tasks), source, batchSize);
  shared.found = plans.reduce((n, p) => n + p.records.length, 0);
  await shared.walkOwn();
  await shared.drain();
  let start = 0;
  const scanned = plans.map((plan): ScannedRoot => {
    const done = shared.done.slice(start, start += plan.tasks.length) as UnitDone[];
    return mergeRoot(plan, done) ?? scanRoot(plan.root, limits, realRoots, keepDirs);
  });
  return { roots: scanned, units: shared.tasks.length, helped: shared.helped };
}

/**
 * One walk shared with a helper: the units, the counter through which each is claimed by
 * one thread only, and what each thread found.
 */
class SharedWalk {
  readonly claims = new Int32Array(new SharedArrayBuffer(4));
  readonly tasks: UnitTask[];
  /** Each unit's result, by unit number, from whichever thread walked it. */
  readonly done: (UnitDone | undefined)[];
  readonly source: HelperSource;
  readonly batchSize: number;
  /** Skills found so far by this thread. */
  found = 0;
  helped = 0;
  #helper?: ScanHelper;
  #asked = false;
  #wake = () => {};
  #tick?: MessageChannel;

  constructor(tasks: UnitTask[], source: HelperSource, batchSize: number) {
    this.tasks = tasks;
    this.done = new Array(tasks.length).fill(undefined);
    this.source = source;
    this.batchSize = batchSize;
  }

  /**
   * Walks the units this thread claims, asking for the helper once a batch is found; with
   * a helper, it takes in the helper's answers between its own units (not all at the end).
   */
  async walkOwn(): Promise<void> {
    for (;;) {
      if (!this.#asked && (this.found >= this.batchSize || this.source.started?.())) {
        this.#attach();
      }
      if (this.#helper?.takesAll) return;
      const id = Atomics.add(this.claims, 0, 1);
      if (id >= this.tasks.length) return;
      const done = this.done[id] = walkUnit(this.tasks[id]);
      this.found += done.records.length;
      if (this.#helper) await this.#turn();
    }
  }

  /** One turn of the event loop, so that answers waiting in the helper's port are taken in. */
  #turn(): Promise<void> {
    this.#tick ??= new MessageChannel();
    const tick = this.#tick;
    return new Promise((resolve) => {
      tick.port2.onmessage = () => resolve();
      tick.port1.postMessage(0);
    });
  }

  #attach(): void {
    this.#asked = true;
    if (Atomics.load(this.claims, 0) >= this.tasks.length) return;
    const helper = this.#helper = this.source();
    if (!helper) return;
    helper.port.onmessage = (event: MessageEvent<HelperResult>) => {
      const id = event.data.id;
      helperUnits++;
      this.helped++;
      this.done[id] = unitOf(this.tasks[id], event.data);
      this.#wake();
    };
    const message: ToHelper = { kind: "units", claims: this.claims, tasks: this.tasks };
    helper.port.postMessage(message);
  }

  /** Waits for the helper's units (or its failure, then walks them here), then lets it go. */
  async drain(): Promise<void> {
    const helper = this.#helper;
    if (!helper) return;
    let failed = false;
    helper.failed?.then(() => {
      failed = true;
      this.#wake();
    });
    while (!failed && this.done.includes(undefined)) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    helper.port.onmessage = null;
    // The helper is not needed any more: closing it now frees its memory before the output.
    helper.port.postMessage({ kind: "done" } satisfies ToHelper);
    this.#tick?.port1.close();
    this.#tick?.port2.close();
    this.done.forEach((d, id) => d ?? (this.done[id] = walkUnit(this.tasks[id])));
  }
}
