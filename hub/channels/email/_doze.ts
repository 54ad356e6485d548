/**
 * The pause of the channel's loops (the outbox, the digest): until a time has passed,
 * the loop is poked (new work), or the channel stops, whichever comes first. No timer
 * is left behind.
 *
 * @module
 */

/** A loop's pause that a poke ends early. */
export class Doze {
  #wake: (() => void) | undefined;

  /** Ends the running pause now (a poke while none runs changes nothing). */
  poke(): void {
    this.#wake?.();
  }

  /**
   * Waits `ms`, or until poked or `signal` aborts. A signal that aborted before the
   * call ends it at once: its abort event has already been sent, and a loop that stops
   * while it awaits a send comes here with it.
   */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.#wake = done;
    });
  }
}
