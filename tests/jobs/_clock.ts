/**
 * The clock a test steps a hub process by: a file of epoch milliseconds that the hub
 * reads through `AGENT_TEST_CLOCK` (honoured from a checkout only), so an every-second
 * job's slots come when the test moves the clock, not when a second has passed. `agent
 * net` and the TUI's approval guard read the same file.
 *
 * @module
 */

/** A clock file in `dir`, standing half a second past a whole second of the machine's time. */
export class StepClock {
  /** The file the hub reads. */
  readonly file: string;
  #now: number;

  private constructor(file: string, now: number) {
    this.file = file;
    this.#now = now;
  }

  /** Writes the clock file in `dir` at `startMs` (default: now, half past a second). */
  static async create(dir: string, startMs?: number): Promise<StepClock> {
    const now = startMs ?? Math.floor(Date.now() / 1000) * 1000 + 500;
    const clock = new StepClock(`${dir}/test-clock`, now);
    await clock.set(now);
    return clock;
  }

  /** The environment a hub takes it from. */
  get env(): { AGENT_TEST_CLOCK: string } {
    return { AGENT_TEST_CLOCK: this.file };
  }

  /** Where the clock stands. */
  now(): number {
    return this.#now;
  }

  /** Moves the clock to `ms`, in one write (a reader never sees half a number). */
  async set(ms: number): Promise<void> {
    this.#now = ms;
    await Deno.writeTextFile(`${this.file}.new`, String(ms));
    await Deno.rename(`${this.file}.new`, this.file);
  }

  /** Moves the clock `ms` on. */
  async advance(ms: number): Promise<void> {
    await this.set(this.#now + ms);
  }
}
