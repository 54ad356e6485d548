/**
 * The mailbox side of the channel: one IMAP connection (`imapflow`) that logs in,
 * opens `[email] folder`, hands every new mail over in UID order, flags the answered
 * ones `\Seen` (and moves them to `done_folder`), then waits: in `idle` mode for the
 * server's word (IMAP IDLE; `imapflow` falls back to polling a server without it), in
 * `poll` mode for `poll_seconds`. A lost connection is opened again after the hub's
 * backoff; the loop ends when the channel stops.
 *
 * Which mail is new: above the highest UID looked at under the folder's `UIDVALIDITY`
 * (kept in the store). The first time a `UIDVALIDITY` is seen (a new mailbox, or the
 * server renumbered it) the unseen mails are taken, so mail read before the agent had
 * the mailbox is not answered; the store's Message-IDs keep a renumbered mail from
 * being answered twice.
 *
 * @module
 */
import type { ImapFlow, ImapFlowOptions } from "imapflow";
import { backoffDelay, pause } from "../../backoff.ts";
import type { EmailSettings } from "./settings.ts";
import type { MailStore } from "./store.ts";

/** One mail fetched from the folder. */
export interface FetchedMail {
  folder: string;
  uidvalidity: number;
  uid: number;
  raw: Uint8Array;
}

/** What the IMAP side reports for `/status`. */
export interface ImapState {
  state: "connecting" | "connected" | "reconnecting" | "stopped";
  /** The last failure (host, port and what failed; never a password). */
  lastError: string | null;
}

/** Options for {@linkcode MailboxWatch}. */
export interface MailboxWatchOptions {
  settings: EmailSettings;
  store: MailStore;
  /** Takes one fetched mail (records it); called in UID order, one at a time. */
  take(mail: FetchedMail): void;
  /** Called with each failure, as a sentence without secrets. */
  onError(detail: string): void;
  /** Told when the state changes. */
  onState?(state: ImapState["state"]): void;
}

/** The IMAP options for the settings (no logging: `imapflow` would print to stdout). */
export function imapOptions(settings: EmailSettings, extra: ImapFlowOptions = {}): ImapFlowOptions {
  return {
    host: settings.imap_host,
    port: settings.imap_port,
    secure: settings.tls === "implicit",
    // STARTTLS required when asked for (a missing one is a failure, not plain text).
    doSTARTTLS: settings.tls === "starttls" ? true : settings.tls === "none" ? false : undefined,
    auth: { user: settings.username, pass: settings.password },
    logger: false,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    ...extra,
  };
}

/** The mailbox watch. */
export class MailboxWatch {
  #o: MailboxWatchOptions;
  #client: ImapFlow | undefined;
  #wake: (() => void) | undefined;
  #dirty = true;
  /** How many mails the folder held when the last look searched it. */
  #searchedExists: number | undefined;

  /** Makes the watch; {@linkcode run} starts it. */
  constructor(options: MailboxWatchOptions) {
    this.#o = options;
  }

  /** Asks for a look now (answered mails to flag, or a poll). */
  poke(): void {
    this.#dirty = true;
    this.#wake?.();
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      this.#o.onState?.(attempt === 0 ? "connecting" : "reconnecting");
      const ok = await this.#session(signal).then(() => true, (error) => {
        if (!signal.aborted) this.#o.onError(imapFailure(this.#o.settings, error));
        return false;
      });
      if (signal.aborted) break;
      attempt = ok ? 0 : attempt + 1;
      this.#o.onState?.("reconnecting");
      await pause(backoffDelay(attempt, { baseMs: 1000, maxMs: 60_000 }), signal);
    }
    this.#o.onState?.("stopped");
  }

  /** One connection: log in, open the folder, then look and wait until it closes. */
  async #session(signal: AbortSignal): Promise<void> {
    const s = this.#o.settings;
    // Loaded with the first connection, so the hub's door does not carry it.
    const { ImapFlow } = await import("imapflow");
    const client = new ImapFlow(imapOptions(s, {
      disableAutoIdle: s.mode === "poll",
      // A short pause before IDLE: new mail is heard of soon after the last command.
      autoIdleDelay: 250,
      maxIdleTime: 240_000,
    }));
    this.#client = client;
    let closed = false;
    // The loop below waits for a wake: the stop wakes it too, whether or not the
    // client reports its close.
    const stop = () => {
      client.close();
      this.#wake?.();
    };
    signal.addEventListener("abort", stop, { once: true });
    client.on("exists", () => this.poke());
    client.on("close", () => {
      closed = true;
      this.#wake?.();
    });
    // An error event comes with the close that follows it.
    client.on("error", () => {});
    try {
      await client.connect();
      const box = await client.mailboxOpen(s.folder);
      const uidvalidity = Number(box.uidValidity);
      // What the folder held when it was opened: mail that comes later has a higher UID.
      const openedNext = Number(box.uidNext) || 1;
      this.#o.onState?.("connected");
      this.#dirty = true;
      while (!signal.aborted && !closed) {
        if (this.#dirty) {
          this.#dirty = false;
          await this.#look(client, uidvalidity, openedNext);
          await this.#flag(client, uidvalidity);
          continue;
        }
        // The server tells of new mail once, and during a command that word may come
        // with the command's answer rather than as an event: a count that moved since
        // the last search is looked at before going idle.
        const exists = client.mailbox ? client.mailbox.exists : undefined;
        if (exists !== this.#searchedExists) {
          this.#dirty = true;
          continue;
        }
        const { promise, resolve } = Promise.withResolvers<void>();
        this.#wake = resolve;
        // In `poll` mode the only look; in `idle` mode a safety net under IDLE.
        const timer = setTimeout(() => this.poke(), s.poll_seconds * 1000);
        await promise;
        clearTimeout(timer);
        this.#wake = undefined;
      }
      if (closed && !signal.aborted) throw new Error("the server closed the connection");
    } finally {
      signal.removeEventListener("abort", stop);
      this.#client = undefined;
      // A polite LOGOUT when the connection is still up, bounded: a server that does not
      // answer must not hold the channel's stop.
      if (!closed && !signal.aborted) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          client.logout().catch(() => {}),
          new Promise((resolve) => timer = setTimeout(resolve, 2_000)),
        ]);
        clearTimeout(timer);
      }
      client.close();
    }
  }

  /**
   * Takes the new mail of the folder, in UID order. `openedNext` is the folder's UIDNEXT
   * when it was opened: the first look at a `UIDVALIDITY` starts its watermark there,
   * never at a UIDNEXT read later (mail that came during the look would be skipped).
   */
  async #look(client: ImapFlow, uidvalidity: number, openedNext: number): Promise<void> {
    const { store, settings } = this.#o;
    const folder = settings.folder;
    const mark = store.watermark(folder, uidvalidity);
    this.#searchedExists = client.mailbox ? client.mailbox.exists : undefined;
    const found = mark === undefined
      ? await client.search({ seen: false }, { uid: true })
      : await client.search({ uid: `${mark + 1}:*` }, { uid: true });
    const uids = (found || []).filter((uid) => mark === undefined || uid > mark)
      .sort((a, b) => a - b);
    for (const uid of uids) {
      const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
      if (message && message.source) {
        this.#o.take({ folder, uidvalidity, uid, raw: new Uint8Array(message.source) });
      }
      store.setWatermark(folder, uidvalidity, uid);
    }
    if (mark === undefined) {
      // The unseen mail is taken: start above what the folder held when it was opened.
      store.setWatermark(folder, uidvalidity, Math.max(0, openedNext - 1, ...uids));
    }
  }

  /** Flags the answered mails `\Seen`, and moves them when `done_folder` is set. */
  async #flag(client: ImapFlow, uidvalidity: number): Promise<void> {
    const { store, settings } = this.#o;
    const rows = store.unflagged(settings.folder, uidvalidity);
    if (rows.length === 0) return;
    const range = rows.map((r) => r.uid).join(",");
    await client.messageFlagsAdd(range, ["\\Seen"], { uid: true });
    if (settings.done_folder !== "") {
      await client.mailboxCreate(settings.done_folder).catch(() => {});
      await client.messageMove(range, settings.done_folder, { uid: true });
    }
    store.flagged(rows.map((r) => r.messageId));
  }
}

/**
 * What failed, as one sentence part without secrets: the host and port, then the kind
 * (refused, no such host, TLS, login refused) or the server's own words.
 */
export function imapFailure(settings: EmailSettings, error: unknown): string {
  const e = error as { code?: string; authenticationFailed?: boolean; responseText?: string };
  const where = `IMAP ${settings.imap_host}:${settings.imap_port}`;
  if (e?.authenticationFailed) return `${where}: the login was refused`;
  const detail = e?.responseText ?? (error instanceof Error ? error.message : String(error));
  return `${where}: ${e?.code ? `${e.code}: ` : ""}${detail}`.replaceAll(settings.password, "***");
}
