/**
 * What a turn carries besides its messages: its tools (the conversation's, and the
 * memory tools when it has memory), whether its context holds untrusted content, and
 * the memories recalled for it. The untrusted mark starts from the turn's own input
 * (a forwarded mail) and its history: a result of a tool whose results are outside
 * content (or of a tool the conversation no longer knows) in the window it sends or,
 * once turns were folded into a summary, the mark a turn that read outside content
 * left on the session. The tool layer sets it the moment such a tool runs. A
 * `remember` in a turn so marked waits for the owner's approval.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { Logger } from "../log.ts";
import { memoryTools, recall, type Recalled, type TurnMemory } from "../memory/mod.ts";
import type { SessionStore, StoredMessage } from "../sessions/mod.ts";
import {
  type AgentTool,
  type ModelTools,
  type ToolContext,
  toToolSet,
  type TurnState,
} from "../tools/mod.ts";

/** The session meta key a turn that read outside content sets. */
export const UNTRUSTED_META = "untrusted_content";

/** Options for {@linkcode TurnContext}. */
export interface TurnContextOptions {
  /** The conversation's tools. */
  tools: readonly AgentTool[];
  /** The conversation's memory; a network turn has none. */
  memory: TurnMemory | undefined;
  /** The turn's input is itself outside content. */
  untrusted: boolean;
  /** The turn has a hook that can ask the owner. @default false */
  canAsk?: boolean | undefined;
  /** What the tools run with (the turn's state is added). */
  toolContext: Omit<ToolContext, "turn">;
  /** Which of the tools the turn offers at first (the MCP servers' may wait). @default all */
  offered?: ((all: ModelTools) => ModelTools) | undefined;
  logger: Logger;
  now: () => number;
}

/** One turn's tools, untrusted mark and recall. */
export class TurnContext {
  /** The tools the turn offers, memory tools included. */
  readonly tools: readonly AgentTool[];
  /** The same, as the tool loop runs them. */
  readonly modelTools: ModelTools | undefined;
  /** Set once the turn's context holds untrusted content. */
  readonly state: TurnState;
  #o: TurnContextOptions;
  /** Memory texts the model saw, so an approval to forget can name the memory. */
  #seen = new Map<number, string>();

  constructor(options: TurnContextOptions) {
    this.#o = options;
    const memory = options.memory;
    const offered = memory?.tools ?? "all";
    this.tools = memory === undefined || offered === "none" ? options.tools : [
      ...options.tools,
      ...memoryTools({ store: memory.store, access: memory.access, seen: this.#seen })
        .filter((tool) => offered === "all" || tool.tier === 1),
    ];
    this.state = { untrusted: options.untrusted, canAsk: options.canAsk === true };
    const all = this.tools.length === 0 ? undefined : toToolSet(this.tools, {
      context: { ...options.toolContext, turn: this.state },
    });
    this.modelTools = all === undefined || options.offered === undefined
      ? all
      : options.offered(all);
  }

  /** Marks the turn untrusted when what it sends of the session holds outside content. */
  async readHistory(
    stored: { messages: readonly StoredMessage[]; fold: unknown },
    meta: () => Promise<Record<string, unknown>>,
  ): Promise<void> {
    // Only what the turn may remember depends on it.
    if (this.state.untrusted || this.#o.memory === undefined) return;
    const trusted = new Set(this.tools.filter((t) => t.untrusted !== true).map((t) => t.name));
    for (const { message } of stored.messages) {
      if (message.role !== "tool") continue;
      // A call that did not run brought nothing in.
      if (message.content.some((p) => p.notRun === undefined && !trusted.has(p.toolName))) {
        this.state.untrusted = true;
        return;
      }
    }
    // Folded tool results, or a message that was itself outside content (a mail's
    // attachments), leave only the session's mark.
    if ((await meta())[UNTRUSTED_META] === true) this.state.untrusted = true;
  }

  /**
   * The memories recalled for `message`; `undefined` without memory. A store that
   * cannot be read leaves the turn without memory (and says so in the log).
   */
  async recall(message: string): Promise<Recalled | undefined> {
    const memory = this.#o.memory;
    if (memory === undefined) return undefined;
    try {
      const recalled = await recall(memory.store, memory.access.read, message, {
        budget: memory.settings,
        now: this.#o.now(),
      });
      for (const [id, text] of recalled.texts) this.#seen.set(id, text);
      return recalled;
    } catch (error) {
      this.#o.logger.warn(
        `memory: recall failed, the turn goes on without it: ${errorMessage(error)}`,
      );
      return undefined;
    }
  }

  /** Leaves the untrusted mark on the session, so later turns (and their summary) keep it. */
  async markSession(sessions: SessionStore, sessionId: string): Promise<void> {
    if (!this.state.untrusted) return;
    try {
      const meta = await sessions.getMeta(sessionId);
      if (meta[UNTRUSTED_META] !== true) {
        await sessions.patchMeta(sessionId, { [UNTRUSTED_META]: true });
      }
    } catch (error) {
      this.#o.logger.warn(
        `session ${sessionId}: cannot note its outside content: ${errorMessage(error)}`,
      );
    }
  }
}
