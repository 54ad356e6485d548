/**
 * What the TUI's chat screen draws, as plain data (the controller makes a new
 * {@linkcode TuiState} after every change), and how the conversation's snapshot and
 * choices become the status bar's facts and a picker.
 *
 * @module
 */
import type { Choice, ConversationSnapshot } from "@agent/hub";
import type { HubFacts } from "./hub_watch.ts";

/** One entry of the transcript. */
export interface Entry {
  kind: "user" | "assistant" | "system" | "error";
  text: string;
}

/** The choices an approval offers once focused, in order. */
export const APPROVAL_CHOICES = ["once", "session", "deny"] as const;

/** An approval waiting for the person. */
export interface PendingApproval {
  id: string;
  tool: string;
  /** What will happen, written for the owner. */
  message: string;
  /** The arguments in short. */
  summary: string;
  /**
   * The running hub's conversation that asked (`email:…`, `messenger:…`), when the
   * approval is the hub's, not this TUI's own: it is decided through the control API.
   */
  from?: string | undefined;
  /** The button focused (Tab), an index of {@linkcode APPROVAL_CHOICES}; absent: the input. */
  focus: number | undefined;
}

/** A picker open over the chat (`/model`, `/resume`). */
export interface Picker {
  kind: "model" | "resume";
  items: { value: string; label: string }[];
  index: number;
}

/** The facts of the status bar. */
export interface StatusFacts {
  role: string;
  provider: string;
  model: string;
  spentUsd: number;
  capUsd: number | null;
  period: string;
  exhausted: boolean;
  standIn: string | undefined;
  hub: HubFacts["hub"] | undefined;
  requests: number;
  session: string;
}

/** Everything the chat screen draws. */
export interface TuiState {
  entries: Entry[];
  /** The answer streaming now, shown in place under the transcript. */
  streaming: string | undefined;
  /** Lines sent while an answer runs (or an approval waits), answered in order after it. */
  queued: string[];
  busy: boolean;
  approval: PendingApproval | undefined;
  picker: Picker | undefined;
  /** The settings screen is open over the chat (`/settings`). */
  settings: boolean;
  status: StatusFacts;
  /** Set when the TUI should close, with this exit code. */
  exit: number | undefined;
}

/** The status bar's facts: the conversation's, with the hub's when known. */
export function facts(now: ConversationSnapshot, hub: HubFacts | undefined): StatusFacts {
  return {
    role: now.role,
    provider: now.provider,
    model: now.model,
    spentUsd: now.budget.spentUsd,
    capUsd: now.budget.capUsd,
    period: now.budget.period,
    exhausted: now.budget.exhausted,
    standIn: now.budget.standIn,
    hub: hub?.hub,
    requests: hub?.requests ?? 0,
    session: now.sessionId,
  };
}

/** A picker over `items`, the current one (the role answering) chosen first. */
export function picker(kind: Picker["kind"], items: readonly Choice[]): Picker {
  return {
    kind,
    items: items.map((item) => ({ value: item.value, label: item.label })),
    index: Math.max(0, items.findIndex((item) => item.current === true)),
  };
}
