/**
 * Scanning with a helper thread (SPEC §19): this thread walks the roots and, as it finds
 * skill folders, posts them in batches to a scan helper Worker (`scan_helper.ts`) that
 * reads and parses their heads at the same time. The helper is asked for only when the
 * first batch is full, so a small home never pays for one; batches posted before it is
 * up wait in its port. When the walk is done, this thread reads the batches the helper
 * has not started, last first, so the two meet in the middle. Each batch is claimed once
 * through a shared array, and the records come back in walk order, so the result is
 * exactly that of `scanRoot`.
 *
 * @module
 */
import type { PluginRoot, Root } from "../home/layout.ts";
import type { ScannedRoot } from "./scanned.ts";
import { reachOf } from "./containment.ts";
import { readRecord, rootSource } from "./scan_root.ts";
import { aboutOf, type SkillRecord } from "./record.ts";
import { invocationOf } from "./invocation.ts";
import { type FoundSkill, type WalkLimits, type WalkResult, walkRoot } from "./walk.ts";
import { joinPath } from "../home/paths.ts";

/** A scan helper Worker, reached through a message port. */
export interface ScanHelper {
  /** The port to the helper (messages posted before it is up wait in the port). */
  port: MessagePort;
  /** Settles when the helper has failed: its batches are then read here. */
  failed?: Promise<unknown>;
  /**
   * Test hook: the helper reads every batch it is sent, and this thread only those it is
   * not sent (or, should it fail, all it left), so that a test sees the helper's records.
   */
  takesAll?: boolean;
}

let helperBatches = 0;

/**
 * Diagnostic counter: the batches scan helpers have read and answered to this isolate
 * (their records were used), since it started.
 */
export function helperBatchesParsed(): number {
  return helperBatches;
}

/** Gets a scan helper when a scan turns out to be worth one; undefined: scan alone. */
export type HelperSource = () => ScanHelper | undefined;

/** A batch the helper is asked to read: skill folders of one root. */
export interface HelperBatch {
  /** Always `batch`. */
  kind: "batch";
  /** The batch number (its slot in the claims array). */
  id: number;
  /** The root the folders are in. */
  root: string;
  /** The root's kind. */
  source: SkillRecord["source"];
  /** The plugin namespace, for plugin roots. */
  namespace?: string;
  /** The real paths of every root of the setup, for [S-9] (this root alone when absent). */
  realRoots?: readonly string[];
  /** The skill folders found. */
  items: FoundSkill[];
}

/** Messages to the helper: the claims array once, then batches, then `done` (it closes). */
export type ToHelper = { kind: "claims"; claims: Int32Array } | HelperBatch | { kind: "done" };

/**
 * The helper's answer for one batch it claimed: the records as JSON text of
 * {@linkcode SlimRecord}s when JSON carries them exactly (parsing it costs this thread a
 * fraction of a structured clone), else the records themselves (a frontmatter holding
 * NaN, say).
 */
export type HelperResult = { id: number; json: string } | { id: number; records: SkillRecord[] };

/**
 * What of a record the batch does not already say: name, description, category, tags,
 * related skills, frontmatter and diagnostics (the paths, root and kind come from the batch).
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

/** The part of a record the batch does not say. */
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

/** The whole record of the `i`th folder of a batch, as `readRecord` builds it. */
export function wholeRecord(batch: HelperBatch, i: number, slim: SlimRecord): SkillRecord {
  const { dir, rel } = batch.items[i];
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
    root: batch.root,
    source: batch.source,
    ...(batch.namespace ? { namespace: batch.namespace } : {}),
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
 * The helper's answer for a batch it read. Only the frontmatter needs checking: every
 * other field of a record is text, lists of text or our own diagnostics.
 */
export function helperResult(id: number, records: SkillRecord[]): HelperResult {
  return records.every((r) => survivesJson(r.frontmatter))
    ? { id, json: JSON.stringify(records.map(slimRecord)) }
    : { id, records };
}

/** Claim values: free, taken by the helper, taken by this thread. */
export const FREE = 0, HELPER = 1, OWN = 2;
/** Skill folders per batch. */
export const BATCH = 256;
/** Batches the claims array has room for; later ones are read here. */
const MAX_BATCHES = 1 << 14;

/** Reads the records of a batch (in either thread). */
export function readBatch(batch: HelperBatch): SkillRecord[] {
  return batch.items.map((s) =>
    readRecord(s.dir, s.rel, batch.root, batch.source, batch.namespace, batch.realRoots)
  );
}

/** What {@linkcode scanWithHelper} found, and how the work was shared. */
export interface HelpedScan {
  /** One result per root, exactly as `scanRoot` gives it. */
  roots: ScannedRoot[];
  /** Batches in all. */
  batches: number;
  /** Batches the helper read. */
  helped: number;
}

/**
 * Scans `roots` with a helper (got from `source` once a batch is full) reading skill
 * heads alongside; `realRoots` are every root of the setup (by default, `roots`), for [S-9].
 */
export async function scanWithHelper(
  roots: (Root | PluginRoot)[],
  limits: WalkLimits,
  source: HelperSource,
  batchSize: number = BATCH,
  realRoots: readonly string[] = roots.map((r) => r.path),
  keepDirs = false,
): Promise<HelpedScan> {
  const shared = new SharedScan(source, batchSize);
  const walks = roots.map((root) => walkInBatches(root, limits, realRoots, shared, keepDirs));
  shared.readOwn();
  await shared.drain();
  let start = 0;
  const scanned = walks.map(({ walk, end, dirs }): ScannedRoot => {
    const mine = shared.batches.slice(start, end).flatMap((b) => shared.records(b));
    start = end;
    return { records: mine, flat: walk.flat, diagnostics: walk.diagnostics, ...(dirs && { dirs }) };
  });
  return { roots: scanned, batches: shared.batches.length, helped: shared.results.size };
}

/** Walks one root, handing its skill folders to `shared` a batch at a time (and noting its folders). */
function walkInBatches(
  root: Root | PluginRoot,
  limits: WalkLimits,
  realRoots: readonly string[],
  shared: SharedScan,
  keepDirs: boolean,
): { walk: WalkResult; end: number; dirs?: string[] } {
  const dirs: string[] | undefined = keepDirs ? [] : undefined;
  const { source, namespace } = rootSource(root);
  let items: FoundSkill[] = [];
  const flush = () => {
    if (items.length === 0) return;
    shared.add({ kind: "batch", id: 0, root: root.path, source, namespace, realRoots, items });
    items = [];
  };
  const walk = walkRoot(
    root.path,
    root.path,
    limits,
    (found) => {
      items.push(found);
      if (items.length === shared.batchSize) flush();
    },
    reachOf(source, realRoots),
    dirs && ((dir) => dirs.push(dir)),
  );
  flush();
  return { walk, end: shared.batches.length, dirs };
}

/**
 * One scan shared with a helper: the batches, the claims array through which each is read
 * by one thread only, and the records each thread read.
 */
class SharedScan {
  readonly claims = new Int32Array(new SharedArrayBuffer(4 * MAX_BATCHES));
  readonly batches: HelperBatch[] = [];
  /** Records the helper read, by batch. */
  readonly results = new Map<number, SkillRecord[]>();
  /** Records this thread read, by batch. */
  readonly read = new Map<number, SkillRecord[]>();
  readonly source: HelperSource;
  readonly batchSize: number;
  #helper?: ScanHelper;
  #asked = false;
  #sentFrom = MAX_BATCHES; // the first batch posted to the helper
  #wake = () => {};

  constructor(source: HelperSource, batchSize: number) {
    this.source = source;
    this.batchSize = batchSize;
  }

  /** Numbers a batch and keeps it; the first full one asks for the helper, which gets the rest. */
  add(batch: HelperBatch): void {
    batch.id = this.batches.length;
    this.batches.push(batch);
    if (batch.items.length === this.batchSize && !this.#asked) this.#attach(batch.id);
    if (this.#helper && batch.id < MAX_BATCHES) {
      this.#helper.port.postMessage(batch satisfies ToHelper);
    }
  }

  #attach(first: number): void {
    this.#asked = true;
    const helper = this.#helper = this.source();
    if (!helper) return;
    this.#sentFrom = first;
    helper.port.onmessage = (event: MessageEvent<HelperResult>) => {
      const data = event.data;
      const batch = this.batches[data.id];
      helperBatches++;
      this.results.set(
        data.id,
        "json" in data
          ? (JSON.parse(data.json) as SlimRecord[]).map((slim, i) => wholeRecord(batch, i, slim))
          : data.records,
      );
      this.#wake();
    };
    helper.port.postMessage({ kind: "claims", claims: this.claims } satisfies ToHelper);
  }

  /** Reads, last first, every batch this thread claims before the helper does. */
  readOwn(): void {
    const leftToHelper = (id: number) =>
      this.#helper?.takesAll && id >= this.#sentFrom && id < MAX_BATCHES;
    for (let id = this.batches.length - 1; id >= 0; id--) {
      if (leftToHelper(id)) continue;
      if (id >= MAX_BATCHES || Atomics.compareExchange(this.claims, id, FREE, OWN) === FREE) {
        this.read.set(id, readBatch(this.batches[id]));
      }
    }
  }

  /** Waits for the helper's batches (or its failure), then lets the helper go. */
  async drain(): Promise<void> {
    const helper = this.#helper;
    if (!helper) return;
    let failed = false;
    helper.failed?.then(() => {
      failed = true;
      this.#wake();
    });
    while (!failed && this.batches.some((b) => !this.read.has(b.id) && !this.results.has(b.id))) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    helper.port.onmessage = null;
    // The helper is not needed any more: closing it now frees its memory before the output.
    helper.port.postMessage({ kind: "done" } satisfies ToHelper);
  }

  /** A batch's records: whichever thread read them, else read now (the helper failed). */
  records(b: HelperBatch): SkillRecord[] {
    return this.read.get(b.id) ?? this.results.get(b.id) ?? readBatch(b);
  }
}
