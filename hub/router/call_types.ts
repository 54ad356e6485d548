/**
 * The types of the call chain: where a call comes from, what a turn collected, the
 * router's options, requests and events.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { CallPurpose, Channel, Ledger } from "../ledger/mod.ts";
import type { CallOptions } from "../models/mod.ts";
import type { RetryOptions } from "./retry.ts";
import type { SessionMessage } from "../sessions/mod.ts";
import type { ModelTools } from "../tools/mod.ts";
import type { LoopApproval, LoopCut, LoopEvent } from "./tool_loop.ts";

/** Where a call comes from; written into its ledger row. */
export interface CallContext {
  channel: Channel;
  sessionId?: string | null | undefined;
  /** The other agent's address, for network turns. */
  peer?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** What the call is for: an answer (default) or a summary of folded turns. */
  purpose?: CallPurpose | undefined;
  /**
   * A ceiling on what the session may spend (a job's run, which has a session of its
   * own): each call reserves its most possible cost against it first and is refused
   * when that does not fit ({@linkcode CeilingError}), so it is never passed.
   */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /** The estimated tokens of recalled memories the call's prompt carries (its ledger row keeps them). */
  recallTokens?: number | undefined;
}

/** What happened on the way to an answer, filled in while a turn runs. */
export interface TurnTrace {
  /** The role that answered last. */
  usedRole: string | undefined;
  /** Notices the reply ends with (degraded, failed over), in order. */
  notices: string[];
}

/** Options for {@linkcode ModelRouter}. */
export interface ModelRouterOptions {
  config: AgentConfig;
  /** The merged environment (`.env` and process). */
  env: Readonly<Record<string, string | undefined>>;
  /** The spend ledger; without one, budgets are not checked and nothing is recorded. */
  ledger?: Ledger | undefined;
  logger: Logger;
  /** @default "en" */
  lang?: Lang | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** The fetch providers use. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  /** The 429 policy. */
  retry?: RetryOptions | undefined;
  /** @default 3000 */
  connectTimeoutMs?: number | undefined;
  /** Told of every failover (the hub tells the owner once per role and period). */
  onFailover?: ((event: FailoverEvent) => void) | undefined;
}

/** A role that could not be reached and the stand-in that answered for it. */
export interface FailoverEvent {
  role: string;
  standIn: string;
  /** Why the role's model could not be reached. */
  reason: string;
}

/** A request for {@linkcode ModelRouter.stream} and {@linkcode ModelRouter.generate}. */
export interface ModelRequest {
  /**
   * The system prompt, or its parts in order: the first part is what a prompt cache
   * may keep (vendor-a and vendor-d with a `cache` table); other providers get the
   * parts joined into one.
   */
  system?: string | readonly string[] | undefined;
  messages: SessionMessage[];
  tools?: ModelTools | undefined;
  /** Tool-loop steps at most. @default 8 */
  maxSteps?: number | undefined;
  /** Asked before each tier-2 call (see `runToolLoop`); without it they are refused. */
  approve?: LoopApproval | undefined;
}

/** What {@linkcode ModelRouter.stream} yields: the tool loop's events, then `done`. */
export type RouterEvent =
  | Exclude<LoopEvent, { type: "done" }>
  | {
    type: "done";
    text: string;
    usedRole: string | undefined;
    notices: string[];
    /** The assistant and tool messages of this turn, for the session. */
    messages: SessionMessage[];
    /** Why the answer stopped short, when it did. */
    cut?: LoopCut;
  };

/** One provider call on its way through the chain. */
export interface RouteCall {
  options: CallOptions;
  context: CallContext;
  /** Collects the notices and the role that answered. */
  trace: TurnTrace;
  /** Roles already passed, so stand-ins never loop. */
  path: string[];
  kind: "stream" | "generate";
}
