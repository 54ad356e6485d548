/**
 * The desk's open approvals: a tier-2 tool call waits here for the owner. Each has an
 * id, the sentence a person reads (what will happen, to what), a short and a full form
 * of its arguments, an expiry, and exactly one decision: allowed once, allowed for the
 * session, denied, expired or cancelled, whichever comes first. Any channel may decide
 * any open approval by its id (the messenger's button, the TUI's key, the coming
 * dashboard); later decisions find it closed.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { AgentTool, ToolCallCheck } from "../tools/mod.ts";
import { shown } from "../tools/_messages.ts";
import { t } from "./_messages.ts";
import type { ApprovalDecided, ApprovalRequest, Decision } from "./events.ts";

/** What a person decides (the clock and a cancel decide the rest). */
export type PersonDecision = Extract<Decision, "once" | "session" | "deny">;

interface Open {
  request: ApprovalRequest;
  timer: ReturnType<typeof setTimeout>;
  settle(decided: ApprovalDecided): void;
}

/** Options for {@linkcode ApprovalBook}. */
export interface ApprovalBookOptions {
  /** How long an approval waits before it is denied. */
  timeoutMs: number;
  /** @default Date.now */
  now?: () => number;
}

/** Every open approval of a desk. */
export class ApprovalBook {
  #o: ApprovalBookOptions;
  #open = new Map<string, Open>();

  /** Makes an empty book. */
  constructor(options: ApprovalBookOptions) {
    this.#o = options;
  }

  /** The open approvals, oldest first. */
  list(): ApprovalRequest[] {
    return [...this.#open.values()].map((o) => o.request);
  }

  /**
   * Opens an approval: `onOpen` gets the request, `onDecided` the one decision;
   * resolves with that decision.
   */
  ask(
    request: Omit<ApprovalRequest, "id" | "expiresAt" | "reason">,
    onOpen: (request: ApprovalRequest) => void,
    onDecided: (decided: ApprovalDecided) => void,
  ): Promise<Decision> {
    const now = (this.#o.now ?? Date.now)();
    const full: ApprovalRequest = {
      id: crypto.randomUUID().replace(/-/g, "").slice(0, 12),
      reason: "tool_approval",
      expiresAt: new Date(now + this.#o.timeoutMs).toISOString(),
      ...request,
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#close(full.id, "expired"), this.#o.timeoutMs);
      this.#open.set(full.id, {
        request: full,
        timer,
        settle(decided) {
          onDecided(decided);
          resolve(decided.decision);
        },
      });
      onOpen(full);
    });
  }

  /** Decides the approval `id`; `false` when it is not open (decided, expired or unknown). */
  decide(id: string, decision: PersonDecision, by?: string): boolean {
    return this.#close(id, decision, by);
  }

  /** Cancels the open approvals of one conversation (its answer was cancelled). */
  cancel(conversation: string): void {
    for (const open of [...this.#open.values()]) {
      if (open.request.conversation === conversation) this.#close(open.request.id, "cancelled");
    }
  }

  /** Cancels every open approval (the desk closes). */
  cancelAll(): void {
    for (const id of [...this.#open.keys()]) this.#close(id, "cancelled");
  }

  #close(id: string, decision: Decision, by?: string): boolean {
    const open = this.#open.get(id);
    if (open === undefined) return false;
    this.#open.delete(id);
    clearTimeout(open.timer);
    open.settle({
      id,
      decision,
      tool: open.request.tool,
      message: open.request.message,
      ...(by === undefined ? {} : { by }),
    });
    return true;
  }
}

/** Where an approval is asked, and who hears of it. */
export interface AskOwnerOptions {
  /** The conversation's key. */
  conversation: string;
  lang: Lang;
  /** Told of the request once it is open. */
  onOpen(request: ApprovalRequest): void;
  /** Told of its one decision. */
  onDecided(decided: ApprovalDecided): void;
}

/**
 * Asks the owner, through `book`, whether the tier-2 call `call` may run: the request
 * carries the sentence a person reads and the arguments in short and in full.
 */
export function askOwner(
  book: ApprovalBook,
  call: ToolCallCheck,
  options: AskOwnerOptions,
): Promise<Decision> {
  const tool = call.tool.name;
  const args = call.input;
  return book.ask(
    {
      conversation: options.conversation,
      tool,
      toolCallId: call.toolCallId,
      message: approvalSentence(call.tool, tool, args, options.lang),
      summary: summariseArgs(args),
      args: JSON.stringify(args) ?? "",
    },
    options.onOpen,
    options.onDecided,
  );
}

/** The sentence a person reads for a call of `tool` (or of an unknown tool `name`). */
export function approvalSentence(
  tool: AgentTool | undefined,
  name: string,
  args: unknown,
  lang: Lang,
): string {
  if (tool?.describe !== undefined) {
    try {
      return tool.describe(args as never, lang);
    } catch {
      // Arguments the tool cannot describe are the model's mistake; name the tool.
    }
  }
  return t(lang, "approve_generic", { tool: name });
}

/**
 * The arguments in short: `name: value` pairs, each value on one line and cut with
 * "…", control characters made visible.
 *
 * @example
 * ```ts
 * import { summariseArgs } from "./approvals.ts";
 * const s = summariseArgs({ to: "bob.example", text: "x".repeat(100) }, 20);
 * if (s !== "to: bob.example · text: xxxxxxxxxxxxxxxxxxx…") throw new Error(s);
 * ```
 */
export function summariseArgs(args: unknown, max = 60): string {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return shown(args, max);
  return Object.entries(args as Record<string, unknown>)
    .map(([key, value]) => `${shown(key, 30)}: ${shown(value, max)}`)
    .join(" · ");
}
