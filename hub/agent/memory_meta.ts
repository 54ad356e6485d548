/**
 * The session meta keys a conversation with memory carries, written by its turns: the
 * scope its memories go to and who it is with, so the memory role reading it later
 * writes where a `remember` in it would.
 *
 * @module
 */

/** The scope a conversation's memories go to (`owner`, `person:<id>`, `conversation:<key>`). */
export const MEMORY_SCOPE_META = "memory_scope";
/** Who the conversation is with: `owner`, `person` or `group`. */
export const MEMORY_PARTY_META = "memory_party";
