/**
 * Persona: the system prompt from `persona/persona.md`, `persona/user.md` (or the
 * public note in network turns) and the `## Now` block.
 *
 * @module
 */
export * from "./prompt.ts";
