/**
 * Imported before grammY: its Node fetch shim loads `punycode`, which Deno's Node layer
 * reports as deprecated on stderr, under the owner's terminal. The warning concerns a
 * dependency's dependency, not anything the owner can act on.
 *
 * @module
 */
import process from "node:process";

(process as { noDeprecation?: boolean }).noDeprecation = true;
