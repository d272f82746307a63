/**
 * Look-alike letters folded to ASCII for the scanner's normal form ([HUB-4]): Cyrillic,
 * Greek, Armenian and a few Latin letters that read as an ASCII letter. A rule written for
 * `ignore` then also sees `іgnоrе` spelled with Cyrillic letters. Pure data and one function.
 *
 * @module
 */

// Each pair: the look-alike letters, then the ASCII letters they fold to, position by position.
const PAIRS: [string, string][] = [
  // Cyrillic lower and upper case.
  ["аԁеһіјӏкмноԛрсѕтуԝхүвɡԍ", "adehijlkmhoqpcstywxybgg"],
  ["АВЕНІЈӀКМОԚРСЅТУԜХҮԌ", "ABEHIJIKMOQPCSTYWXYG"],
  // Greek lower and upper case.
  ["αβεηικνορτυχγωϲϳςϱ", "abenikvoptuxywcjsp"],
  ["ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹ", "ABEZHIKMNOPTYXC"],
  // Armenian, and Latin letters outside ASCII that NFKC keeps.
  ["օսհոզ", "ouhnq"],
  ["ıɩɑɡʏɪʟɴʀꜱᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢɢʜʙᴀ", "iiagyilnrscdejkmoptuvwzghba"],
];

const TABLE = new Map<string, string>();
for (const [from, to] of PAIRS) {
  const letters = [...from];
  if (letters.length !== to.length) throw new Error(`confusable table row out of step: ${from}`);
  letters.forEach((ch, i) => TABLE.set(ch, to[i]));
}

const ANY = new RegExp(`[${[...TABLE.keys()].join("")}]`, "gu");

/** Replaces every look-alike letter of the table by its ASCII letter. */
export function foldConfusables(text: string): string {
  return text.replace(ANY, (ch) => TABLE.get(ch) ?? ch);
}
