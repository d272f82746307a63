/**
 * A skill installed from a signed index stays bound to it ([T-2], [HUB-6]): the lock
 * records the key (its label and public key line), the index's `sequence` and its site
 * (`signed_site.ts`), and what
 * `hub check` and `hub update` fetch later replaces it only when signed by that same key,
 * still trusted, on the same site, and not older — a lower sequence is a rollback, the same sequence with
 * other content is a second version under one number. Pure: decided on what one fetch
 * verified, never on a second look.
 *
 * @module
 */
import type { Fetched } from "./fetch.ts";
import type { LockRecord } from "./lockfile.ts";

/** What a signed install records in the lock (nothing for an unsigned one). */
export function bindingOf(
  fetched: Fetched,
): Pick<LockRecord, "signed_by" | "signing_key" | "index_sequence" | "index_site"> {
  if (fetched.signedBy === undefined) return {};
  return {
    signed_by: fetched.signedBy,
    ...(fetched.signingKey !== undefined ? { signing_key: fetched.signingKey } : {}),
    ...(fetched.indexSequence !== undefined ? { index_sequence: fetched.indexSequence } : {}),
    ...(fetched.indexSite !== undefined ? { index_site: fetched.indexSite } : {}),
  };
}

/** Why the key of `fetched` is not the one `record` is bound to, or undefined. */
function keyRefusal(name: string, record: LockRecord, fetched: Fetched): string | undefined {
  const bound = `'${name}' is bound to the key '${record.signed_by}' it was installed from`;
  if (fetched.signingKey === undefined) return `${bound}; the index is no longer signed.`;
  const sameKey = record.signing_key !== undefined
    ? fetched.signingKey === record.signing_key
    : fetched.signedBy === record.signed_by; // a lock from before keys were recorded
  if (!sameKey && fetched.signedBy === record.signed_by) {
    return `${bound}; the index is signed by another key that '${record.signed_by}' now names (reinstall with hub install --force to take it).`;
  }
  if (!sameKey) {
    return `${bound}; the index is signed by ${
      fetched.signedBy !== undefined ? `'${fetched.signedBy}'` : fetched.signingKey
    } instead.`;
  }
  if (fetched.signedBy === undefined) {
    return `${bound}; that key is no longer in skills.hub.trusted_keys.`;
  }
  return undefined;
}

/**
 * Why `fetched` may not replace the installed skill `name` of `record` (whose content
 * hash it would change to `hash`), or undefined when it may: a skill installed from a
 * signed index takes only an index signed by the same trusted key whose sequence is
 * higher, or equal with the same content. An unsigned install is bound to nothing.
 */
export function bindingRefusal(
  name: string,
  record: LockRecord,
  fetched: Fetched,
  hash: string,
): string | undefined {
  if (record.signed_by === undefined && record.signing_key === undefined) return undefined;
  const key = keyRefusal(name, record, fetched);
  if (key) return key;
  if (record.index_site !== undefined && fetched.indexSite !== record.index_site) {
    return `'${name}' was installed from the site '${record.index_site}'; this signed index is for '${
      fetched.indexSite ?? "no site"
    }'.`;
  }
  if (fetched.indexSequence === undefined) {
    return hash === record.content_hash
      ? undefined
      : `'${name}': the signed index has no sequence, so a new version cannot be told from a rollback.`;
  }
  const installed = record.index_sequence ?? 0;
  const offered = fetched.indexSequence;
  if (offered < installed) {
    return `'${name}': the index's sequence ${offered} is older than the installed ${installed} (a rollback).`;
  }
  if (offered === installed && hash !== record.content_hash) {
    return `'${name}': the index has the installed sequence ${installed} but other content (a signed update raises the sequence).`;
  }
  return undefined;
}
