/**
 * What an agent is to its callers: the options it is built with, the options and the
 * result of one turn, and the agent itself. {@linkcode buildAgent} (`agent.ts`) makes one.
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Channel, Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { PersonaFiles } from "../persona/mod.ts";
import type { SessionMessage, SessionStore } from "../sessions/mod.ts";
import type { AgentTool, BeforeToolCall, ToolRefusal } from "../tools/mod.ts";
import type { TurnMemory } from "../memory/mod.ts";
import type { ModelRouter } from "../router/call.ts";
import type { LoopCut } from "../router/tool_loop.ts";

/** What goes into the `## Now` block: the owner's channels, or a network turn's private context. */
export type NowSource = "owner" | "private";

/** Options for {@linkcode buildAgent}. */
export interface BuildAgentOptions {
  config: AgentConfig;
  /** The merged environment (`.env` and process). */
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  /** Where the turns come from; written into each ledger row. */
  channel: Channel;
  /** The role that answers (chat's `--role`, `/model`). */
  role: string;
  tools: readonly AgentTool[];
  /** `persona.md` plus `user.md`, or the public note in place of `user.md`. */
  persona: PersonaFiles;
  /**
   * `owner` (default): time, profile, this machine's role and the budgets. `private`
   * (network turns): time; the profile and the host role read `not shared with other
   * agents`, budgets are left out.
   */
  context?: NowSource | undefined;
  /** @default the store `[sessions] backend` names (files under `paths.sessionsDir`) */
  sessions?: SessionStore | undefined;
  /** The spend ledger; without one budgets are not checked and nothing is recorded. */
  ledger?: Ledger | undefined;
  /** @default a Logger on `paths.logFile` */
  logger?: Logger | undefined;
  /** @default currentLang(env) */
  lang?: Lang | undefined;
  /** @default Date.now */
  now?: (() => number) | undefined;
  /** The fetch providers and tools use. */
  fetch?: typeof fetch | undefined;
  /** A router to share (its fallback decisions were made when it was built). */
  router?: ModelRouter | undefined;
  /** Tool-loop steps per turn at most. @default 8 */
  maxSteps?: number | undefined;
  /**
   * Memory for this conversation (the store and the scopes its conversation may read
   * and write): recalled before each turn, with the memory tools. Ignored for a
   * `private` context: a network turn gets no memory at all.
   */
  memory?: TurnMemory | undefined;
}

/** Options of one turn. */
export interface TurnOptions {
  /** Receives the answer's text as it streams. */
  onText?: ((text: string) => void) | undefined;
  /**
   * Told when a step's text is complete (its stream ended), before it is stored: a
   * channel shows the text whole at once (the messenger sends a short answer as one
   * message rather than waiting for the turn's end).
   */
  onTextEnd?: (() => void) | undefined;
  /** Receives each tool call the model makes (before its approval and run). */
  onToolCall?: ((toolName: string, input: unknown, toolCallId: string) => void) | undefined;
  /** Receives what each tool that ran returned. */
  onToolResult?: ((toolName: string, output: unknown, toolCallId: string) => void) | undefined;
  /** Receives each tool call that ran and failed, with what the model is told of it. */
  onToolError?: ((toolName: string, error: string, toolCallId: string) => void) | undefined;
  /**
   * Told of each tier-2 call that did not run, and why (refused by `beforeToolCall`,
   * no one to ask, or cut by a cancel before it ran), so a channel can say so:
   * `✗ write_note did not run: no one could approve it`. The model is told too.
   */
  onToolRefused?: ((refusal: ToolRefusal) => void) | undefined;
  /**
   * Asked before every tier-2 call, one at a time in call order; without it every
   * tier-2 call is refused (`no_one_to_ask`). A throw ends the turn with that error.
   */
  beforeToolCall?: BeforeToolCall | undefined;
  signal?: AbortSignal | undefined;
  /** The other agent's address (network turns), for the ledger. */
  peer?: string | undefined;
  /** Session meta written with the turn (e.g. a title), merged shallowly. */
  meta?: Record<string, unknown> | undefined;
  /**
   * Makes a turn stored at the end (a network turn) write its exchange once under this
   * key (the envelope id): run again after a crash, a turn that finds its whole exchange
   * stored returns that answer without calling the model, and one that finds only part
   * of it writes over that part instead of adding a second copy.
   */
  turnKey?: string | undefined;
  /** The session's spend ceiling (a job's run); see `CallContext.ceiling`. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /**
   * The message itself is untrusted content (a forwarded mail, a pasted page): nothing
   * the turn asks to remember is kept without the owner's approval. @default false
   */
  untrusted?: boolean | undefined;
  /** Told which memories the turn's recall added (AG-UI's `memory.recalled`). */
  onRecalled?: ((recalled: { ids: number[]; tokens: number }) => void) | undefined;
}

/** What a turn produced. */
export interface TurnResult {
  /** The model's answer. */
  text: string;
  /** Notices the reply ends with (degraded, failed over). */
  notices: string[];
  /** The answer followed by its notices, as a channel shows it. */
  reply: string;
  /** The role that answered (a stand-in, when one did). */
  usedRole: string;
  /** Why the answer stopped short, when it did (a notice says so too). */
  cut?: LoopCut;
}

/** A built agent. */
export interface Agent {
  /** The role that answers; `/model` changes it. */
  role: string;
  readonly router: ModelRouter;
  readonly sessions: SessionStore;
  /**
   * One turn: `text` in, the answer out (streamed through `onText`). The owner's
   * message is stored before the model is called, and each step as it completes (the
   * assistant's message with its tool calls, then each result), so a cancel or a crash
   * keeps what ran; a network turn stores its whole exchange at the end, once. Throws
   * `TurnEndedError` (the user sentence), the signal's reason, or what
   * `beforeToolCall` threw (`ApprovalInterrupted`).
   */
  turn(sessionId: string, text: string, options?: TurnOptions): Promise<TurnResult>;
  /** The stored conversation of a session. */
  history(sessionId: string): Promise<SessionMessage[]>;
  /** The system prompt as the next turn would send it. */
  systemPrompt(): Promise<string>;
}
