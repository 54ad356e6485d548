/**
 * Approvals as a hook of each turn, in the shape of pi-agent-core's `beforeToolCall`:
 * before a tier-2 tool runs, the turn asks the hook, which answers nothing (run it) or
 * `{block: true, reason}`. The conversation makes a hook for each turn (it asks the
 * owner on the desk, or refuses where no one can be asked), so no approver is wired
 * into an agent when it is built.
 *
 * Until the agent's `TurnOptions` take such a hook, {@linkcode turnWithHook} hands it to
 * the agent through a {@linkcode TurnGate} (the agent's approver asks the hook of the
 * turn running now): switching to the turn option changes this file only.
 *
 * @module
 */
import type { Agent, TurnOptions, TurnResult } from "../agent/mod.ts";
import type { Approver } from "../tools/mod.ts";

import type { RefusalReason } from "./events.ts";

/** A tool call the turn asks about before it runs. */
export interface ToolCallAsk {
  toolName: string;
  toolCallId: string;
  args: unknown;
}

/** What a hook answers: `undefined` lets the call run. */
export type ToolCallVerdict = { block: true; reason: RefusalReason } | undefined;

/** Asked before each tier-2 tool call of one turn. */
export type BeforeToolCall = (call: ToolCallAsk) => Promise<ToolCallVerdict>;

/**
 * The approver an agent is built with, asking the hook of the turn running now; with no
 * turn running (or none set), every call is refused.
 */
export class TurnGate {
  #hook: BeforeToolCall | undefined;

  /** The agent's approver. */
  readonly approver: Approver = {
    approve: async (toolName, args, call) => {
      const hook = this.#hook;
      if (hook === undefined) return false;
      const toolCallId = call?.toolCallId ?? crypto.randomUUID();
      return await hook({ toolName, toolCallId, args }) === undefined;
    },
  };

  /** What `buildAgent` takes from the gate (its approver). */
  agentOptions(): { approver: Approver } {
    return { approver: this.approver };
  }

  /** Runs `work` with `hook` asked for its tool calls. */
  async with<T>(hook: BeforeToolCall, work: () => Promise<T>): Promise<T> {
    this.#hook = hook;
    try {
      return await work();
    } finally {
      this.#hook = undefined;
    }
  }
}

/** One turn of `agent` whose tier-2 tool calls ask `hook` first. */
export function turnWithHook(
  agent: Agent,
  gate: TurnGate,
  hook: BeforeToolCall,
  turn: { sessionId: string; text: string; options: TurnOptions },
): Promise<TurnResult> {
  return gate.with(hook, () => agent.turn(turn.sessionId, turn.text, turn.options));
}
