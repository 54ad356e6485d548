/**
 * The queue a conversation owns: every line sent to it is handled in the order it
 * came, one at a time; a line sent while another is handled waits (the sender is
 * told), and none is dropped: each resolves with how it ended, `closed` when the
 * conversation closed before its turn.
 *
 * @module
 */
import type { CommandOutcome } from "./commands.ts";
import type { Queued, RunResult } from "./events.ts";
import type { QueuedLine } from "./snapshot.ts";

/** How a submitted line ended. */
export type SubmitOutcome =
  | { kind: "empty" }
  | { kind: "command"; outcome: CommandOutcome }
  | { kind: "answered"; result: RunResult }
  /** `code`: the error's name when a turn ended early (`BudgetSpentError`, `CeilingError`). */
  | { kind: "failed"; message: string; code?: string }
  | { kind: "cancelled" }
  /** The desk closed before the line's turn came. */
  | { kind: "closed" };

interface Item extends QueuedLine {
  untrusted: boolean;
  resolve(outcome: SubmitOutcome): void;
}

/** Lines handled one at a time, in order. */
export class LineQueue {
  #handle: (text: string, untrusted: boolean) => Promise<SubmitOutcome>;
  #onQueued: (line: Queued) => void;
  #items: Item[] = [];
  #nextId = 1;
  #running = false;
  #drained: Promise<void> = Promise.resolve();

  /** `handle` handles one line (it must not throw); `onQueued` tells of a line that waits. */
  constructor(
    handle: (text: string, untrusted: boolean) => Promise<SubmitOutcome>,
    onQueued: (line: Queued) => void,
  ) {
    this.#handle = handle;
    this.#onQueued = onQueued;
  }

  /** Whether a line is being handled. */
  get busy(): boolean {
    return this.#running;
  }

  /** The lines waiting behind the one handled, in order. */
  lines(): QueuedLine[] {
    return this.#items.map(({ id, text }) => ({ id, text }));
  }

  /**
   * Handles `text` now when nothing runs, else after those before it (`untrusted`: the
   * text is itself outside content, such as a mail's attachments).
   */
  push(text: string, untrusted = false): Promise<SubmitOutcome> {
    return new Promise((resolve) => {
      const id = `q${this.#nextId++}`;
      this.#items.push({ id, text, untrusted, resolve });
      if (this.#running) {
        this.#onQueued({ id, position: this.#items.length, text });
        return;
      }
      this.#running = true;
      this.#drained = this.#drain();
    });
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    return this.#drained;
  }

  /** Ends every waiting line `closed`; the one handled now runs on. */
  close(): void {
    for (const item of this.#items.splice(0)) item.resolve({ kind: "closed" });
  }

  async #drain(): Promise<void> {
    try {
      for (let item = this.#items.shift(); item !== undefined; item = this.#items.shift()) {
        item.resolve(await this.#handle(item.text, item.untrusted));
      }
    } finally {
      this.#running = false;
    }
  }
}
