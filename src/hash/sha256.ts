/**
 * SHA-256 (FIPS 180-4) in TypeScript, synchronous and incremental. It is ours rather than
 * `node:crypto` because importing Deno's Node layer costs every sandbox Worker and the
 * warden tens of milliseconds at start-up (SPEC §19); WebCrypto has no synchronous digest.
 * Checked against `node:crypto` by the tests.
 *
 * @module
 */

const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** An incremental SHA-256: `update` with bytes as they come, then `hex()` once. */
export class Sha256 {
  #state = new Uint32Array(INITIAL);
  #block = new Uint8Array(64);
  #filled = 0;
  #length = 0;
  #w = new Uint32Array(64);
  #done = false;

  /** Adds bytes (or text, as UTF-8) to the message. */
  update(data: Uint8Array | string): this {
    if (this.#done) throw new Error("SHA-256 already finished; start a new one.");
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    this.#length += bytes.length;
    let i = 0;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, bytes.length);
      this.#block.set(bytes.subarray(0, take), this.#filled);
      this.#filled += take;
      i = take;
      if (this.#filled < 64) return this;
      this.#compress(this.#block, 0);
      this.#filled = 0;
    }
    for (; i + 64 <= bytes.length; i += 64) this.#compress(bytes, i);
    if (i < bytes.length) {
      this.#block.set(bytes.subarray(i), 0);
      this.#filled = bytes.length - i;
    }
    return this;
  }

  /** Finishes the message and returns the digest as lowercase hex. */
  hex(): string {
    if (!this.#done) this.#finish();
    let out = "";
    for (const word of this.#state) out += word.toString(16).padStart(8, "0");
    return out;
  }

  #finish(): void {
    const bits = this.#length * 8;
    const block = this.#block;
    block[this.#filled++] = 0x80;
    if (this.#filled > 56) {
      block.fill(0, this.#filled);
      this.#compress(block, 0);
      this.#filled = 0;
    }
    block.fill(0, this.#filled, 56);
    const high = Math.floor(bits / 0x100000000);
    const view = new DataView(block.buffer, block.byteOffset, 64);
    view.setUint32(56, high);
    view.setUint32(60, bits >>> 0);
    this.#compress(block, 0);
    this.#done = true;
  }

  #compress(bytes: Uint8Array, at: number): void {
    const w = this.#w;
    for (let t = 0; t < 16; t++) {
      const j = at + t * 4;
      w[t] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15];
      const y = w[t - 2];
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    const s = this.#state;
    let a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] +
        w[t]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    s[0] += a;
    s[1] += b;
    s[2] += c;
    s[3] += d;
    s[4] += e;
    s[5] += f;
    s[6] += g;
    s[7] += h;
  }
}

/** The SHA-256 of bytes (or of text as UTF-8), as lowercase hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return new Sha256().update(data).hex();
}
