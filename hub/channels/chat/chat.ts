/**
 * `agent chat`: the terminal conversation. Everything that can stop it (invalid role,
 * unknown session, a missing key) is checked before anything opens, and ends with one
 * sentence and exit 2. Answers stream as they arrive. From a pipe it reads one
 * message per line, prints each answer and exits 0 at the end of input.
 *
 * @module
 */
import { UserError } from "../user_error.ts";
import { budgetWarningSentence } from "../money/mod.ts";
import { ApprovalInterrupted } from "../tools/mod.ts";
import { t } from "./_messages.ts";
import type { Agent } from "./agent.ts";
import type { ChatInput } from "./chat_input.ts";
import { TurnEndedError } from "./errors.ts";
import { describeRole, runSlashCommand } from "./slash_commands.ts";
import {
  budgetWarningsFor,
  type ConversationOptions,
  missingCredentialOf,
  openConversation,
  pickConversation,
} from "./conversation.ts";

export { newSessionId } from "./conversation.ts";

/** Options for {@linkcode runChat}. */
export interface ChatOptions extends ConversationOptions {
  input: ChatInput;
  /** Writes text as is (answers stream through it). */
  write(text: string): void;
}

/**
 * Runs chat to the end; returns the exit code (0, or 130 when abandoned at an approval
 * prompt). What stops it before anything opens is thrown as a `UserError`: exit 2 for
 * an unknown session or role or a missing key, 1 when the ledger cannot be opened.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const lang = options.lang;
  // --- checks before anything opens -------------------------------------------------
  const picked = await pickConversation(options);
  const { sessionId, resumed, notice, role } = picked;
  const missing = missingCredentialOf(options, role);
  // The Errors table's line, the same one `agent doctor` prints for this role.
  if (missing !== undefined) throw new UserError(`fail ${missing}`, 2);

  // --- open ---------------------------------------------------------------------------
  const input = options.input;
  const chat = await openConversation(options, picked, {
    approver: {
      approve(tool, args) {
        return input.confirm(t(lang, "chat_approve", { tool, args: short(JSON.stringify(args)) }));
      },
    },
    ...(input.interactive ? { secret: (prompt: string) => input.secret(prompt) } : {}),
  });
  const ledger = chat.ledger;
  const line = (text: string) => options.write(`${text}\n`);

  try {
    if (input.interactive) {
      line(t(lang, "chat_header", { session: sessionId, ...describeRole(chat.agent, role) }));
      if (resumed) {
        const count = (await chat.agent.history(sessionId)).length;
        line(t(lang, "chat_resumed", { session: sessionId, count }));
      }
    }
    if (notice && input.interactive) line(notice);
    for (;;) {
      const text = await input.readLine(input.interactive ? "› " : "");
      if (text === null) return 0;
      const trimmed = text.trim();
      if (trimmed === "") continue;
      if (trimmed.startsWith("/")) {
        const result = await runSlashCommand(chat, trimmed);
        for (const l of result.lines) line(l);
        if (result.quit) return 0;
        continue;
      }
      // A budget past its warning share is told once per period, before the answer.
      for (const warning of budgetWarningsFor(chat)) line(budgetWarningSentence(lang, warning));
      await oneTurn(chat.agent, chat.sessionId, text, options);
    }
  } catch (error) {
    if (error instanceof ApprovalInterrupted) {
      options.write("\n");
      return 130;
    }
    throw error;
  } finally {
    input.close();
    ledger.close();
  }
}

async function oneTurn(agent: Agent, sessionId: string, text: string, options: ChatOptions) {
  const controller = new AbortController();
  const stop = options.input.onInterrupt(() => controller.abort());
  let wrote = false;
  try {
    const result = await agent.turn(sessionId, text, {
      signal: controller.signal,
      onText(chunk) {
        if (!wrote) chunk = chunk.replace(/^\s+/, "");
        if (chunk === "") return;
        wrote = true;
        options.write(chunk);
      },
      // A person sees which tool runs; a script reading one answer per line does not.
      onToolCall: options.input.interactive
        ? (tool) => {
          options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_tool_call", { tool })}\n`);
          wrote = false;
        }
        : undefined,
    });
    const end = result.notices.length > 0
      ? `${wrote ? "\n\n" : ""}${result.notices.join("\n")}\n`
      : "\n";
    options.write(end);
  } catch (error) {
    if (error instanceof TurnEndedError) {
      options.write(`${wrote ? "\n" : ""}${error.sentence}\n`);
    } else if (controller.signal.aborted && !(error instanceof ApprovalInterrupted)) {
      options.write(`${wrote ? "\n" : ""}${t(options.lang, "chat_cancelled")}\n`);
    } else throw error;
  } finally {
    stop();
  }
  if (options.input.interactive) options.write("\n");
}

function short(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
