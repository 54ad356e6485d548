/**
 * Memory a person can trust: one store of short memories in scopes decided in code
 * (the owner, another person, one conversation; a network turn gets none), recalled
 * before each turn within a token budget as quoted data, written by tools the owner can
 * see and steer (a pending list for whatever did not come straight from the owner), and
 * deleted for real (no file keeps the text of a forgotten memory).
 *
 * @module
 */
export * from "./types.ts";
export * from "./errors.ts";
export * from "./scope.ts";
export * from "./scan.ts";
export * from "./validate.ts";
export * from "./search_text.ts";
export * from "./sqlite_store.ts";
export * from "./recall.ts";
export * from "./tools.ts";
export * from "./turn.ts";
export { t as memorySentence } from "./_messages.ts";
