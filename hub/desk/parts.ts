/**
 * What a conversation is made of (the desk gives it: its configuration, stores, agent
 * builder, commands and approvals book), and what a slash command reads of it now
 * ({@linkcode commandContext}).
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import type { SessionStore } from "../sessions/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import type { Agent } from "../agent/mod.ts";
import type { TurnMemory } from "../memory/mod.ts";
import type { ApprovalBook } from "./approvals.ts";
import type { ConversationBook } from "./book.ts";
import type { CommandContext, CommandSpec } from "./commands.ts";
import type { DeskEvent } from "./events.ts";
import type { ConversationKey, DeskChannel } from "./keys.ts";

/** What a conversation is made of; the desk gives it. */
export interface ConversationParts {
  key: ConversationKey;
  channel: DeskChannel;
  config: AgentConfig;
  /** The desk's environment: a saved key is added to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  profile: string;
  sessions: SessionStore;
  ledger: Ledger | undefined;
  /** The session it opens on. */
  sessionId: string;
  /** The role it opens with. */
  role: string;
  /** The role fixed by the channel (`--role`), which `/resume` then keeps. */
  fixedRole: string | undefined;
  /** A ceiling on what the session may spend (a job's run): no call passes it. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /** Another person's id (their e-mail address): the ledger's contact for each call. */
  peer?: string | undefined;
  /** The conversation's memory, its scopes decided by the desk. @default none */
  memory?: TurnMemory | undefined;
  /** Builds the agent for `role` (its approvals are asked per turn). */
  build(role: string): Agent;
  /** The slash commands it offers, in `/help` order. */
  commands: readonly CommandSpec[];
  tools: readonly AgentTool[];
  approvals: ApprovalBook;
  /** `ask`: tier-2 tools wait for the owner on the desk; `deny`: no one to ask. */
  approvalMode: "ask" | "deny";
  logger: Logger;
  book: ConversationBook;
  /** Asks for a secret without echoing it (a terminal). */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
  /** How many columns a line may take (a terminal's width). */
  columns?: (() => number) | undefined;
  /** Sentences to tell before an answer (budgets past their warning share). */
  budgetNotices(): Promise<string[]>;
  /** Every event also goes to the desk's subscribers. */
  onEvent(event: DeskEvent): void;
  /** The conversation closed: the desk forgets it. */
  onClosed(): void;
  now(): number;
}

/** What changes while a conversation lives: its session, its agent, whether it answers. */
export interface LiveParts {
  sessionId: string;
  agent: Agent;
  /** An answer is being written (`/stop` has something to stop). */
  running: boolean;
  /** Answers the command's hidden prompt instead of the channel's (a screen's action). */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
}

/** What a slash command reads: the conversation's parts and how it is now. */
export function commandContext(p: ConversationParts, live: LiveParts): CommandContext {
  const agent = live.agent;
  return {
    channel: p.channel,
    lang: p.lang,
    config: p.config,
    env: p.env,
    paths: p.paths,
    profile: p.profile,
    sessions: p.sessions,
    ledger: p.ledger,
    sessionId: live.sessionId,
    role: agent.role,
    fixedRole: p.fixedRole,
    running: live.running,
    target: (role) => {
      const target = agent.router.target(role);
      return { provider: target.provider, model: target.model_id };
    },
    missingCredential: (role) => agent.router.missingCredentialSentence(role),
    messageCount: async (sessionId) => (await agent.history(sessionId)).length,
    commands: () => p.commands,
    secret: live.secret ?? p.secret,
    columns: p.columns,
    memory: p.memory,
    now: p.now,
  };
}
