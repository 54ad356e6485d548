/**
 * The stored shape of a conversation: what a session keeps of each message, written
 * down here and versioned ({@linkcode MESSAGE_VERSION}), so it changes only when this
 * file does, never with a library's release. A stored record is
 * `{version, message_id, created_at, role, message, turn?}`; {@linkcode readStoredMessage}
 * reads it, and turns a record of an older version into this shape.
 *
 * Version 2 is a strict subset of what version 1 stored (the AI SDK 7's `ModelMessage`,
 * with the SDK's own bookkeeping parts), so a hub of the last release still reads what
 * this one writes.
 *
 * @module
 */

/** The version of the records this hub writes. Version 1: the AI SDK 7's `ModelMessage`. */
export const MESSAGE_VERSION = 2;

/**
 * What a provider attached to a part and wants back on the next call (a thinking
 * block's signature, Gemini's `thoughtSignature`, an item id), by provider name.
 */
export type ProviderData = Record<string, Record<string, unknown>>;

/** Text the model wrote. */
export interface TextPart {
  type: "text";
  text: string;
  providerOptions?: ProviderData;
}

/** The model's reasoning (thinking), sent back with its signature. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerOptions?: ProviderData;
}

/** A tool the model called, with the input it gave. */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerOptions?: ProviderData;
}

/** What a tool call gave back, as the model reads it. */
export type ToolOutput =
  | { type: "text"; value: string }
  | { type: "json"; value: unknown }
  | { type: "error-text"; value: string };

/**
 * Why a tier-2 call did not run: the owner denied it, the approval expired or was
 * cancelled (the turn ended first), or no one could be asked (no terminal, a job, a
 * network turn).
 */
export type RefusalReason = "denied" | "expired" | "cancelled" | "no_one_to_ask";

/** The result of a tool call. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: ToolOutput;
  /** Set when the call never ran (its output says so to the model). */
  notRun?: RefusalReason;
  providerOptions?: ProviderData;
}

/** A part of an assistant message. */
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;

/** One message of a conversation. */
export type SessionMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: AssistantPart[] }
  | { role: "tool"; content: ToolResultPart[] };

/** Beside each message of a keyed turn: part `part` of `of`; the last part has the answer. */
export interface TurnMark {
  key: string;
  part: number;
  of: number;
  answer?: string;
}

/** One stored message of a session's agent. */
export interface StoredMessage {
  /** @default MESSAGE_VERSION (a record without one is version 1) */
  version: number;
  message_id: number;
  created_at: string;
  /** The role (of `agent.toml`) that answered. */
  role?: string;
  message: SessionMessage;
  /** The exchange a keyed turn wrote. */
  turn?: TurnMark;
}

/**
 * A listed record as a {@linkcode StoredMessage} of this version, or `undefined` when it
 * is none (another kind of record, or one no version of the hub wrote). Version 1
 * records lose the SDK's bookkeeping (custom parts such as `anthropic.message_start`,
 * approval requests and responses, files, a provider's own tool calls and results),
 * which no model reads again.
 *
 * @example
 * ```ts
 * import { readStoredMessage } from "./message.ts";
 * const old = {
 *   message_id: 1,
 *   created_at: "2026-11-20T10:00:00.000Z",
 *   message: { role: "assistant", content: [
 *     { type: "custom", kind: "anthropic.message_start", providerOptions: { anthropic: {} } },
 *     { type: "text", text: "Hi." },
 *   ] },
 * };
 * const read = readStoredMessage(old);
 * if (read?.version !== 2 || read.message.content.length !== 1) throw new Error("not read");
 * ```
 */
export function readStoredMessage(record: unknown): StoredMessage | undefined {
  if (!isObject(record) || !isObject(record.message)) return undefined;
  const { message_id, created_at } = record;
  if (typeof message_id !== "number" || typeof created_at !== "string") return undefined;
  const message = readMessage(record.message);
  if (message === undefined) return undefined;
  const turn = readTurnMark(record.turn);
  return {
    version: MESSAGE_VERSION,
    message_id,
    created_at,
    ...(typeof record.role === "string" ? { role: record.role } : {}),
    message,
    ...(turn === undefined ? {} : { turn }),
  };
}

/**
 * A message of any version in this version's shape, or `undefined` when it is not a
 * message (a system message is never stored; one found is left out).
 */
export function readMessage(value: unknown): SessionMessage | undefined {
  if (!isObject(value)) return undefined;
  const content = value.content;
  switch (value.role) {
    case "user":
      if (typeof content === "string") return { role: "user", content };
      if (!Array.isArray(content)) return undefined;
      return { role: "user", content: content.map((p) => isText(p) ? p.text : "").join("") };
    case "assistant":
      if (typeof content === "string") {
        return {
          role: "assistant",
          content: content === "" ? [] : [{ type: "text", text: content }],
        };
      }
      if (!Array.isArray(content)) return undefined;
      return { role: "assistant", content: content.flatMap(assistantPart) };
    case "tool":
      if (!Array.isArray(content)) return undefined;
      return { role: "tool", content: content.flatMap(toolResultPart) };
    default:
      return undefined;
  }
}

function assistantPart(part: unknown): AssistantPart[] {
  if (!isObject(part)) return [];
  const data = providerData(part.providerOptions);
  switch (part.type) {
    case "text":
    case "reasoning":
      if (typeof part.text !== "string") return [];
      return [{ type: part.type, text: part.text, ...data }];
    case "tool-call":
      // A call the provider ran itself (web search) was never the hub's to answer.
      if (part.providerExecuted === true) return [];
      if (typeof part.toolCallId !== "string" || typeof part.toolName !== "string") return [];
      return [{
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input ?? {},
        ...data,
      }];
    default:
      // Version 1's bookkeeping: custom parts, files, approval requests, provider results.
      return [];
  }
}

function toolResultPart(part: unknown): ToolResultPart[] {
  if (!isObject(part) || part.type !== "tool-result") return [];
  if (typeof part.toolCallId !== "string" || typeof part.toolName !== "string") return [];
  const notRun = refusalReason(part.notRun);
  const output = part.output;
  let read: { output: ToolOutput; notRun?: RefusalReason } | undefined;
  if (isObject(output)) {
    switch (output.type) {
      case "text":
      case "error-text":
        if (typeof output.value === "string") {
          read = { output: { type: output.type, value: output.value } };
        }
        break;
      case "json":
        read = { output: { type: "json", value: output.value ?? null } };
        break;
      case "error-json":
        read = { output: { type: "error-text", value: JSON.stringify(output.value ?? null) } };
        break;
      case "execution-denied":
        read = {
          output: {
            type: "error-text",
            value: typeof output.reason === "string" && output.reason !== ""
              ? output.reason
              : "The owner denied this call; it did not run.",
          },
          notRun: "denied",
        };
        break;
      case "content":
        if (Array.isArray(output.value)) {
          const text = output.value.map((p) => isText(p) ? p.text : "").join("");
          read = { output: { type: "text", value: text } };
        }
        break;
    }
  }
  if (read === undefined) return [];
  const reason = notRun ?? read.notRun;
  return [{
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: read.output,
    ...(reason === undefined ? {} : { notRun: reason }),
    ...providerData(part.providerOptions),
  }];
}

function readTurnMark(value: unknown): TurnMark | undefined {
  if (!isObject(value)) return undefined;
  const { key, part, of, answer } = value;
  if (typeof key !== "string" || typeof part !== "number" || typeof of !== "number") {
    return undefined;
  }
  return { key, part, of, ...(typeof answer === "string" ? { answer } : {}) };
}

const REASONS: readonly string[] = ["denied", "expired", "cancelled", "no_one_to_ask"];

function refusalReason(value: unknown): RefusalReason | undefined {
  return typeof value === "string" && REASONS.includes(value) ? value as RefusalReason : undefined;
}

/** `{providerOptions}` when `value` is provider data with something in it, else `{}`. */
function providerData(value: unknown): { providerOptions?: ProviderData } {
  if (!isObject(value)) return {};
  const out: ProviderData = {};
  for (const [name, data] of Object.entries(value)) {
    if (isObject(data)) out[name] = data;
  }
  return Object.keys(out).length === 0 ? {} : { providerOptions: out };
}

function isText(part: unknown): part is { type: "text"; text: string } {
  return isObject(part) && part.type === "text" && typeof part.text === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
