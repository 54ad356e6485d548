/**
 * What the messenger remembers across restarts, in `<data>/messenger/state.json`
 * (0600): the agent events already told, and what the contact-request buttons stand for
 * (their data is too short for an address). Each chat's session and role now live in
 * the desk's `conversations.json`; `chats` is kept as written for the desk's one-time
 * takeover.
 *
 * @module
 */
import { readJsonTolerant, writeFileAtomic } from "../../atomic_file.ts";

/** One chat's conversation. */
export interface ChatEntry {
  session_id: string;
  role?: string;
}

/** The state file's content. */
export interface MessengerState {
  chats: Record<string, ChatEntry>;
  /** Unix seconds of the newest agent event told. */
  events_after: number;
  /** Events at `events_after` already told (their JSON), so none is told twice. */
  events_seen: string[];
  /** Contact-request buttons: id to address. */
  buttons: Record<string, string>;
}

/** The messenger's state file. */
export class MessengerStateFile {
  #file: string;
  #state: MessengerState | undefined;
  #writing: Promise<void> = Promise.resolve();

  /** The file under `dataDir`. */
  constructor(dataDir: string) {
    this.#file = `${dataDir}/messenger/state.json`;
  }

  /** Reads the file once (a missing or broken file starts afresh at `nowSec`). */
  async load(nowSec: number): Promise<MessengerState> {
    if (this.#state !== undefined) return this.#state;
    const value = await readJsonTolerant(this.#file) as Partial<MessengerState> | undefined;
    this.#state = {
      chats: typeof value?.chats === "object" && value.chats !== null ? value.chats : {},
      events_after: typeof value?.events_after === "number" ? value.events_after : nowSec,
      events_seen: Array.isArray(value?.events_seen) ? value.events_seen : [],
      buttons: typeof value?.buttons === "object" && value.buttons !== null ? value.buttons : {},
    };
    return this.#state;
  }

  /** Writes the state (atomically, one write at a time). */
  save(): Promise<void> {
    const state = this.#state;
    if (state === undefined) return Promise.resolve();
    // Keep the button map from growing without end.
    const ids = Object.keys(state.buttons);
    for (const id of ids.slice(0, Math.max(0, ids.length - 200))) delete state.buttons[id];
    this.#writing = this.#writing.then(() =>
      writeFileAtomic(this.#file, JSON.stringify(state) + "\n", { mode: 0o600, dirMode: 0o700 })
    );
    return this.#writing;
  }
}
