/**
 * The e-mail channel as the hub runs it: an adapter over the hub's desk. Each thread of
 * mail is the desk conversation `email:<root Message-ID>`, opened for the person who
 * wrote (the owner, or `person:<address>`: no tier-2 tools, spend under their address);
 * a mail is submitted to it and its answer goes back by mail. A tier-2 tool the owner's
 * mail asks for waits on the desk like any approval, decided in the owner's other
 * channels (the messenger, the dashboard); the mail thread is told it waits. The rest
 * (IMAP, SMTP, the store, the outbox, trust) is {@linkcode EmailService}'s.
 *
 * @module
 */
import type { HubContext, HubService } from "../contract.ts";
import { isCustom } from "../../desk/mod.ts";
import { SpendChartReader } from "../../spend/chart.ts";
import { EmailService, type MailAnswer, type MailTurn } from "./service.ts";
import type { EmailSettings } from "./settings.ts";
import { MailStore } from "./store.ts";

/** The channel's store under the data folder. */
export function emailStoreFile(dataDir: string): string {
  return `${dataDir}/email.sqlite3`;
}

/** The e-mail channel. */
export class EmailChannel implements HubService {
  readonly name = "email";
  readonly statusKey = "email";
  #hub: HubContext;
  #settings: EmailSettings;
  #store: MailStore | undefined;
  #service: EmailService | undefined;
  #usage: SpendChartReader;

  /** Builds the channel; nothing connects before {@linkcode start}. */
  constructor(hub: HubContext, settings: EmailSettings) {
    this.#hub = hub;
    this.#settings = settings;
    this.#usage = new SpendChartReader(hub.paths.ledgerFile);
  }

  /** Opens the store and starts the mailbox watch, the answers and the outbox. */
  start(): void {
    const hub = this.#hub;
    this.#store = MailStore.open(emailStoreFile(hub.paths.dataDir));
    this.#service = new EmailService({
      settings: this.#settings,
      store: this.#store,
      answer: (turn) => this.#answer(turn),
      lang: hub.lang,
      logger: hub.logger,
      events: hub.events,
    });
    this.#service.start();
  }

  /** Stops the loops (a running answer is cancelled and answered after a restart). */
  async stop(): Promise<void> {
    await this.#service?.stop();
    this.#store?.close();
    this.#usage.close();
  }

  /** The `email` block of `/status` (never the password). */
  status(): Record<string, unknown> {
    return this.#service === undefined
      ? { state: "stopped", mode: this.#settings.mode, address: this.#settings.address }
      : { ...this.#service.status() };
  }

  /** One mail through the desk. */
  async #answer(turn: MailTurn): Promise<MailAnswer> {
    const conversation = await this.#hub.desk.open(turn.key, { person: turn.person });
    const since = Date.now();
    const unsubscribe = conversation.subscribe((event) => {
      if (isCustom(event, "approval.requested")) turn.waiting(event.value.message);
    });
    const cancel = () => conversation.cancel();
    turn.signal?.addEventListener("abort", cancel, { once: true });
    try {
      const outcome = await conversation.submit(turn.text, { untrusted: turn.untrusted });
      switch (outcome.kind) {
        case "answered":
          return {
            kind: "answered",
            text: outcome.result.reply,
            cost: this.#cost(conversation.sessionId, since),
          };
        case "failed":
          return { kind: "failed", text: outcome.message };
        default:
          return { kind: "closed" };
      }
    } finally {
      turn.signal?.removeEventListener("abort", cancel);
      unsubscribe();
    }
  }

  /** What the turn cost, from the ledger: the last model and the dollars of every call. */
  #cost(sessionId: string, since: number) {
    try {
      const rows = this.#usage.turnUsage(sessionId, since);
      const last = rows.at(-1);
      if (last === undefined) return undefined;
      const priced = rows.every((r) => r.usd !== null);
      return {
        model: last.model_id,
        usd: priced ? rows.reduce((sum, r) => sum + (r.usd ?? 0), 0) : null,
      };
    } catch {
      // A ledger that cannot be read leaves the footer out, not the answer.
      return undefined;
    }
  }
}
