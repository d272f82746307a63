/**
 * The old names of the home layout, kept for library users of 0.x: `Setup` said the same as
 * the `setup` command, which writes config; {@linkcode HomeLayout} says what it is.
 *
 * @module
 */
import { type HomeLayout, type HomeLayoutOptions, resolveHomeLayout } from "./layout.ts";

/** @deprecated Use {@linkcode HomeLayout}. */
export type Setup = HomeLayout;

/** @deprecated Use {@linkcode HomeLayoutOptions}. */
export type SetupOptions = HomeLayoutOptions;

/** @deprecated Use {@linkcode resolveHomeLayout}. */
export const resolveSetup: (options?: HomeLayoutOptions) => HomeLayout = resolveHomeLayout;
