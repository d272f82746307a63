/**
 * Skill bundles ([B-1]): `<home>/skill-bundles/*.yaml|yml`, each naming skills that load
 * together. A bad file is skipped with a diagnostic; of two bundles with one slug, the
 * first (by file name) wins.
 *
 * @module
 */
import { parseYaml } from "../deps/yaml.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { isMapping } from "../mapping.ts";
import { joinPath } from "../home/paths.ts";

/** One bundle. */
export interface Bundle {
  /** The slug it is invoked by. */
  name: string;
  /** What it is for. */
  description: string;
  /** Member skill names, in order. */
  skills: string[];
  /** Extra instruction for the agent, when given. */
  instruction?: string;
  /** The file it came from. */
  file: string;
}

/** Lowercase, spaces and `_` become `-`, other characters are dropped ([B-1]). */
export function bundleSlug(name: string): string {
  return name.toLowerCase().replace(/[ _]/g, "-").replace(/[^a-z0-9-]/g, "");
}

/** Reads one bundle file's text; returns the bundle or the reason it was skipped. */
export function parseBundle(text: string, file: string): Bundle | Diagnostic {
  const stem = file.split("/").pop()!.replace(/\.ya?ml$/, "");
  const parsed = parseYaml(text);
  if ("failure" in parsed) {
    return diagnostic(
      "error",
      "bundle.unparseable",
      `Bundle file does not parse (${parsed.failure.message}); skipped.`,
      { path: file, line: parsed.failure.line },
    );
  }
  const data = parsed.value;
  if (!isMapping(data)) {
    return diagnostic(
      "error",
      "bundle.not_mapping",
      "Bundle file must be a YAML mapping; skipped.",
      { path: file },
    );
  }
  const skills = data.skills;
  if (
    !Array.isArray(skills) || skills.length === 0 ||
    !skills.every((s) => typeof s === "string" && s.trim() !== "")
  ) {
    return diagnostic(
      "error",
      "bundle.skills",
      "Bundle 'skills' must be a non-empty list of skill names; skipped.",
      { path: file },
    );
  }
  const name = bundleSlug(typeof data.name === "string" && data.name.trim() ? data.name : stem);
  if (!name) {
    return diagnostic("error", "bundle.name", "Bundle name has no usable characters; skipped.", {
      path: file,
    });
  }
  const bundle: Bundle = {
    name,
    description: typeof data.description === "string" && data.description.trim()
      ? data.description.trim()
      : `Load ${skills.length} skills as a bundle`,
    skills: skills.map((s: string) => s.trim()),
    file,
  };
  if (typeof data.instruction === "string" && data.instruction.trim()) {
    bundle.instruction = data.instruction.trim();
  }
  return bundle;
}

/** Every bundle of a home, sorted by file name, and the files that were skipped. */
export function loadBundles(home: string): { bundles: Bundle[]; diagnostics: Diagnostic[] } {
  const dir = joinPath(home, "skill-bundles");
  let names: string[];
  try {
    names = Array.from(Deno.readDirSync(dir)).filter((e) => e.isFile && /\.ya?ml$/.test(e.name))
      .map((e) => e.name).sort();
  } catch {
    return { bundles: [], diagnostics: [] };
  }
  const bundles: Bundle[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names) {
    const file = joinPath(dir, name);
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (error) {
      diagnostics.push(
        diagnostic(
          "error",
          "bundle.unreadable",
          `Bundle file cannot be read (${(error as Error).name}); skipped.`,
          { path: file },
        ),
      );
      continue;
    }
    const parsed = parseBundle(text, file);
    if (!("skills" in parsed)) diagnostics.push(parsed);
    else if (bundles.some((b) => b.name === parsed.name)) {
      diagnostics.push(
        diagnostic(
          "warning",
          "bundle.duplicate",
          `Bundle '${parsed.name}' is also defined earlier; this file is skipped.`,
          { path: file },
        ),
      );
    } else bundles.push(parsed);
  }
  return { bundles, diagnostics };
}
