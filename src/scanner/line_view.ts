/**
 * One line (or joined paragraph) as the scanner's rules see it, with what is worked out about
 * it kept ([HUB-4], issue 22): its quoted regions, the judgement of a rule, whether it talks
 * only to loopback. A line with thousands of matches is looked at once for each of these, not
 * once per match — the work of a scan stays linear in its text. Pure.
 *
 * @module
 */
import { charge } from "./linear.ts";

/** A line's text and the facts about it worked out so far. */
export class LineView {
  /** The line. */
  readonly text: string;
  #memo = new Map<unknown, unknown>();

  /** A view of `text`. */
  constructor(text: string) {
    this.text = text;
  }

  /**
   * The value kept under `key`, made by `make` the first time, which is counted as reading
   * `reads` characters (the whole line unless said).
   */
  memo<T>(key: unknown, make: () => T, reads = this.text.length): T {
    if (this.#memo.has(key)) return this.#memo.get(key) as T;
    charge(reads);
    const value = make();
    this.#memo.set(key, value);
    return value;
  }
}
