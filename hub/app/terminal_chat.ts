/**
 * `agent chat` as a process: everything that can stop it (an invalid role, an unknown
 * session, a missing key) is checked before anything opens and ends with one sentence
 * and exit 2; then the ledger, the desk (with the app's slash commands) and its `chat`
 * conversation open, and `TerminalChat` (`hub/channels/chat/`) runs it over a terminal
 * or a pipe, with the hub's owner events shown as they come. The checks load only what
 * they need (the session store, the role's credentials): a refusal is one sentence
 * without the desk, the tools or zod, which `_terminal_chat_run.ts` loads after them.
 *
 * @module
 */
import { UserError } from "../user_error.ts";
import type { ChatOptions } from "./_chat_options.ts";
import { missingCredentialOf, pickSession } from "../desk/pick.ts";

export type { ChatOptions } from "./_chat_options.ts";

/**
 * Runs chat to the end; returns the exit code (0, or 130 when left with Ctrl-C at the
 * prompt or at an approval). What stops it before anything opens is thrown as a
 * `UserError`: exit 2 for an unknown session or role or a missing key, 1 when the
 * ledger cannot be opened.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  // Checks before anything opens (or loads).
  const picked = await pickSession(options);
  const missing = missingCredentialOf(options, picked.role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) throw new UserError(`fail ${missing}`, 2);
  const { runPickedChat } = await import("./_terminal_chat_run.ts");
  return await runPickedChat(options, picked);
}
