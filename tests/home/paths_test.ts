import { equal } from "node:assert/strict";
import * as path from "node:path";
import fc from "fast-check";
import {
  basename,
  dirname,
  isAbsoluteAnywhere,
  isInside,
  joinPath,
  normalizePath,
  resolvePath,
} from "../../src/home/paths.ts";

/** Path pieces with the traps: empty parts, `.`, `..`, doubled and trailing slashes. */
const segment = fc.constantFrom("a", "bc", ".", "..", "", "x.md", "..x", ".hidden", "a b");
const pathText = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 7 }), fc.boolean()).map(
  ([absolute, parts, trailing]) =>
    (absolute ? "/" : "") + parts.join("/") + (trailing && parts.length > 0 ? "/" : ""),
);

Deno.test("paths: normalize, join, dirname and basename equal node:path on POSIX", () => {
  fc.assert(
    fc.property(pathText, fc.array(pathText, { maxLength: 4 }), (p, parts) => {
      equal(normalizePath(p), path.posix.normalize(p), `normalize ${JSON.stringify(p)}`);
      equal(joinPath(p, ...parts), path.posix.join(p, ...parts), `join ${JSON.stringify(parts)}`);
      // node:path keeps part of a doubled slash ("a//b" → "a/"); ours drops it.
      if (!p.includes("//")) equal(dirname(p), path.posix.dirname(p), `dirname ${p}`);
      equal(basename(p), path.posix.basename(p), `basename ${JSON.stringify(p)}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("paths: resolvePath equals node:path resolve against an absolute base", () => {
  fc.assert(
    fc.property(pathText.map((p) => `/${p}`), pathText, (base, p) => {
      equal(resolvePath(base, p), path.posix.resolve(base, p), `${base} + ${p}`);
    }),
    { numRuns: 3000 },
  );
  equal(resolvePath("rel", "x"), path.resolve("rel", "x"), "a relative base is taken from the cwd");
});

Deno.test("paths: isInside is true for the folder itself and below it, never for a neighbour", () => {
  equal(isInside("/a/b", "/a/b"), true);
  equal(isInside("/a/b", "/a/b/c/d"), true);
  equal(isInside("/a/b/", "/a/b/c"), true);
  equal(isInside("/a/b", "/a/bc"), false);
  equal(isInside("/a/b", "/a"), false);
  equal(isInside("/a/b", "/a/b/../c"), false);
  equal(isInside("/a/b", "/a/b/..x"), true, "a name starting with '..' is still inside");
  equal(isInside("/", "/anything"), true);
  equal(dirname("a//b"), "a");
});

Deno.test("paths: isAbsoluteAnywhere knows POSIX, Windows and drive-letter forms", () => {
  for (const p of ["/etc/passwd", "\\\\server\\share", "\\x", "C:\\x", "c:x", "D:/y"]) {
    equal(isAbsoluteAnywhere(p), true, p);
  }
  for (const p of ["a/b", "./a", "..\\a", "ab:c", ""]) equal(isAbsoluteAnywhere(p), false, p);
});
