/**
 * `agent chat` once its checks passed (`terminal_chat.ts`): the ledger, the desk (with
 * the app's slash commands) and its `chat` conversation open, and
 * {@linkcode TerminalChat} runs it over a terminal or a pipe, with the hub's owner
 * events shown as they come. Loaded only then, since it brings the whole agent.
 *
 * @module
 */
import { UserError } from "../user_error.ts";
import { type Ledger, LedgerError } from "../ledger/mod.ts";
import { ledgerErrorSentence, ledgerReadOnlySentence } from "../spend/mod.ts";
import { Desk, deskSentence as t, messageLines, type PickedSession } from "../desk/mod.ts";
import { followHubEvents } from "../control/follow.ts";
import { TerminalChat } from "../channels/chat/chat.ts";
import { appCommands } from "./desk_commands.ts";
import { openMemory } from "./memory_store.ts";
import type { ChatOptions } from "./_chat_options.ts";

/** Opens the conversation `picked` names and runs it to the end; returns the exit code. */
export async function runPickedChat(options: ChatOptions, picked: PickedSession): Promise<number> {
  const { lang, input } = options;
  let ledger: Ledger;
  try {
    ledger = options.openLedger();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw new UserError(ledgerErrorSentence(lang, error), 1, { cause: error });
  }
  const memory = openMemory(options.config, options.paths, lang, options.logger);
  const desk = new Desk({
    config: options.config,
    env: options.env,
    paths: options.paths,
    lang,
    logger: options.logger,
    ledger,
    tools: await options.tools(),
    commands: appCommands(),
    profile: options.profile,
    sessions: picked.sessions,
    memory,
    now: options.now,
  });
  const conversation = await desk.open("chat", {
    picked,
    ...(input.interactive ? { secret: (prompt: string) => input.secret(prompt) } : {}),
    columns: options.columns,
    approvals: input.interactive ? "ask" : "deny",
  });
  const encoder = new TextEncoder();
  const chat = new TerminalChat(conversation, {
    lang,
    input,
    write: options.write,
    writeError: options.writeError ?? ((text) => Deno.stderr.writeSync(encoder.encode(text))),
    columns: options.columns,
    color: options.color,
  });
  // A home this process may not write: budgets are checked, the calls cannot be counted.
  if (ledger.readOnly) chat.line(ledgerReadOnlySentence(lang, ledger.file));
  const following = new AbortController();
  try {
    if (input.interactive) {
      const now = conversation.snapshot();
      chat.line(t(lang, "header", {
        session: now.sessionId,
        role: now.role,
        provider: now.provider,
        model: now.model,
      }));
      if (picked.resumed) {
        const history = messageLines(await conversation.history());
        chat.line(t(lang, "resumed", { session: picked.sessionId, count: history.length }));
      }
      if (picked.notice) chat.line(picked.notice);
      // What the hub tells the owner meanwhile (a contact request) shows as it happens.
      void followHubEvents({
        port: options.config.hub.port,
        dataDir: options.paths.dataDir,
        signal: following.signal,
        onEvent: (event) => chat.ownerEvent(event),
      });
    }
    return await chat.run();
  } finally {
    following.abort();
    chat.close();
    await desk.close();
    input.close();
    memory?.close();
    ledger.close();
  }
}
