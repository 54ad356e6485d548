/**
 * The owner events: what the hub tells its owner's channels (contact requests, budget
 * warnings and spent budgets, failovers, dropped outbox messages). The spec leaves the
 * payload open; these are the shapes the channels read.
 *
 * - `{ts, type: "net.contact_request", address, name, text}`: a stranger asked to
 *   become a contact; `agent net accept <address>` accepts.
 * - `{ts, type: "budget.warning" | "budget.spent", role, spent_usd, cap_usd, period,
 *   text}`: a budgeted role passed its `warn_at` share of the cap, or spent it (`text`
 *   is the sentence in the hub's UI language); each told once per role and period.
 * - `{ts, type: "model.failover", role, stand_in, text}`: a role's model could not be
 *   reached and its failover answered; told once per role and day.
 * - `{ts, type: "net.outbox_dropped", address, id, text}`: a message the outbox gave up
 *   on after 24 hours.
 * - `{ts, type: "net.digest", conversations, more, text}`: the network conversations the agent
 *   answered since the last digest, one entry per peer and thread (at most 20; `more`
 *   counts the rest).
 * - `{ts, type: "job.result", job, slot_id, usd, deliver, text}`: a scheduled job's
 *   answer (with its name and cost); `deliver: "events"` keeps it off the messenger.
 * - `{ts, type: "tool.notice", server, text}`: an MCP server's tools changed since the
 *   owner pinned them (it is off until `agent mcp pin`), or it failed to start or died;
 * - `{ts, type: "job.notice", job, text}`: a job was paused at a ceiling or a spent
 *   budget, missed slots, or failed; told once each.
 * - `{ts, type: "memory.proposed", kept, pending, text}`: the memory role read a quiet
 *   conversation and kept or proposed memories (how many; never their text, which a
 *   forget must be able to erase).
 * - `{ts, type: "email.refused", count, by_reason, text}`: mail to the agent that was not
 *   answered (a sender not allowed or not proven, past the hourly limit, a machine),
 *   gathered and told at most every 10 minutes.
 * - `{ts, type: "email.undelivered", to, subject, text}`: an answer by mail the outbox
 *   gave up on after 24 hours (or that the server refused for good).
 *
 * Once written, each carries its `event_id` ({@linkcode OwnerEvent}). An event whose
 * `text` is the hub's own sentence also carries `said`, that sentence as a code and its
 * parameters ({@linkcode EventSaid}), so each reader says it in its own language; rows
 * written before `said` existed show their `text`.
 *
 * @module
 */
import type { EventSaid } from "./said.ts";

/** A stranger's contact request. */
export interface ContactRequestEvent {
  /** Unix seconds. */
  ts: number;
  type: "net.contact_request";
  address: string;
  name: string;
  text: string;
}

/** A budgeted role passed its warning threshold. */
export interface BudgetWarningEvent {
  /** Unix seconds. */
  ts: number;
  type: "budget.warning" | "budget.spent";
  role: string;
  spent_usd: number;
  cap_usd: number;
  period: string;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** A role's model could not be reached and its failover answered. */
export interface FailoverNetEvent {
  /** Unix seconds. */
  ts: number;
  type: "model.failover";
  role: string;
  stand_in: string;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** A message the outbox gave up on after 24 hours. */
export interface OutboxDroppedEvent {
  /** Unix seconds. */
  ts: number;
  type: "net.outbox_dropped";
  address: string;
  /** The envelope's id (not the event's: that is `event_id`). */
  id: string;
  /** The message's text. */
  text: string;
}

/** One network conversation the agent answered, as a digest tells it. */
export interface DigestConversation {
  /** The other agent's address. */
  address: string;
  /** Its name (another agent's text, without control characters). */
  name: string;
  thread: string;
  /** The first line of what they asked first. */
  asked: string;
  /** The first line of what the agent answered first. */
  answered: string;
  /** How many of their messages the agent answered in this conversation. */
  turns: number;
  /** Unix seconds of the first and the last answer. */
  first_ts: number;
  last_ts: number;
}

/** The network conversations the agent answered since the last digest. */
export interface NetDigestEvent {
  /** Unix seconds. */
  ts: number;
  type: "net.digest";
  conversations: DigestConversation[];
  /** Conversations left out of `conversations` (past 20). */
  more: number;
  /** The digest as lines, in the hub's UI language. */
  text: string;
}

/** A scheduled job's answer. */
export interface JobResultEvent {
  /** Unix seconds. */
  ts: number;
  type: "job.result";
  job: string;
  /** The slot that ran (`<job>@<ISO instant>`): one event per slot. */
  slot_id: string;
  /** What the run cost. */
  usd: number;
  /** `messenger`: the owner's chats too; `events`: the event stream only. */
  deliver: "messenger" | "events";
  /** The sentence with the job's name, its cost and the answer. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** A job was paused (a ceiling, a spent budget), missed slots, or failed. */
export interface JobNoticeEvent {
  /** Unix seconds. */
  ts: number;
  type: "job.notice";
  job: string;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** The memory role kept or proposed memories from a quiet conversation. */
export interface MemoryProposedEvent {
  /** Unix seconds. */
  ts: number;
  type: "memory.proposed";
  /** Memories put in force at once (`extract = "auto"`). */
  kept: number;
  /** Memories waiting for the owner's approval. */
  pending: number;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** An MCP server the owner should hear of: its tools changed, or it failed. */
export interface ToolNoticeEvent {
  /** Unix seconds. */
  ts: number;
  type: "tool.notice";
  /** The server's name in `[mcp.servers]`. */
  server: string;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** Mail to the agent that was not answered, since the last such event. */
export interface EmailRefusedEvent {
  /** Unix seconds. */
  ts: number;
  type: "email.refused";
  /** How many mails. */
  count: number;
  /** How many for each reason (`unauthenticated`, `unknown_sender`, ...). */
  by_reason: Record<string, number>;
  /** The lines, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** An answer by mail that could not be sent. */
export interface EmailUndeliveredEvent {
  /** Unix seconds. */
  ts: number;
  type: "email.undelivered";
  to: string;
  subject: string;
  /** The sentence, in the hub's UI language. */
  text: string;
  /** The sentence as a code and its parameters, said in each reader's language. */
  said?: EventSaid;
}

/** One agent event for the owner's channels, as a writer hands it over. */
export type NetEvent =
  | ContactRequestEvent
  | BudgetWarningEvent
  | FailoverNetEvent
  | OutboxDroppedEvent
  | NetDigestEvent
  | JobResultEvent
  | JobNoticeEvent
  | MemoryProposedEvent
  | ToolNoticeEvent
  | EmailRefusedEvent
  | EmailUndeliveredEvent;

/**
 * Every owner event type and its fields besides `ts` and `type`, in the order
 * `docs/hub.md`'s table lists them (a docs test checks that table against this one; the
 * type below makes it name every type and only real fields).
 */
export const OWNER_EVENT_FIELDS: {
  readonly [T in NetEvent["type"]]: readonly Exclude<
    keyof Extract<NetEvent, { type: T }>,
    "ts" | "type"
  >[];
} = {
  "net.contact_request": ["address", "name", "text"],
  "budget.warning": ["role", "spent_usd", "cap_usd", "period", "text"],
  "budget.spent": ["role", "spent_usd", "cap_usd", "period", "text"],
  "model.failover": ["role", "stand_in", "text"],
  "net.outbox_dropped": ["address", "id", "text"],
  "net.digest": ["conversations", "more", "text"],
  "job.result": ["job", "slot_id", "usd", "deliver", "text"],
  "job.notice": ["job", "text"],
  "memory.proposed": ["kept", "pending", "text"],
  "tool.notice": ["server", "text"],
  "email.refused": ["count", "by_reason", "text"],
  "email.undelivered": ["to", "subject", "text"],
};

/**
 * An event as written and read back: with its id (`<ms>-<seq>`, see `event_id.ts`),
 * stable across restarts and sortable as a string.
 */
export type OwnerEvent = NetEvent & { event_id: string };

/** Where a writer hands its events: the hub's bus, or the file when no hub runs here. */
export interface OwnerEventSink {
  /** Writes the event durably (and, on the bus, tells the subscribers); returns it with its id. */
  publish(event: NetEvent): Promise<OwnerEvent>;
}

/** How many events the file keeps. */
export const EVENTS_MAX = 200;
