/**
 * The network digest: the owner hears of every conversation their agent answered on
 * their behalf (who wrote, the first line of what they asked, the first line of what
 * the agent answered), so the agent never talks to other agents unseen. Conversations
 * are gathered and told as one `net.digest` owner event, so a busy hour is one message
 * on the owner's channels, not twenty.
 *
 * `[net] digest`: `batched` (the default) tells what gathered at most once per
 * {@linkcode DIGEST_INTERVAL_MS} (the first conversation after a quiet spell a few
 * seconds after it, so the turns of one exchange come together); `daily` once a day; `off` never. What is gathered is kept in
 * `<net>/digest.json`, so a restart loses nothing.
 *
 * @module
 */
import { cleanText } from "@agent/net";
import { errorMessage } from "@agent/net/common";
import { readJsonTolerant, writeFileAtomic } from "../atomic_file.ts";
import { type DigestConversation, digestLines, type OwnerEventSink } from "../events/mod.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";

/** The shortest time between two digests in `batched` mode: 10 minutes. */
export const DIGEST_INTERVAL_MS = 600_000;

/** A day, the time between two digests in `daily` mode. */
export const DIGEST_DAY_MS = 86_400_000;

/**
 * How long the first conversation after a quiet spell waits for the rest of its
 * exchange (agents answer each other within seconds): 5 seconds.
 */
export const DIGEST_GATHER_MS = 5_000;

/** Conversations told in full in one digest; the rest are counted in `more`. */
export const DIGEST_MAX_TOLD = 20;

/** How long a first line may be (characters). */
const LINE_MAX = 160;

/** One answered message, as the network service reports it. */
export interface AnsweredMessage {
  /** The other agent's address (with `/<sub>` when its sub-agent wrote). */
  address: string;
  /** The contact's name (another agent's text). */
  name: string;
  thread: string;
  /** What they asked. */
  asked: string;
  /** What the agent answered. */
  answered: string;
}

/** Options for {@linkcode NetDigest}. */
export interface NetDigestOptions {
  /** `[net] digest`. */
  mode: "batched" | "daily" | "off";
  /** The language of the event's `text`. @default "en" */
  lang?: Lang;
  /** Where the digest goes: the hub's owner-event bus. */
  events: OwnerEventSink;
  /** The file what is gathered is kept in (`<net>/digest.json`). */
  file: string;
  logger?: Logger;
  /** @default Date.now */
  now?: () => number;
  /** @default DIGEST_INTERVAL_MS (batched), DIGEST_DAY_MS (daily) */
  intervalMs?: number;
  /** @default DIGEST_GATHER_MS */
  gatherMs?: number;
}

/** What `digest.json` holds. */
interface DigestFile {
  /** Epoch ms of the last digest told (0: never). */
  last_told_ms: number;
  /** Epoch ms of the first conversation gathered since (0: none). */
  first_ms: number;
  conversations: DigestConversation[];
}

/**
 * The first non-empty line of another agent's (or the model's) text, without control
 * or bidi characters, cut to 160 characters with "…".
 *
 * @example
 * ```ts
 * import { firstLine } from "./digest.ts";
 * if (firstLine("\n  Do you play chess?\nI do.") !== "Do you play chess?") throw new Error();
 * ```
 */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const clean = cleanText(line, LINE_MAX + 1);
  return Array.from(clean).length > LINE_MAX
    ? `${Array.from(clean).slice(0, LINE_MAX - 1).join("")}…`
    : clean;
}

/** Gathers answered conversations and tells them to the owner in batches. */
export class NetDigest {
  #o: NetDigestOptions;
  #now: () => number;
  #interval: number;
  #gather: number;
  #state: DigestFile | undefined;
  #lock: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;

  /** Makes the digest; {@linkcode NetDigest.start} arms its timer. */
  constructor(options: NetDigestOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#interval = options.intervalMs ??
      (options.mode === "daily" ? DIGEST_DAY_MS : DIGEST_INTERVAL_MS);
    this.#gather = options.gatherMs ?? DIGEST_GATHER_MS;
  }

  /** Tells what a previous run gathered when it is due, and from now on as it gets due. */
  async start(): Promise<void> {
    this.#running = true;
    await this.#serial(() => this.#schedule());
  }

  /**
   * Stops the timer; what is gathered stays in the file for the next start. Resolves
   * once a write already under way has ended (so the folder can be removed after it).
   */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#lock;
  }

  /** Gathers one answered message (one conversation per peer and thread). */
  record(message: AnsweredMessage): Promise<void> {
    if (this.#o.mode === "off") return Promise.resolve();
    return this.#serial(async () => {
      const state = await this.#load();
      const now = this.#now();
      const known = state.conversations.find((c) =>
        c.address === message.address && c.thread === message.thread
      );
      if (known !== undefined) {
        known.turns++;
        known.last_ts = Math.floor(now / 1000);
      } else {
        state.conversations.push({
          address: message.address,
          name: cleanText(message.name, 80) || message.address,
          thread: message.thread,
          asked: firstLine(message.asked),
          answered: firstLine(message.answered),
          turns: 1,
          first_ts: Math.floor(now / 1000),
          last_ts: Math.floor(now / 1000),
        });
      }
      if (state.first_ms === 0) state.first_ms = now;
      await this.#save();
      this.#schedule();
    });
  }

  /** When the next digest is due (epoch ms), or `undefined` when nothing is gathered. */
  async dueAt(): Promise<number | undefined> {
    return this.#dueAt(await this.#load());
  }

  /** What is gathered for the next digest and when it is due; `undefined` when nothing is. */
  gathered(): Promise<{ conversations: DigestConversation[]; dueMs: number } | undefined> {
    return this.#serial(async () => {
      const state = await this.#load();
      const dueMs = this.#dueAt(state);
      return dueMs === undefined
        ? undefined
        : { conversations: structuredClone(state.conversations), dueMs };
    });
  }

  /** Tells what is gathered if it is due now; returns whether a digest was told. */
  flushDue(): Promise<boolean> {
    return this.#serial(async () => {
      const state = await this.#load();
      const due = this.#dueAt(state);
      if (due === undefined || due > this.#now()) return false;
      await this.#tell(state);
      return true;
    });
  }

  #dueAt(state: DigestFile): number | undefined {
    if (state.conversations.length === 0) return undefined;
    if (this.#o.mode === "daily") {
      return state.last_told_ms === 0
        ? state.first_ms + this.#interval
        : state.last_told_ms + this.#interval;
    }
    return Math.max(state.first_ms + this.#gather, state.last_told_ms + this.#interval);
  }

  async #tell(state: DigestFile): Promise<void> {
    const told = state.conversations.slice(0, DIGEST_MAX_TOLD);
    const more = state.conversations.length - told.length;
    await this.#o.events.publish({
      ts: Math.floor(this.#now() / 1000),
      type: "net.digest",
      conversations: told,
      more,
      text: digestLines(this.#o.lang ?? "en", { conversations: told, more }).join("\n"),
    });
    state.conversations = [];
    state.first_ms = 0;
    state.last_told_ms = this.#now();
    await this.#save();
  }

  /** Arms the timer for the next due digest (only while started). */
  #schedule(): void {
    if (!this.#running || this.#state === undefined) return;
    clearTimeout(this.#timer);
    const due = this.#dueAt(this.#state);
    if (due === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.flushDue().then(() => this.#serial(() => this.#schedule())).catch((error) => {
        this.#o.logger?.warn(`network: the digest could not be told: ${errorMessage(error)}`);
        // Tried again a minute later (the events file may be busy or full).
        if (this.#running) this.#timer = setTimeout(() => this.#schedule(), this.#gather);
      });
    }, Math.max(0, due - this.#now()));
    Deno.unrefTimer(this.#timer);
  }

  async #load(): Promise<DigestFile> {
    if (this.#state !== undefined) return this.#state;
    const raw = await readJsonTolerant(this.#o.file) as Partial<DigestFile> | undefined;
    this.#state = {
      last_told_ms: typeof raw?.last_told_ms === "number" ? raw.last_told_ms : 0,
      first_ms: typeof raw?.first_ms === "number" ? raw.first_ms : 0,
      conversations: Array.isArray(raw?.conversations) ? raw.conversations : [],
    };
    return this.#state;
  }

  async #save(): Promise<void> {
    // Not synced: a digest is a notice, and this write sits on the answer's path.
    await writeFileAtomic(this.#o.file, JSON.stringify(this.#state) + "\n", {
      dirMode: 0o700,
      sync: false,
    });
  }

  #serial<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.#lock.then(fn, fn);
    this.#lock = run.catch(() => {});
    return run;
  }
}
