/**
 * The one place skillrt touches its argument parser (commander from npm).
 *
 * @module
 */
export { Command, CommanderError, Option } from "npm:commander@^15";
