/**
 * The terminal chat channel: {@linkcode runChat} over the desk, reading from a
 * {@linkcode TerminalInput} or a {@linkcode PipedInput}.
 *
 * @module
 */
export { type ChatOptions, runChat } from "./chat.ts";
export { type ChatInput, PipedInput, type TerminalHandlers, TerminalInput } from "./input.ts";
