/**
 * The conversation desk: the one place that knows what a conversation is, whatever the
 * channel. It opens conversations by key (`chat`, `tui`, `messenger:<chat>`,
 * `web:<session>`), each with its session, its agent and its queue; it holds every open
 * approval (decided once, wherever it is decided first); and it passes every event of
 * every conversation to whoever subscribes (the coming dashboard, a test).
 *
 * The terminal chat, the TUI, the messenger and the web chat are adapters over it: each
 * turns a person's input into a conversation's intents, renders its events and reads
 * its snapshot, and nothing else. The slash commands that reach outside the
 * conversation (`/status`, `/settings`, `/jobs`) are plug-ins the app registers.
 *
 * @example
 * ```ts ignore
 * const desk = new Desk({ config, env, paths, lang, logger, ledger, tools });
 * const chat = await desk.open("chat");
 * chat.subscribe((event) => console.log(event.type));
 * await chat.submit("Hello");
 * ```
 *
 * @module
 */
import type { AgentConfig } from "../config/types.ts";
import { hasRole } from "../config/roles.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { budgetWarningSentence, claimBudgetWarnings } from "../spend/mod.ts";
import type { Ledger } from "../ledger/mod.ts";
import type { AgentPaths } from "../paths.ts";
import { newSessionId, openSessionStore, type SessionStore } from "../sessions/mod.ts";
import type { AgentTool } from "../tools/mod.ts";
import { buildAgent } from "../agent/mod.ts";
import { accessFor, type MemoryStore, type TurnMemory, type TurnParty } from "../memory/mod.ts";
import { ModelRouter } from "../router/mod.ts";
import { errorMessage } from "@agent/net/common";
import { ApprovalBook, type PersonDecision } from "./approvals.ts";
import { ConversationBook } from "./book.ts";
import { commandsOf, type CommandSpec, commandTable } from "./commands.ts";
import { DeskConversation } from "./conversation.ts";
import type { ApprovalRequest, DeskEvent } from "./events.ts";
import {
  channelOf,
  type ConversationKey,
  type ConversationPerson,
  type DeskChannel,
  isRemembered,
  ledgerChannel,
  sessionKind,
} from "./keys.ts";
import type { PickedSession } from "./pick.ts";

/** Options for {@linkcode Desk}. */
export interface DeskOptions {
  config: AgentConfig;
  /** The merged environment; a key saved with `/settings set` is added to it. */
  env: Record<string, string>;
  paths: AgentPaths;
  lang: Lang;
  logger: Logger;
  /** The spend ledger; without one budgets are not checked and nothing is recorded. */
  ledger: Ledger | undefined;
  /** The tools offered to the model (the registry's enabled `agent.tools`). */
  tools: readonly AgentTool[];
  /**
   * Slash commands the app adds to the desk's own (`/status`, `/settings`, `/jobs`:
   * `appCommands()` in `hub/app/`), listed by `/help` before `/help`. @default none
   */
  commands?: readonly CommandSpec[] | undefined;
  /** The profile `/status` names. @default `AGENT_PROFILE` or `home` */
  profile?: string | undefined;
  /** A router to share (the hub's, so a failover is told once). @default a new one */
  router?: ModelRouter | undefined;
  /** @default the store `[sessions] backend` names */
  sessions?: SessionStore | undefined;
  /** How long an approval waits. @default `[messenger] approval_timeout_seconds` */
  approvalTimeoutMs?: number | undefined;
  /**
   * Sentences told in a conversation before each answer. @default the budget warnings
   * of the conversation's surface (chat and TUI each once per period; elsewhere none,
   * since the hub's budget watch tells the owner's channels)
   */
  budgetNotices?: ((conversation: DeskConversation) => Promise<string[]>) | undefined;
  /** The fetch providers and tools use. */
  fetch?: typeof fetch | undefined;
  /**
   * The memory store (`[memory]` on): each conversation reads and writes the scopes its
   * key and person give it ({@linkcode conversationParty}). @default no memory
   */
  memory?: MemoryStore | undefined;
  /**
   * Which memory tools conversations with memory are offered besides the recall before
   * each answer: a job's desk gives `tier1` (no `forget`) or, with no tools, `none`.
   * @default "all"
   */
  memoryTools?: TurnMemory["tools"];
  /** @default Date.now */
  now?: (() => number) | undefined;
}

/** The session and role a conversation opens on (`pickSession`'s, or a job run's). */
export type OpenedSession = Pick<PickedSession, "sessionId" | "role"> & Partial<PickedSession>;

/** How a conversation opens. */
export interface OpenOptions {
  /** The session and role decided before anything opened (`chat`, `tui`, a job's run). */
  picked?: OpenedSession | undefined;
  /** Asks for a secret without echoing it (a terminal): `/settings set` needs it. */
  secret?: ((prompt: string) => Promise<string | null>) | undefined;
  /** How many columns a line may take (a terminal's width, read when needed). @default 80 */
  columns?: (() => number) | undefined;
  /** `deny`: no one can be asked (a pipe, a job), so tier-2 tools are refused. @default "ask" */
  approvals?: "ask" | "deny" | undefined;
  /** A ceiling on what the session may spend (a job's run): no call passes it. */
  ceiling?: { usd: number; sinceMs: number } | undefined;
  /**
   * Who the conversation is with. Another person (`person:<id>`) gets no tier-2 tools
   * at all, and their spend is recorded under their id. @default "owner"
   */
  person?: ConversationPerson | undefined;
}

/** A desk-wide listener: every event of every conversation. */
export type DeskWideListener = (event: DeskEvent, conversation: DeskConversation) => void;

/** The conversation desk. */
export class Desk {
  #o: DeskOptions;
  #router: ModelRouter;
  #sessions: SessionStore;
  #approvals: ApprovalBook;
  #book: ConversationBook;
  #commands: readonly CommandSpec[];
  #conversations = new Map<ConversationKey, DeskConversation>();
  #opening = new Map<ConversationKey, Promise<DeskConversation>>();
  #listeners = new Set<DeskWideListener>();

  /**
   * Makes the desk; conversations open with {@linkcode Desk.open}.
   *
   * @throws {TypeError} a plug-in command whose word the desk has already.
   */
  constructor(options: DeskOptions) {
    this.#o = options;
    const now = options.now ?? Date.now;
    this.#commands = commandTable(options.commands);
    this.#router = options.router ?? new ModelRouter({
      config: options.config,
      env: options.env,
      ledger: options.ledger,
      logger: options.logger,
      lang: options.lang,
      now,
      fetch: options.fetch,
    });
    this.#sessions = options.sessions ??
      openSessionStore(options.config, options.env, options.paths);
    this.#approvals = new ApprovalBook({
      timeoutMs: options.approvalTimeoutMs ??
        options.config.messenger.approval_timeout_seconds * 1000,
      now,
    });
    this.#book = new ConversationBook(options.paths.dataDir);
  }

  /** The conversations open now. */
  list(): DeskConversation[] {
    return [...this.#conversations.values()];
  }

  /** The open conversation of `key`, if any. */
  get(key: ConversationKey): DeskConversation | undefined {
    return this.#conversations.get(key);
  }

  /** The slash commands `channel` offers, in `/help` order (the messenger's menu). */
  commands(channel: DeskChannel): CommandSpec[] {
    return commandsOf(channel, this.#commands);
  }

  /**
   * The conversation of `key`, opened on first use: `chat` and `tui` with the session
   * `options.picked` names (or a new one), a remembered key (`messenger:<chat>`) with
   * the session it was on last (or a new one).
   */
  open(key: ConversationKey, options: OpenOptions = {}): Promise<DeskConversation> {
    const open = this.#conversations.get(key);
    if (open !== undefined) return Promise.resolve(open);
    let opening = this.#opening.get(key);
    if (opening === undefined) {
      opening = this.#make(key, options).finally(() => this.#opening.delete(key));
      this.#opening.set(key, opening);
    }
    return opening;
  }

  /**
   * Calls `listener` with every event of every conversation; returns the unsubscribe.
   * A listener that throws is logged; it never fails a turn or another listener.
   */
  subscribe(listener: DeskWideListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every open approval, oldest first. */
  approvals(): ApprovalRequest[] {
    return this.#approvals.list();
  }

  /**
   * Decides the open approval `id` (`by` names who, for the record); `false` when it is
   * no longer open (decided elsewhere first, expired or cancelled).
   */
  decide(id: string, decision: PersonDecision, by?: string): boolean {
    return this.#approvals.decide(id, decision, by);
  }

  /** Cancels every running answer and open approval; queued lines end unanswered. */
  async close(): Promise<void> {
    this.#approvals.cancelAll();
    await Promise.all(this.list().map((c) => c.close()));
  }

  async #make(key: ConversationKey, options: OpenOptions): Promise<DeskConversation> {
    const o = this.#o;
    const channel = channelOf(key);
    const now = o.now ?? Date.now;
    const remembered = isRemembered(key) ? await this.#book.get(key) : undefined;
    const picked = options.picked;
    const role = picked?.role ??
      (remembered?.role !== undefined && hasRole(o.config, remembered.role)
        ? remembered.role
        : "brain");
    const sessionId = picked?.sessionId ?? remembered?.session_id ??
      newSessionId(sessionKind(channel), now());
    const sessions = picked?.sessions ?? this.#sessions;
    // Scope in code, before the model sees a tool: another person gets tier 1 only.
    const person = options.person ?? "owner";
    const tools = person === "owner" ? o.tools : o.tools.filter((tool) => tool.tier === 1);
    const memory = this.#memory(key, person);
    const conversation: DeskConversation = new DeskConversation({
      key,
      channel,
      config: o.config,
      env: o.env,
      paths: o.paths,
      lang: o.lang,
      profile: o.profile ?? (o.env.AGENT_PROFILE?.trim() || "home"),
      sessions,
      ledger: o.ledger,
      sessionId,
      role,
      fixedRole: picked?.fixedRole,
      ceiling: options.ceiling,
      peer: person === "owner" ? undefined : person.slice("person:".length),
      memory,
      build: (r) =>
        buildAgent({
          config: o.config,
          env: o.env,
          paths: o.paths,
          channel: ledgerChannel(channel),
          role: r,
          tools,
          persona: {
            personaFile: `${o.paths.personaDir}/persona.md`,
            userFile: `${o.paths.personaDir}/user.md`,
          },
          sessions,
          ledger: o.ledger,
          logger: o.logger,
          lang: o.lang,
          now,
          fetch: o.fetch,
          router: this.#router,
          memory,
        }),
      commands: commandsOf(channel, this.#commands),
      tools,
      approvals: this.#approvals,
      approvalMode: person === "owner" ? options.approvals ?? "ask" : "deny",
      logger: o.logger,
      book: this.#book,
      secret: options.secret,
      columns: options.columns,
      budgetNotices: (): Promise<string[]> =>
        o.budgetNotices?.(conversation) ?? Promise.resolve(this.#warnings(channel)),
      onEvent: (event) => this.#tell(event, conversation),
      onClosed: () => {
        if (this.#conversations.get(key) === conversation) this.#conversations.delete(key);
      },
      now,
    });
    if (isRemembered(key) && remembered?.session_id !== sessionId) {
      await this.#book.set(key, { session_id: sessionId, role });
    }
    this.#conversations.set(key, conversation);
    return conversation;
  }

  /** The memory a conversation's turns get: its scopes decided here, in code, by key and person. */
  #memory(key: ConversationKey, person: ConversationPerson): TurnMemory | undefined {
    const { memory: store, config } = this.#o;
    if (store === undefined || !config.memory.enabled) return undefined;
    const access = accessFor(conversationParty(key, person));
    if (access === undefined) return undefined;
    return { store, access, settings: config.memory, tools: this.#o.memoryTools };
  }

  /** Every desk-wide listener gets `event`; one that throws is logged, the rest still get it. */
  #tell(event: DeskEvent, conversation: DeskConversation): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event, conversation);
      } catch (error) {
        this.#o.logger.error(
          `desk ${conversation.key}: a desk listener failed: ${errorMessage(error)}`,
        );
      }
    }
  }

  /** The budget warnings a terminal surface tells before an answer (each once per period). */
  #warnings(channel: DeskChannel): string[] {
    const ledger = this.#o.ledger;
    if (ledger === undefined || (channel !== "chat" && channel !== "tui")) return [];
    try {
      const now = (this.#o.now ?? Date.now)();
      return claimBudgetWarnings(ledger, this.#o.config, now, { surface: channel })
        .map((warning) => budgetWarningSentence(this.#o.lang, warning));
    } catch {
      // A ledger that cannot be read is reported by the turn's own budget check.
      return [];
    }
  }
}

/**
 * Who a conversation's turns are with, for memory: the owner (their own conversations in
 * every channel and their jobs), another person (`person:<id>`, their own memories
 * only) or a group chat (a messenger chat whose id is negative, as the Bot API gives
 * groups: more people than the owner read its answers, so it reads its own memories
 * only, even when the owner allowed it). A network turn never comes through the desk
 * and gets no memory.
 *
 * @example
 * ```ts
 * import { conversationParty } from "./desk.ts";
 * const p = conversationParty("email:<a@x>", "person:bob@example.org");
 * if (p.kind !== "person" || p.id !== "bob@example.org") throw new Error();
 * if (conversationParty("messenger:-100200", "owner").kind !== "group") throw new Error();
 * if (conversationParty("messenger:42", "owner").kind !== "owner") throw new Error();
 * ```
 */
export function conversationParty(key: ConversationKey, person: ConversationPerson): TurnParty {
  if (person !== "owner") {
    return { kind: "person", id: person.slice("person:".length), conversation: key };
  }
  if (key.startsWith("messenger:-")) return { kind: "group", conversation: key };
  return { kind: "owner", conversation: key };
}
