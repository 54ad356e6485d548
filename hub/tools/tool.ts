/**
 * Tools the model may call, each with a tier: tier 1 runs on its own, tier 2 always
 * asks the owner first (through the turn's {@linkcode BeforeToolCall} hook). Without a
 * way to ask (no terminal, a job, a network turn), the answer is no.
 *
 * @module
 */
import type { z } from "zod";
import type { RefusalReason } from "../sessions/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { ToolsConfig } from "../config/mod.ts";
import type { Channel, Ledger } from "../ledger/mod.ts";
import type { Lang } from "../i18n.ts";
import { errorMessage } from "@agent/net/common";

export type { RefusalReason };

/** What a tool may use while it runs. */
export interface ToolContext {
  paths: AgentPaths;
  env: Readonly<Record<string, string | undefined>>;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** Aborts when the turn is cancelled (a child or a server call is then stopped). */
  signal?: AbortSignal | undefined;
  /** `[tools]` of `agent.toml` (`fetch_private`, the search provider, the shell's limits). */
  settings?: Partial<ToolsConfig> | undefined;
  /** The spend ledger a paid tool writes its row to (and checks its budget in). */
  ledger?: Ledger | undefined;
  /** Where the turn came from, for the ledger. @default "cli" */
  channel?: Channel | undefined;
  /** The conversation's session (the shell's scratch folder, the ledger row). */
  sessionId?: string | undefined;
  /** What the turn knows about itself (set by the tool layer, read by the memory tools). */
  turn?: TurnState | undefined;
  /**
   * This call ran after the owner allowed it on the turn's hook (a tool that
   * {@linkcode AgentTool.asks} for it). @default false
   */
  approved?: boolean | undefined;
}

/**
 * One turn's state the tool layer keeps: whether its context holds untrusted content
 * (a fetched page, a search or an MCP result, a forwarded mail), in which case nothing
 * the turn asks to remember is kept in the owner's memory without the owner's approval.
 * Set from the turn's own input and history when it starts, and by
 * {@linkcode toToolSet} the moment a tool whose results are untrusted runs.
 */
export interface TurnState {
  untrusted: boolean;
  /**
   * The turn has someone to ask (its `beforeToolCall` hook can ask the owner): without
   * one, a tool that would ask does what it does when no one is there. @default false
   */
  canAsk?: boolean | undefined;
}

/** Where a tool comes from when it is not the agent's own: an MCP server's tool. */
export interface ToolOrigin {
  /** The server's name in `[mcp.servers]`. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
}

/** A tool: a name, a tier, an input schema and what it does. */
export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  /** 1 runs freely; 2 asks the owner before every run. */
  tier: 1 | 2;
  /** What the model reads to decide when to call it. */
  description: string;
  inputSchema: S;
  /**
   * The input's JSON schema exactly as its source gave it (an MCP server's, as pinned),
   * sent to the model instead of one made from `inputSchema`.
   */
  jsonSchema?: Record<string, unknown> | undefined;
  /** An MCP server's tool: which server and tool (jobs, `agent components`). */
  origin?: ToolOrigin | undefined;
  /**
   * What a run with `input` will do, in one sentence for the owner who approves it
   * (`The agent wants to fetch https://…`). Tier-2 tools have one; without it an
   * approval names the tool.
   */
  describe?(input: z.infer<S>, lang: Lang): string;
  /**
   * A tier-1 tool that asks the turn's hook for this call all the same (`remember`, once
   * the turn's context holds outside content): asked like a tier-2 call, run only when
   * allowed, and then run with `context.approved`. @default never
   */
  asks?(input: z.infer<S>, context: ToolContext): boolean;
  /**
   * Its results are content from outside (a web page, a search, an MCP server, a
   * mail): once it runs, the turn's context holds untrusted content. @default false
   */
  untrusted?: boolean | undefined;
  /**
   * What "Allow for this session" covers for a call with `input`: `fetch_url` gives the
   * host, so allowing one site does not allow every site. @default the tool's name
   */
  sessionScope?(input: z.infer<S>): string;
  /**
   * Whether the tool is offered with these settings (web search needs a provider, the
   * shell needs `enabled` and bubblewrap). @default always
   */
  offered?(settings: ToolsConfig): boolean | Promise<boolean>;
  /** Runs the tool; the result goes back to the model as JSON. */
  execute(input: z.infer<S>, context: ToolContext): Promise<unknown>;
}

/**
 * A tool as a turn's tool loop runs it: what the model reads, the input's schema and
 * the run (input already checked against the schema).
 */
export interface ModelTool {
  description?: string | undefined;
  inputSchema: z.ZodType;
  /** Sent to the model in place of the JSON schema made from `inputSchema`. */
  jsonSchema?: Record<string, unknown> | undefined;
  /** May be held back until the model asks for it (an MCP server's tool). @default false */
  deferrable?: boolean | undefined;
  /**
   * A tier-2 tool (or, as a function, a call with this input and id): the turn's hook
   * decides whether it runs. @default false
   */
  needsApproval?: boolean | ((input: unknown, toolCallId: string) => boolean) | undefined;
  execute(
    input: unknown,
    call: { toolCallId: string; abortSignal?: AbortSignal | undefined },
  ): Promise<unknown>;
}

/** The tools of a turn by name. */
export type ModelTools = Record<string, ModelTool>;

/**
 * A tier-2 call on its way, as the turn's {@linkcode BeforeToolCall} hook sees it: the
 * tool, the input the model gave (checked against the tool's schema) and the call's id.
 */
export interface ToolCallCheck {
  tool: AgentTool;
  input: unknown;
  /** The model's id of the call. */
  toolCallId: string;
  /** Aborts when the turn ends (cancelled) before the hook answered. */
  signal: AbortSignal;
}

/** What the hook decided: the call runs, or it does not and the model is told why. */
export type ToolVerdict = { allow: true } | { allow: false; reason: RefusalReason };

/**
 * Asked before every tier-2 call, one call at a time in the order the model made them
 * (pi-agent-core's `beforeToolCall`). Passed per turn: the desk asks the owner, a job
 * or a network turn passes none (then every tier-2 call is refused, `no_one_to_ask`).
 * A hook that throws ends the turn with its error (`ApprovalInterrupted`: Ctrl-C at
 * the prompt); what ran before is kept.
 */
export type BeforeToolCall = (call: ToolCallCheck) => Promise<ToolVerdict>;

/** A tier-2 call that did not run, as a turn reports it to its caller. */
export interface ToolRefusal {
  toolName: string;
  toolCallId: string;
  reason: RefusalReason;
}

/** The owner gave up at an approval prompt (Ctrl-C): the whole turn, and chat, end. */
export class ApprovalInterrupted extends Error {
  override name = "ApprovalInterrupted";
  constructor() {
    super("Approval interrupted: the owner pressed Ctrl-C at the prompt");
  }
}

/** Why the call did not run, as the model reads it (in its tool result). */
const REFUSED: Record<RefusalReason, string> = {
  denied: "the owner denied it. Do not try it again; say what you would have done",
  expired: "no one answered the approval request in time. Do not say it ran",
  cancelled: "the owner cancelled the turn before it could run",
  no_one_to_ask:
    "it needs the owner's approval and no one could be asked here. Do not say it ran; tell the owner it did not run",
};

/**
 * The tool result a refused tier-2 call gives the model: it did NOT run, and why.
 *
 * @example
 * ```ts
 * import { refusalText } from "./tool.ts";
 * const text = refusalText("write_note", "no_one_to_ask");
 * if (!text.startsWith("write_note did NOT run: ")) throw new Error(text);
 * ```
 */
export function refusalText(toolName: string, reason: RefusalReason): string {
  return `${toolName} did NOT run: ${REFUSED[reason]}.`;
}

/** Options for {@linkcode toToolSet}. */
export interface ToolSetOptions {
  context: ToolContext;
}

/**
 * The tools of a turn for `tools`: tier-2 tools are marked as needing approval (the
 * tool loop asks the turn's hook before it runs one). A tool's error goes back to the
 * model as `{error}` so it can say what went wrong.
 */
export function toToolSet(tools: readonly AgentTool[], options: ToolSetOptions): ModelTools {
  const set: ModelTools = {};
  // The calls of tools that ask for them which the hook was asked about (and allowed,
  // since a refused call never runs).
  const asked = new Set<string>();
  for (const t of tools) {
    const asks = t.asks;
    set[t.name] = {
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.jsonSchema !== undefined ? { jsonSchema: t.jsonSchema } : {}),
      ...(t.origin !== undefined ? { deferrable: true } : {}),
      needsApproval: t.tier >= 2 || asks === undefined ? t.tier >= 2 : (input, toolCallId) => {
        if (!asks.call(t, input as never, options.context)) return false;
        asked.add(toolCallId);
        return true;
      },
      execute: async (input, call) => {
        // From here on the turn's context holds what the tool brings in, whatever it is.
        if (t.untrusted === true && options.context.turn !== undefined) {
          options.context.turn.untrusted = true;
        }
        try {
          const approved = asked.delete(call.toolCallId);
          const context = call.abortSignal === undefined && !approved ? options.context : {
            ...options.context,
            ...(call.abortSignal === undefined ? {} : { signal: call.abortSignal }),
            ...(approved ? { approved } : {}),
          };
          return await t.execute(input as never, context);
        } catch (error) {
          return { error: errorMessage(error) };
        }
      },
    };
  }
  return set;
}
