/**
 * Tools the model may call, each with a tier: tier 1 runs on its own, tier 2 always
 * asks the owner first (through an {@linkcode Approver}). Without a way to ask (no
 * terminal, a network turn), the answer is no.
 *
 * @module
 */
import type { z } from "zod";
import type { AgentPaths } from "../paths.ts";
import type { ToolsConfig } from "../config/mod.ts";
import type { Channel, Ledger } from "../ledger/mod.ts";
import type { Lang } from "../i18n.ts";
import { errorMessage } from "@agent/net/common";

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
  /** `[tools]` of `agent.toml` (the search provider, the shell's limits). */
  settings?: ToolsConfig | undefined;
  /** The spend ledger a paid tool writes its row to (and checks its budget in). */
  ledger?: Ledger | undefined;
  /** Where the turn came from, for the ledger. @default "cli" */
  channel?: Channel | undefined;
  /** The conversation's session (the shell's scratch folder, the ledger row). */
  sessionId?: string | undefined;
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
  execute(
    input: unknown,
    call: { toolCallId: string; abortSignal?: AbortSignal | undefined },
  ): Promise<unknown>;
}

/** The tools of a turn by name. */
export type ModelTools = Record<string, ModelTool>;

/** Which call an approval is for. */
export interface ApprovalCall {
  /** The model's id of the tool call. */
  toolCallId: string;
}

/** Decides whether a tier-2 tool may run. */
export interface Approver {
  /** `true` to run `tool` with `args`. May throw {@linkcode ApprovalInterrupted}. */
  approve(tool: string, args: unknown, call?: ApprovalCall): Promise<boolean>;
}

/** The owner gave up at an approval prompt (Ctrl-C): the whole turn, and chat, end. */
export class ApprovalInterrupted extends Error {
  override name = "ApprovalInterrupted";
  constructor() {
    super("Approval interrupted: the owner pressed Ctrl-C at the prompt");
  }
}

/** An approver that always says no: network turns, and chat without a terminal. */
export const rejectAll: Approver = {
  approve: () => Promise.resolve(false),
};

/** What a declined tier-2 tool returns to the model. */
export const DECLINED = {
  declined: true,
  message: "The owner declined this action. Do not try it again; say what you would have done.",
};

/** Options for {@linkcode toToolSet}. */
export interface ToolSetOptions {
  approver: Approver;
  context: ToolContext;
  /** Called when an approval prompt was interrupted, so the caller can end the turn. */
  onInterrupt?: (() => void) | undefined;
}

/**
 * The tools of a turn for `tools`: tier-2 tools ask `approver` before each run. A
 * tool's error goes back to the model as `{error}` so it can say what went wrong.
 */
export function toToolSet(tools: readonly AgentTool[], options: ToolSetOptions): ModelTools {
  const set: ModelTools = {};
  for (const t of tools) {
    set[t.name] = {
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.jsonSchema !== undefined ? { jsonSchema: t.jsonSchema } : {}),
      ...(t.origin !== undefined ? { deferrable: true } : {}),
      execute: async (input, call) => {
        if (t.tier >= 2) {
          let ok: boolean;
          try {
            ok = await options.approver.approve(t.name, input, { toolCallId: call.toolCallId });
          } catch (error) {
            if (error instanceof ApprovalInterrupted) options.onInterrupt?.();
            throw error;
          }
          if (!ok) return DECLINED;
        }
        try {
          const context = call.abortSignal === undefined
            ? options.context
            : { ...options.context, signal: call.abortSignal };
          return await t.execute(input as never, context);
        } catch (error) {
          return { error: errorMessage(error) };
        }
      },
    };
  }
  return set;
}
