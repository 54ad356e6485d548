/**
 * The terminal chat channel: {@linkcode TerminalChat}, the adapter that turns a
 * terminal's or a pipe's lines into a desk conversation's intents and prints its
 * events. The process around it (`runChat`) is in `hub/app/terminal_chat.ts`; the
 * terminal and pipe readers in `hub/terminal/input.ts`.
 *
 * @module
 */
export { ANSWER_AFTER_MS, TerminalChat, type TerminalChatOptions } from "./chat.ts";
