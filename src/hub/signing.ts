/**
 * Signed indexes ([T-2]): Ed25519 keys through WebCrypto. A public key is one line,
 * `ed25519:<base64 of the 32 raw bytes>`; a private key file holds
 * `ed25519-private:<base64 PKCS#8>`; the detached signature `index.json.sig` holds the
 * signer's public key line, a space and the base64 signature over the exact bytes of
 * `index.json`. A signature that does not verify is an error, never a downgrade; one
 * that verifies gives `trusted` only when its key is listed in `skills.hub.trusted_keys`.
 *
 * @module
 */
import { ValidationError } from "../errors.ts";

const PUBLIC = "ed25519:";
const PRIVATE = "ed25519-private:";
const ALGORITHM = { name: "Ed25519" };

/** The file name of an index's detached signature, beside it. */
export const SIGNATURE_SUFFIX = ".sig";

function b64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
}

function unb64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A new key pair: the public key line and the private key file's text. */
export async function generateKeyPair(): Promise<{ publicLine: string; privateText: string }> {
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  return { publicLine: PUBLIC + b64(raw), privateText: `${PRIVATE}${b64(pkcs8)}\n` };
}

/** The raw public key of a key line, or undefined when it is not one. */
export function parseKeyLine(line: unknown): Uint8Array | undefined {
  if (typeof line !== "string" || !line.startsWith(PUBLIC)) return undefined;
  const raw = unb64(line.slice(PUBLIC.length).trim());
  return raw && raw.length === 32 ? raw : undefined;
}

/** Signs `data` with a private key file's text; returns the signature file's text. */
export async function signBytes(privateText: string, data: Uint8Array): Promise<string> {
  const body = privateText.trim();
  const pkcs8 = body.startsWith(PRIVATE) ? unb64(body.slice(PRIVATE.length)) : undefined;
  if (!pkcs8) throw new ValidationError("The key file is not an skillrt Ed25519 private key.");
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey("pkcs8", pkcs8.slice(), ALGORITHM, true, ["sign"]);
  } catch {
    throw new ValidationError("The key file is not an skillrt Ed25519 private key.");
  }
  const jwk = await crypto.subtle.exportKey("jwk", key);
  const raw = unb64((jwk.x ?? "").replace(/-/g, "+").replace(/_/g, "/") + "=");
  const signature = new Uint8Array(await crypto.subtle.sign(ALGORITHM, key, data.slice()));
  return `${PUBLIC}${b64(raw!)} ${b64(signature)}\n`;
}

/** What checking a signature found. */
export interface SignatureCheck {
  /** The signer's public key line. */
  key: string;
  /** The label of the key in `skills.hub.trusted_keys`, when it is listed there. */
  label?: string;
}

/**
 * Checks a detached signature over `data`, naming `url` in errors.
 * @throws {SkillrtError} when the signature is malformed or does not verify.
 */
export async function verifySignature(
  data: Uint8Array,
  signatureText: string,
  trustedKeys: Record<string, string>,
  url: string,
): Promise<SignatureCheck> {
  const parts = signatureText.trim().split(/\s+/);
  const raw = parseKeyLine(parts[0]);
  const signature = parts.length === 2 ? unb64(parts[1]) : undefined;
  if (!raw || !signature || signature.length !== 64) {
    throw new ValidationError(`Refusing '${url}': its signature file is malformed.`);
  }
  const key = await crypto.subtle.importKey("raw", raw.slice(), ALGORITHM, true, ["verify"]);
  const ok = await crypto.subtle.verify(ALGORITHM, key, signature.slice(), data.slice());
  if (!ok) {
    throw new ValidationError(
      `Refusing '${url}': its signature does not verify (the index or its signature was changed).`,
    );
  }
  const line = PUBLIC + b64(raw);
  const label = Object.keys(trustedKeys).sort().find((l) =>
    b64(parseKeyLine(trustedKeys[l]) ?? new Uint8Array()) === b64(raw)
  );
  return { key: line, ...(label !== undefined ? { label } : {}) };
}

/** The trusted keys of the config (`skills.hub.trusted_keys`: label → key line), valid ones only. */
export function trustedKeysOf(hub: Record<string, unknown>): Record<string, string> {
  const raw = hub.trusted_keys;
  const out: Record<string, string> = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
  for (const [label, line] of Object.entries(raw)) {
    if (typeof line === "string" && parseKeyLine(line)) out[label] = line.trim();
  }
  return out;
}
