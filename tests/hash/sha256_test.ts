import { equal, throws } from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { Sha256, sha256Hex } from "../../src/hash/sha256.ts";

const node = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

Deno.test("sha256: the FIPS 180-4 examples", () => {
  equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("sha256: equals node:crypto on every length around the block edges", () => {
  for (let n = 0; n <= 200; n++) {
    const bytes = new Uint8Array(n).map((_, i) => (i * 31 + n) & 255);
    equal(sha256Hex(bytes), node(bytes), `length ${n}`);
  }
});

Deno.test("sha256: incremental updates in any split equal one update and node:crypto", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 700 }),
      fc.array(fc.nat({ max: 130 }), { maxLength: 12 }),
      (bytes, cuts) => {
        const h = new Sha256();
        let at = 0;
        for (const cut of cuts) {
          h.update(bytes.subarray(at, at + cut));
          at = Math.min(bytes.length, at + cut);
        }
        h.update(bytes.subarray(at));
        const expected = node(bytes);
        equal(h.hex(), expected);
        equal(h.hex(), expected, "hex() can be read twice");
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("sha256: text is hashed as UTF-8; a finished hash refuses more input", () => {
  equal(sha256Hex("héllo ✓"), node(new TextEncoder().encode("héllo ✓")));
  const h = new Sha256().update("a");
  h.hex();
  throws(() => h.update("b"), /already finished/);
});
