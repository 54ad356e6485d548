/**
 * What the messenger remembers across restarts, in `<data>/messenger/state.json`
 * (0600): the id of the last owner event told, and what the contact-request buttons
 * stand for (their data is too short for an address). Each chat's session and role
 * now live in the desk's `conversations.json`; `chats` is kept as written for the
 * desk's one-time takeover.
 *
 * @module
 */
import { readJsonTolerant, writeFileAtomic } from "../../atomic_file.ts";
import { eventIdFloor } from "../../events/mod.ts";

/** One chat's conversation. */
export interface ChatEntry {
  session_id: string;
  role?: string;
}

/** The state file's content. */
export interface MessengerState {
  chats: Record<string, ChatEntry>;
  /**
   * The id of the last owner event told (or a bound below the first one to tell): the
   * bus delivers the events after it, each once.
   */
  last_event_id: string;
  /** Contact-request buttons: id to address. */
  buttons: Record<string, string>;
  /**
   * Written by hubs before job answers went through the jobs' delivery worker; read and
   * kept so an older state file still loads, no longer written.
   */
  sending_event_id?: string | undefined;
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

  /**
   * Reads the file once. A missing or broken file starts afresh with the events from
   * `nowSec` on; a file from before event ids (`events_after`, Unix seconds of the last
   * event told) goes on after that second.
   */
  async load(nowSec: number): Promise<MessengerState> {
    if (this.#state !== undefined) return this.#state;
    const value = await readJsonTolerant(this.#file) as
      | Partial<MessengerState & { events_after: unknown }>
      | undefined;
    this.#state = {
      chats: typeof value?.chats === "object" && value.chats !== null ? value.chats : {},
      last_event_id: typeof value?.last_event_id === "string"
        ? value.last_event_id
        : typeof value?.events_after === "number"
        ? eventIdFloor((value.events_after + 1) * 1000)
        : eventIdFloor(nowSec * 1000),
      buttons: typeof value?.buttons === "object" && value.buttons !== null ? value.buttons : {},
      ...(typeof value?.sending_event_id === "string"
        ? { sending_event_id: value.sending_event_id }
        : {}),
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
