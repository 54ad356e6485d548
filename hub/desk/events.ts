/**
 * What a conversation on the desk tells its channels, as typed events named and shaped
 * after AG-UI (the open agent-to-UI protocol, `@ag-ui/core` 1.0): a run (one answer)
 * starts, its text streams as message content, tool calls start, carry their
 * arguments, end and return results, and the run finishes (or is cancelled) or fails.
 * What AG-UI has no event for travels as its `CUSTOM` event with one of
 * {@linkcode CustomName}: notices (budget, failover), a message queued behind the
 * running answer, an approval asked and decided, a tool call refused, a slash
 * command's output and a change of session.
 *
 * The shapes are plain objects with string `type`s, so a web client that speaks AG-UI
 * reads the stream as it is; a conformance test checks every event against AG-UI's
 * own schemas.
 *
 * @module
 */
import type { RefusalReason } from "../sessions/mod.ts";

/** The AG-UI event types the desk emits. */
export type DeskEventType =
  | "RUN_STARTED"
  | "TEXT_MESSAGE_START"
  | "TEXT_MESSAGE_CONTENT"
  | "TEXT_MESSAGE_END"
  | "TOOL_CALL_START"
  | "TOOL_CALL_ARGS"
  | "TOOL_CALL_END"
  | "TOOL_CALL_RESULT"
  | "RUN_FINISHED"
  | "RUN_ERROR"
  | "CUSTOM";

/** What every desk event carries. */
export interface EventBase {
  /** Epoch milliseconds. */
  timestamp: number;
}

/** A run (one answer to one message) starts. */
export interface RunStartedEvent extends EventBase {
  type: "RUN_STARTED";
  /** The session. */
  threadId: string;
  runId: string;
  /** The conversation's key and the message answered. */
  metadata: { conversation: string; text: string };
}

/** The answer's text opens (after the start or after a tool call). */
export interface TextMessageStartEvent extends EventBase {
  type: "TEXT_MESSAGE_START";
  messageId: string;
  role: "assistant";
}

/** More of the answer's text. */
export interface TextMessageContentEvent extends EventBase {
  type: "TEXT_MESSAGE_CONTENT";
  messageId: string;
  delta: string;
}

/** The answer's text closes (a tool call follows, or the run ends). */
export interface TextMessageEndEvent extends EventBase {
  type: "TEXT_MESSAGE_END";
  messageId: string;
}

/** The model asked for a tool. */
export interface ToolCallStartEvent extends EventBase {
  type: "TOOL_CALL_START";
  toolCallId: string;
  toolCallName: string;
  parentMessageId?: string;
}

/** The tool call's arguments, as JSON text. */
export interface ToolCallArgsEvent extends EventBase {
  type: "TOOL_CALL_ARGS";
  toolCallId: string;
  delta: string;
}

/** The tool call's arguments are complete. */
export interface ToolCallEndEvent extends EventBase {
  type: "TOOL_CALL_END";
  toolCallId: string;
}

/** What the tool returned (JSON text; a declined tool says so). */
export interface ToolCallResultEvent extends EventBase {
  type: "TOOL_CALL_RESULT";
  messageId: string;
  toolCallId: string;
  content: string;
}

/** What a finished run produced. */
export interface RunResult {
  /** The model's answer. */
  text: string;
  /** Notices the reply ends with (degraded, failed over). */
  notices: string[];
  /** The answer followed by its notices, as a channel shows it. */
  reply: string;
  /** The role that answered (a stand-in, when one did). */
  usedRole: string;
}

/** The run ended: answered, or cancelled by the owner. */
export interface RunFinishedEvent extends EventBase {
  type: "RUN_FINISHED";
  threadId: string;
  runId: string;
  outcome: { type: "success" } | { type: "cancelled" };
  /** The answer (absent when cancelled). */
  result?: RunResult;
}

/** The run failed; `message` is the sentence to show, in the UI language. */
export interface RunErrorEvent extends EventBase {
  type: "RUN_ERROR";
  message: string;
  /** `turn_ended` (a budget, a provider, a key: the sentence says which) or `internal`. */
  code: "turn_ended" | "internal";
}

/** The names of the desk's `CUSTOM` events. */
export type CustomName =
  | "notice"
  | "input.queued"
  | "approval.requested"
  | "approval.decided"
  | "tool.refused"
  | "command.result"
  | "session.changed"
  | "memory.recalled";

/** A sentence for the owner before an answer (a budget past its warning share). */
export interface Notice {
  kind: "budget";
  text: string;
}

/** A message typed while an answer runs: kept, and answered after those before it. */
export interface Queued {
  /** The line's id while it waits (a snapshot's `queue` lists it). */
  id: string;
  /** How many messages wait, this one included. */
  position: number;
  text: string;
}

/**
 * A tier-2 tool waits for the owner, in the shape of an AG-UI interrupt: an id, a
 * reason, the sentence to show, the tool call it holds and when it expires.
 */
export interface ApprovalRequest {
  id: string;
  reason: "tool_approval";
  /** What will happen, to what, written for the owner. */
  message: string;
  toolCallId: string;
  /** ISO 8601: unanswered by then, it is denied. */
  expiresAt: string;
  /** The conversation's key. */
  conversation: string;
  tool: string;
  /** The arguments in short (`name: value`, long values cut with "…"). */
  summary: string;
  /** The arguments in full, as JSON text. */
  args: string;
}

/** How an approval ended; exactly one per approval. */
export type Decision = "once" | "session" | "deny" | "expired" | "cancelled";

/** An approval was decided (by a person, the clock or a cancel). */
export interface ApprovalDecided {
  id: string;
  decision: Decision;
  tool: string;
  /** The sentence that was approved or denied. */
  message: string;
  /** Who decided: a channel's name for the person, absent for the clock or a cancel. */
  by?: string;
}

/**
 * A tier-2 tool call did not run (the model is told so in its result): `no_one_to_ask`
 * (a pipe, a job), `denied`, `expired` (no one answered in time) or `cancelled`.
 */
export interface ToolRefused {
  toolCallId: string;
  tool: string;
  reason: RefusalReason;
}

/** A slash command's output. */
export interface CommandResult {
  /** The command word (`/status`). */
  command: string;
  /** The line as the person sent it. */
  input: string;
  lines: string[];
  /** The conversation ends (`/quit`). */
  quit?: boolean;
  /** What a person may pick next (`/resume`'s sessions), each with the line that picks it. */
  choices?: { label: string; input: string }[];
}

/**
 * One message of a session's history, as a channel shows it: the text of a user's or
 * the assistant's message, or a tool call's outcome (`tool`: its name; `text`: its
 * result as JSON, as `TOOL_CALL_RESULT` carries it), which a terminal says as a sentence.
 */
export type HistoryLine =
  | { role: "user" | "assistant"; text: string }
  | { role: "tool"; tool: string; text: string };

/** The conversation moved to another session (`/resume ID`, `/new`). */
export interface SessionChanged {
  sessionId: string;
  role: string;
  /** The session's history (user and assistant messages, tool outcomes), oldest first. */
  history: HistoryLine[];
}

/**
 * The memories recalled before an answer (quoted to the model as data): their ids, so a
 * person can see why the agent said something (`agent memory show ID`), and what they
 * added to the request in tokens. Told only when the turn recalled any.
 */
export interface MemoryRecalled {
  ids: number[];
  tokens: number;
}

/** What each `CUSTOM` event carries, by its name. */
export interface CustomValues {
  "notice": Notice;
  "input.queued": Queued;
  "approval.requested": ApprovalRequest;
  "approval.decided": ApprovalDecided;
  "tool.refused": ToolRefused;
  "command.result": CommandResult;
  "session.changed": SessionChanged;
  "memory.recalled": MemoryRecalled;
}

/** AG-UI's extension event, one per {@linkcode CustomName}. */
export type CustomEvent = {
  [N in CustomName]: EventBase & { type: "CUSTOM"; name: N; value: CustomValues[N] };
}[CustomName];

/** The value of the custom event `name`. */
export type CustomValue<N extends CustomName> = CustomValues[N];

/** Every event a desk conversation emits. */
export type DeskEvent =
  | RunStartedEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallResultEvent
  | RunFinishedEvent
  | RunErrorEvent
  | CustomEvent;

/** Distributes `Omit` over a union, so each event keeps its own fields. */
export type WithoutTimestamp<E> = E extends unknown ? Omit<E, "timestamp"> : never;

/** Whether `event` is the custom event `name` (narrowing its value). */
export function isCustom<N extends CustomName>(
  event: DeskEvent,
  name: N,
): event is Extract<CustomEvent, { name: N }> {
  return event.type === "CUSTOM" && event.name === name;
}

/** A listener of a conversation's events. */
export type DeskListener = (event: DeskEvent) => void;
