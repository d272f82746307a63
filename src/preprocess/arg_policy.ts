/**
 * Argument policies of the default inline-shell programs ([P-4]): an allowed program
 * must not become a file reader (`date -f FILE` prints the file's lines in its errors,
 * `date -r FILE` tells its time). `date` and `uname` admit only arguments that read no
 * file; `echo` and `printf` read no file whatever their arguments. The policy belongs to
 * the program's name: listing `date` in `skills.inline_shell_allow` does not lift it.
 * A program the user adds beyond these runs with any arguments — adding it is trusting
 * it. Pure.
 *
 * @module
 */

/** What a program's arguments may be. */
interface ArgumentPolicy {
  /** Whether one argument is admitted. */
  admits(arg: string): boolean;
  /** The admitted forms, for the marker. */
  forms: string;
}

const DATE =
  /^(?:\+[\s\S]*|-u|--utc|-R|-I[a-z]*|--iso-8601(?:=[a-z]+)?|--rfc-[a-z0-9]+(?:=[a-z]+)?)$/;
const UNAME_SHORT = /^-[asnrvmpio]+$/;
const UNAME_LONG: readonly string[] = [
  "--all",
  "--kernel-name",
  "--nodename",
  "--kernel-release",
  "--kernel-version",
  "--machine",
  "--processor",
  "--hardware-platform",
  "--operating-system",
];

/** The policies, by program name; a program without one takes any argument. */
const POLICIES: Readonly<Record<string, ArgumentPolicy>> = {
  date: {
    admits: (arg) => DATE.test(arg),
    forms: "+FORMAT, -u, --utc, -R, -I…, --iso-8601…, --rfc-…",
  },
  uname: {
    admits: (arg) => UNAME_SHORT.test(arg) || UNAME_LONG.includes(arg),
    forms: "its letter flags (-a -s -n -r -v -m -p -i -o, combined) and their long forms",
  },
};

/** The programs with a policy ([P-4]); `echo` and `printf` need none. */
export const POLICED_PROGRAMS: readonly string[] = Object.keys(POLICIES);

/**
 * Why `program` may not run with `args` (one sentence naming the first refused
 * argument), or undefined when every argument is admitted.
 */
export function refusedArgument(program: string, args: readonly string[]): string | undefined {
  const policy = Object.hasOwn(POLICIES, program) ? POLICIES[program] : undefined;
  if (!policy) return undefined;
  const bad = args.find((arg) => !policy.admits(arg));
  if (bad === undefined) return undefined;
  return `'${program}' does not take the argument '${bad}' (it admits only ${policy.forms}; no file operand or file-reading option)`;
}
