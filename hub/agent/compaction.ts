/**
 * Folding a session's oldest turns into a summary, so the context budget
 * (`context_window.ts`) can drop them from the request without the model forgetting
 * what was said. The summary is written by the `fast` role (the conversation's own
 * role where no `fast` is defined), through the same call chain as every answer: its
 * budget is checked, and its cost is a ledger row of its own, marked `compaction`.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { SessionMessage } from "../sessions/mod.ts";
import type { ModelRouter } from "../router/call.ts";
import type { CallContext } from "../router/call_types.ts";
import { CHARS_PER_TOKEN, oneLine } from "./context_window.ts";

/** What the summarising model is told. */
const INSTRUCTIONS = [
  "You keep the running summary of a long conversation between a person and their",
  "personal assistant, so the assistant can go on without the old messages.",
  "You get the summary so far and the messages that follow it. Write the new summary:",
  "facts about the person, decisions, open tasks and promises, names, numbers and",
  "dates that may matter later. Leave out greetings and small talk. At most 300 words,",
  "plain sentences, in the language the conversation is in. Answer with the summary only.",
].join(" ");

/** The role that writes summaries: `fast`, else the role that answers. */
export function summaryRole(config: AgentConfig, role: string): string {
  return config.models.roles.fast !== undefined ? "fast" : role;
}

/** Options for {@linkcode summarise}. */
export interface SummariseOptions {
  router: ModelRouter;
  config: AgentConfig;
  /** The role of the conversation (when no `fast` role is defined, it writes). */
  role: string;
  /** The summary so far ("" before the first fold). */
  previous: string;
  /** The messages being folded, oldest first. */
  messages: readonly SessionMessage[];
  /** The turn's call context (channel, session); the row is marked `compaction`. */
  context: CallContext;
  /** Characters of transcript sent at most (the newest kept). */
  maxChars: number;
}

/** The new summary of `previous` followed by `messages`. */
export async function summarise(options: SummariseOptions): Promise<string> {
  const lines = options.messages.flatMap(transcriptLines);
  let body = lines.join("\n");
  if (body.length > options.maxChars) body = `…${body.slice(body.length - options.maxChars)}`;
  const prompt = [
    "Summary so far:",
    options.previous.trim() === "" ? "(none)" : options.previous.trim(),
    "",
    "Messages that follow it:",
    body,
  ].join("\n");
  const answer = await options.router.generate(
    summaryRole(options.config, options.role),
    { system: INSTRUCTIONS, messages: [{ role: "user", content: prompt }] },
    { ...options.context, purpose: "compaction" },
  );
  return answer.text.trim();
}

/** The transcript of one message: who said what, tool calls and results as one line each. */
export function transcriptLines(message: SessionMessage): string[] {
  const who = message.role === "user"
    ? "Person"
    : message.role === "assistant"
    ? "Assistant"
    : "Tool";
  if (typeof message.content === "string") return [`${who}: ${message.content}`];
  const out: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") out.push(`${who}: ${part.text}`);
    else if (part.type === "tool-call") {
      out.push(`${who} used ${part.toolName}: ${oneLine(JSON.stringify(part.input) ?? "")}`);
    } else if (part.type === "tool-result") {
      const output = part.output;
      const text = output.type === "json" ? JSON.stringify(output.value) ?? "" : output.value;
      const said = part.notRun === undefined ? "returned" : "did not run";
      out.push(`${part.toolName} ${said}: ${oneLine(text)}`);
    }
  }
  return out;
}

/** The most transcript characters a summary of a `budget`-token window reads. */
export function transcriptBudget(budget: number): number {
  return budget * CHARS_PER_TOKEN;
}
