/**
 * The write targets of each `hub` action that writes ([X-1], [X-6]): worked out in the
 * read-only targets step, with the hosts, programs and variables the action needs
 * (`grants`). Each is the `targets` of its action's row in `hub.ts`.
 *
 * @module
 */
import { basename, joinPath, resolvePath } from "../../home/paths.ts";
import { hubRoot } from "../../hub/hub_root.ts";
import { slugForm } from "../../hub/collection.ts";
import { collectionNeeds, configuredCollections, isBareName } from "../../hub/collections.ts";
import { listOf } from "../grammar.ts";
import { NotFoundError, SkillrtError } from "../../errors.ts";
import { installName, installPath } from "../../hub/install.ts";
import { fetchLocal } from "../../hub/fetch.ts";
import { addNeeds, type SourceNeeds, sourceNeeds, sourceOf } from "../../hub/source_of.ts";
import { readLockInput } from "../../hub/lock_input.ts";
import { artifactHosts, configuredIndexes } from "../../hub/well_known.ts";
import type { Source } from "../../hub/source.ts";
import { validateName } from "../../manage/validation.ts";
import { readLockDocument } from "../../hub/lockfile.ts";
import { refetchSource } from "../../hub/check.ts";
import { creationTarget } from "../../manage/apply.ts";
import type { SkillRuntime } from "../../runtime.ts";
import { usageWritePaths } from "../../usage/usage.ts";
import type { CommandRequest } from "../../worker/request.ts";
import type { Grants } from "../context.ts";
import { namedOutputs } from "./hub_plan.ts";

/**
 * A well-known source's needs with its artifact's host ([IO-1]: a v0.2.0 artifact may lie
 * on a CDN), read from its index — which this step may fetch only once it has the
 * indexes' hosts: until then it asks the warden to plan it again with them (`planWith`).
 */
async function withArtifactHosts(
  grants: Grants,
  source: Source,
  needs: SourceNeeds,
): Promise<SourceNeeds> {
  if (source.kind !== "well-known") return needs;
  const granted = (host: string) =>
    Deno.permissions.querySync({ name: "net", host }).state === "granted";
  const missing = source.hosts.filter((host) => !granted(host));
  if (missing.length) {
    grants.planWith.push(...missing);
    return needs;
  }
  return { ...needs, net: [...needs.net, ...await artifactHosts(source.indexes, source.name)] };
}

/** The names a local source installs under: its one skill's, or the chosen ones of a collection. */
async function localNames(runtime: SkillRuntime, request: CommandRequest, arg: string) {
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const fetched = await fetchLocal(resolvePath(runtime.setup.host.cwd, arg)).catch(
    (error: unknown) => {
      // A folder that is not there or holds no skill is said in one line; other refusals stand.
      if (error instanceof SkillrtError && error.code !== "not_found") throw error;
      throw new NotFoundError(`Source '${arg}' is not a skill folder or a readable archive.`);
    },
  );
  const name = str(request.options.name);
  if (!fetched.collection) return [installName(fetched.folder, fetched.text, name)];
  if (name) return [validateName(name)];
  const wanted = listOf(request.options.skill).map((w) => w.replace(/\/+$/, ""));
  return fetched.collection.skills.filter((s) =>
    wanted.length === 0 || wanted.includes(s.path) || wanted.includes(s.name ?? "") ||
    wanted.includes(s.declaredName)
  ).flatMap((s) => s.name ?? []);
}

/**
 * Where `hub install` puts skills, worked out without fetching: a local source is read
 * (it may be); a remote one installs under `--name`, or — its skills' names come from
 * their frontmatter ([IO-5]) — under the slugs of the `--skill` names. A remote source
 * whose skills are not named (no `--name` or `--skill`: `--all`, a choice at the terminal,
 * or its one skill) cannot be known before it is fetched: the grant is then the folder it
 * installs into, as a whole.
 */
async function installTarget(
  runtime: SkillRuntime,
  request: CommandRequest,
  arg: string,
  grants: Grants,
) {
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const root = hubRoot(runtime.setup).root;
  const category = str(request.options.category);
  const at = (name: string) => creationTarget(root, joinPath(root, installPath(name, category)));
  const hubDir = joinPath(root, ".hub");
  const name = str(request.options.name);
  if (isBareName(arg) && configuredCollections(runtime.setup).length > 0) {
    // A bare name may be a skill of a configured collection ([HUB-8]): it installs under it.
    const all = collectionNeeds(runtime.setup);
    const indexes = configuredIndexes(runtime.setup, str(request.options.index)).length > 0;
    const indexed = indexes ? sourceOf(runtime.setup, arg, str(request.options.index)) : undefined;
    const needs = indexed ? await withArtifactHosts(grants, indexed, sourceNeeds(indexed)) : all;
    return {
      paths: [hubDir, at(validateName(name ?? arg))],
      needs: addNeeds({ ...needs }, all),
    };
  }
  const source = sourceOf(runtime.setup, arg, str(request.options.index));
  const needs = await withArtifactHosts(grants, source, sourceNeeds(source));
  if (source.kind === "local") {
    return { paths: [hubDir, ...(await localNames(runtime, request, arg)).map(at)], needs };
  }
  const skills = listOf(request.options.skill);
  // A skill of an index installs under the name the index lists it by (its SKILL.md's).
  if (source.kind === "well-known" && !skills.length) {
    return { paths: [hubDir, at(validateName(name ?? source.name))], needs };
  }
  if (!name && !skills.length) return { paths: [hubDir, root], needs };
  const names = name
    ? [validateName(name)]
    : skills.flatMap((wanted) =>
      [slugForm(wanted), slugForm(basename(wanted))].flatMap((n) => n ?? [])
    );
  return { paths: [hubDir, ...[...new Set(names)].map(at)], needs };
}

/** `hub check|update`: scratch space in the hub folder, the sources' hosts and git; update also the skills. */
export async function sourceTargets(
  runtime: SkillRuntime,
  request: CommandRequest,
  grants: Grants,
): Promise<string[]> {
  const [action, name] = request.args;
  const local = hubRoot(runtime.setup).root;
  const entries = Object.entries(readLockDocument(local).installed).filter(([n]) =>
    name === undefined || n === name
  );
  const paths = [joinPath(local, ".hub")];
  for (const [, record] of entries) {
    try {
      const source = sourceOf(runtime.setup, refetchSource(record));
      addNeeds(grants, await withArtifactHosts(grants, source, sourceNeeds(source)));
    } catch {
      // A recorded source its grammar refuses needs nothing: it is reported unavailable.
    }
    if (action === "update") {
      paths.push(creationTarget(local, joinPath(local, record.install_path)));
    }
  }
  return paths;
}

/** An install's paths and the usage file's: the hub's provenance record ([U-1]), in the local root only. */
function withUsage(runtime: SkillRuntime, paths: string[]): string[] {
  const local = runtime.setup.localRoot;
  return [...paths, ...(hubRoot(runtime.setup).root === local ? usageWritePaths(local) : [])];
}

/**
 * `hub install --from-lock FILE` ([T-4]): the lock file read and held to its grammar here,
 * before anything is written; each skill's folder under the name the lock gives it, and
 * the hosts, programs and variables of every source it names (an index skill's artifact
 * host too, [IO-1]).
 */
async function restoreTargets(
  runtime: SkillRuntime,
  file: string,
  grants: Grants,
): Promise<string[]> {
  const root = hubRoot(runtime.setup).root;
  const input = readLockInput(resolvePath(runtime.setup.host.cwd, file));
  const paths = [joinPath(root, ".hub")];
  for (const entry of input.entries) {
    const source = sourceOf(runtime.setup, entry.fetch);
    addNeeds(grants, await withArtifactHosts(grants, source, sourceNeeds(source)));
    paths.push(creationTarget(root, joinPath(root, installPath(entry.name, entry.category))));
  }
  return paths;
}

/** `hub publish|keygen|lock export`: only the output the user named; the warden checks it against the fence ([X-6]). */
export function outputTargets(runtime: SkillRuntime, request: CommandRequest): string[] {
  return namedOutputs(request, runtime.setup.host.cwd);
}

/** `hub search`: the indexes' hosts; with collections, the hub's quarantine they are fetched into. */
export function searchTargets(
  runtime: SkillRuntime,
  request: CommandRequest,
  grants: Grants,
): string[] {
  const index = typeof request.options.index === "string" ? request.options.index : undefined;
  grants.net.push(...configuredIndexes(runtime.setup, index).map((i) => new URL(i).host));
  if (index !== undefined || configuredCollections(runtime.setup).length === 0) return [];
  // Collections are fetched (git clones too) into the hub's quarantine, then removed.
  addNeeds(grants, collectionNeeds(runtime.setup));
  return [joinPath(runtime.setup.localRoot, ".hub")];
}

/** `hub install SOURCE` or `hub install --from-lock FILE`. */
export async function installTargets(
  runtime: SkillRuntime,
  request: CommandRequest,
  grants: Grants,
): Promise<string[]> {
  const arg = request.args[1];
  if (request.options.fromLock) {
    const file = String(request.options.fromLock);
    return withUsage(runtime, await restoreTargets(runtime, file, grants));
  }
  if (!arg) return [];
  const target = await installTarget(runtime, request, arg, grants);
  addNeeds(grants, target.needs);
  return withUsage(runtime, target.paths);
}

/** `hub uninstall NAME`: its folder and the hub folder, when the lock names it. */
export function uninstallTargets(runtime: SkillRuntime, request: CommandRequest): string[] {
  const arg = request.args[1];
  if (!arg) return [];
  const root = hubRoot(runtime.setup).root;
  const record = readLockDocument(root).installed[arg];
  return record ? [joinPath(root, ".hub"), joinPath(root, record.install_path)] : [];
}
