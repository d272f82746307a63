/**
 * The prompt-injection rows of the rule table ([HUB-4], issue 22 round five): text that tries
 * to take over the agent. The "drop what you were told" family (ignore, disregard, forget,
 * override) is built once from its parts — a verb, the words that may stand between, what is
 * dropped and where it stood — so each verb is read in the same shapes, in plain wording as in
 * the usual ones. Every pattern is bounded (`linear.ts` refuses the table otherwise). Letter-
 * spaced words and base64 payloads are taken off in the normal form (`spelled.ts`), not here.
 *
 * @module
 */
import type { Row } from "./rule.ts";

/** `\s+` of a phrase: words apart by up to 16 spaces (the normal form collapses more). */
const W = String.raw`\s{1,16}`;

const re = (source: string) => new RegExp(source, "i");

/** Words that may stand before what is dropped: "all of the", "your", "any". */
const DET = String.raw`(?:(?:all|any|the|your|of|these|those|my|every|each|our)${W}){0,4}`;
/** Where what is dropped stood, before its noun. */
const PRIOR = "(?:previous|prior|above|earlier|preceding|former|original|initial|system|other)";
/** What an agent is told. */
const NOUN =
  "(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|commands|orders|constraints|restrictions|programming)";
/** What an agent is told, for "ignore" (also its context: "forget the previous context" is `/clear`). */
const IGNORED =
  "(?:instructions?|prompts?|rules|directions|directives|guidelines|guidance|commands|orders|constraints|restrictions|programming|context|messages)";
/** Words between what is dropped and where it stood: "everything you were told before". */
const FILL = String
  .raw`(?:${W}(?:you|you've|were|was|have|had|been|told|given|to|written|received|said|that|i|we|in|this|the|file|line|message|conversation|point)){0,5}`;
/** Where it stood, after its noun. */
const POSITION = String
  .raw`(?:above|before|earlier|previously|so${W}far|until${W}now|up${W}to${W}(?:now|here|this${W}point))`;
/** What the agent holds as its own: `your instructions`, `the system prompt`. */
const OWN = String
  .raw`(?:your${W}(?:instructions|rules|guidelines|directives|programming|training|system${W}prompt|safety${W}rules|guardrails)|the${W}(?:system${W}(?:prompt|message)|safety${W}(?:rules|guidelines)|guardrails))\b`;

/**
 * The shapes of "drop what you were told" for `verb`: before its noun (`ignore all previous
 * instructions`), after it (`forget everything above`), `the above` alone, and what the
 * agent holds as its own (`override the system prompt`).
 */
function dropping(verb: string, noun = NOUN): RegExp[] {
  const v = String.raw`\b(?:${verb})${W}`;
  return [
    re(String.raw`${v}${DET}${PRIOR}${W}(?:[a-z-]{1,32}${W})?${noun}\b`),
    re(String.raw`${v}${DET}(?:${noun}|everything|anything|all)${FILL}${W}${POSITION}\b`),
    re(
      String
        .raw`${v}(?:(?:all|everything)${W})?(?:of${W})?the${W}above(?=\s{0,16}(?:[.,;:!)]|and\b|$))`,
    ),
    re(`${v}(?:all${W})?(?:of${W})?${OWN}`),
  ];
}

/** "Ignore previous instructions" in French, German, Spanish, Italian, Portuguese, Chinese. */
const FOREIGN: RegExp[] = [
  re(
    String
      .raw`\b(?:ignore[zr]?|oublie[zr]?|n[eé]glige[zr]?)${W}(?:(?:toutes|tous|les|vos|tes|des|ces)${W}){0,3}(?:instructions|consignes|r[eè]gles|directives|ordres)${W}(?:pr[eé]c[eé]dentes|ant[eé]rieures|pr[eé]alables|ci-dessus)`,
  ),
  re(
    String
      .raw`\b(?:ignorier(?:e|en|t)?|vergiss|vergesst|vergessen|missachte[nt]?)${W}(?:(?:sie|bitte|du|alle|s[aä]mtliche|die|deine|ihre|eure|jegliche)${W}){0,4}(?:vorherigen|vorigen|bisherigen|fr[uü]heren|obigen|vorangegangenen|vorstehenden|urspr[uü]nglichen)${W}(?:Anweisungen|Instruktionen|Befehle|Regeln|Vorgaben|Anordnungen|Richtlinien)`,
  ),
  re(
    String
      .raw`\b(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olviden|olvidar|descarta|descarte|omite|omita)${W}(?:(?:todas|todos|las|los|tus|sus)${W}){0,3}(?:instrucciones|reglas|indicaciones|directrices|[oó]rdenes|directivas)${W}(?:anteriores|previas|precedentes)`,
  ),
  re(
    String
      .raw`\b(?:ignora|ignorate|ignori|dimentica|dimenticate)${W}(?:(?:tutte|tutti|le|gli|i|tue)${W}){0,3}(?:istruzioni|regole|indicazioni|direttive)${W}(?:precedenti|anteriori)`,
  ),
  re(
    String
      .raw`\b(?:ignore|ignora|ignorar|esque[cç]a|esquece)${W}(?:(?:todas|todos|as|os|suas|tuas)${W}){0,3}(?:instru[cç][oõ]es|regras|diretrizes|ordens)${W}(?:anteriores|pr[eé]vias|precedentes)`,
  ),
  /(?:忽略|无视|忽视|忘记|忘掉)(?:所有|全部|一切)?(?:之前|以前|先前|上面|上述|前面)的?(?:所有|全部|一切)?(?:指令|指示|说明|规则|提示)/,
];

/** A negation just before the verb: `do not ignore previous instructions` keeps them. */
const NEGATED =
  /\b(?:(?:do|does|did|must|should|shall|will|would|can|could|may)\s{1,16}(?:not|never)|(?:don|doesn|didn|mustn|shouldn|won|wouldn|can|couldn)['’]?t|never|cannot|not\s{1,16}to)\s{1,16}$/i;

/** Where an order starts: a line, a sentence, a clause or a list item, or after "please", "now". */
const COMMAND_POSITION =
  /(?:^|[.!?:;,(>|*-])\s{0,16}(?:(?:please|now|then|and|so|first|simply|just|you\s{1,16}(?:must|should|will))\s{1,16})?$/i;

/** Who is kept in the dark: `the user`, `the users`. */
const USER = String.raw`the${W}users?\b`;
/** What is kept from the user: these notes, this step, what you are doing. */
const HIDDEN = String
  .raw`(?:(?:these|this|the|my|your|our|any|such|all|of|what${W}you)${W}){0,3}(?:notes?|instructions?|steps?|rules|prompt|actions?|commands?|changes?|files?|section|part|messages?|it|this|that|them|anything|everything|(?:are${W})?doing|did)`;
const NEVER = String
  .raw`(?:never|do${W}not|don'?t|must${W}not|must${W}never|should${W}not|should${W}never|may${W}not)`;

/** What makes an assistant unrestricted. */
const UNBOUND = "(?:unrestricted|unfiltered|uncensored|jailbroken|amoral|unaligned)";

/** Text that tries to take over the agent. */
// deno-fmt-ignore
export const PROMPT_INJECTION: Row[] = [
  ["prompt_injection.ignore-previous", "critical", "Tells the agent to ignore its previous instructions (in six languages)", [...dropping("ignore", IGNORED), ...FOREIGN], { flow: true, notAfter: NEGATED }],
  ["prompt_injection.disregard", "critical", "Tells the agent to disregard its instructions", [re(String.raw`\bdisregard${W}(?:(?:all|any|the|your|of|my|every)${W}){1,3}(?:(?:previous|prior|above|earlier|system|original)${W})?(?:instructions?|rules|guidelines|prompts?|directions|directives)\b`), ...dropping("disregard")], { flow: true, notAfter: NEGATED }],
  ["prompt_injection.forget", "critical", "Tells the agent to forget its instructions", [/\bforget (your|all|everything|previous|prior) (instructions|rules|you were told)\b/i, ...dropping("forget")], { flow: true, notAfter: NEGATED }],
  ["prompt_injection.override", "critical", "Orders the agent to override, overrule or set aside its instructions", dropping(String.raw`override|overrule|discard|abandon|set${W}aside|throw${W}away`), { flow: true, notAfter: NEGATED, onlyAfter: COMMAND_POSITION }],
  ["prompt_injection.supersede", "critical", "Declares the agent's instructions void or replaced", [re(String.raw`\b(?:previous|prior|above|earlier|preceding|former|original|initial|old)${W}(?:instructions|prompts?|directives|guidelines)${W}(?:are|is|were|have${W}been)${W}(?:now${W}|hereby${W})?(?:outdated|obsolete|void|null|cancell?ed|revoked|superseded|invalid|replaced|no${W}longer${W}(?:valid|apply|applicable|in${W}effect))\b`), re(String.raw`\bthese${W}(?:new${W})?(?:instructions|prompts?)${W}(?:replace|override|supersede|overrule|take${W}precedence${W}over)${W}(?:(?:all|any|the|your)${W}){0,2}(?:previous|prior|earlier|other|original|system)${W}(?:instructions|prompts?|rules|directives|guidelines|ones)\b`)], { flow: true }],
  ["prompt_injection.safety-off", "critical", "Declares the agent's safety rules suspended", [re(String.raw`\b(?:safety|ethical|ethics|moderation)${W}(?:rules|filters?|guidelines|restrictions|policies|policy|guardrails|protocols|constraints)${W}(?:are|is|have${W}been|has${W}been|were|will${W}be)${W}(?:now${W}|hereby${W}|temporarily${W}|officially${W})?(?:suspended|disabled|lifted|removed|deactivated|void|off|turned${W}off|switched${W}off|waived|revoked|bypassed|overridden|no${W}longer${W}(?:apply|active|in${W}effect|enforced))\b`), re(String.raw`\b(?:all${W})?your${W}(?:guardrails|restrictions|safeguards|filters)${W}(?:are|have${W}been)${W}(?:now${W})?(?:suspended|disabled|lifted|removed|deactivated|off)\b`)], { flow: true }],
  ["prompt_injection.system-override", "high", "Announces a system or administrator override", re(String.raw`\b(?:system|admin|administrator|developer|root|god)${W}override\b(?=\s{0,16}[:!—-]|${W}(?:mode|activated|engaged|enabled|initiated|in${W}effect|protocol|code|command|granted))`), { flow: true }],
  ["prompt_injection.you-are-now", "high", "Reassigns the agent's identity", re(String.raw`\byou${W}are${W}now${W}(?:a|an|in|the|DAN|free|${UNBOUND}|no${W}longer|my|called|named)\b`), { flow: true }],
  ["prompt_injection.role-hijack", "high", "Gives the agent a new role from now on, or an unrestricted one", [re(String.raw`\bfrom${W}now${W}on\s{0,16}[,:]?${W}(?:you${W}(?:are|will${W}act|must${W}act|act|will${W}pretend|play)|you're|act${W}as|behave${W}as|respond${W}as|answer${W}as|speak${W}as|pretend|role-?play|play${W}the${W}role|your${W}(?:name|role|identity|persona)${W}is)\b`), re(String.raw`\b(?:act|behave|respond|answer)${W}as${W}(?:if${W}you${W}(?:are|were)${W})?(?:DAN\b|(?:an?${W})?${UNBOUND}${W}(?:ai|assistant|model|chatbot|bot|version|persona)\b)`), re(String.raw`\bpretend${W}(?:that${W})?(?:you${W}(?:are|were|have)|to${W}be)${W}(?:an?${W}|no${W})?(?:DAN|${UNBOUND}|rules|restrictions|limits|filters|free${W}(?:of|from))\b`)], { flow: true }],
  ["prompt_injection.new-instructions", "high", "Announces replacement instructions", /\bnew instructions\s{0,16}:/i],
  ["prompt_injection.system-prompt", "high", "Poses as a system prompt (a line that opens with it)", /^[\s>#*_\-\[(|]{0,128}system prompt\s{0,16}:(?!\s{0,16}\d)/im],
  ["prompt_injection.system-tag", "high", "Uses system-message markup", /<\/?system>|<\|im_start\|>\s{0,16}system/i],
  ["prompt_injection.hide-from-user", "high", "Asks the agent to hide actions from the user", [/\bdo not (tell|inform|show|mention (this|it) to) the user\b/i, re(String.raw`\b${NEVER}${W}(?:reveal|disclose|mention|show|tell|share|expose|report|explain|admit|say)${W}${HIDDEN}${W}(?:to|with)${W}${USER}`), re(String.raw`\b${NEVER}${W}(?:tell|inform)${W}${USER}`), re(String.raw`\b(?:keep|hide|conceal)${W}${HIDDEN}${W}(?:(?:a${W})?secret${W}|hidden${W}|private${W}|confidential${W})?from${W}${USER}`), re(String.raw`\b${USER}${W}(?:must|should|may|need|can)${W}(?:never|not)${W}(?:know|find${W}out|learn|notice|discover|be${W}told|be${W}informed)\b`)], { flow: true }],
  ["prompt_injection.covert", "medium", "Asks the agent to act secretly", [/\b(secretly|covertly|without (telling|asking|informing|notifying) the user)\b/i, re(String.raw`\bwithout${W}${USER}${W}(?:knowing|noticing|seeing|finding${W}out|being${W}told)\b`)], { flow: true }],
  ["prompt_injection.mode-switch", "high", "Invokes a jailbreak or unrestricted mode", /\b(developer|god|DAN|jailbreak|unrestricted) mode\b/i, { flow: true }],
  ["prompt_injection.cdata-close", "medium", "Closes a CDATA section to break out of a wrapper", /\]\]>/],
];
