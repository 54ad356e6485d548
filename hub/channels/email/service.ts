/**
 * The e-mail channel's machinery, apart from the desk: the mailbox watch hands each
 * new mail to {@linkcode EmailService}, which judges it (sender, proof, hourly limit),
 * records it, and answers the taken ones one after another, in the order they came,
 * through the {@linkcode MailAnswerer} it was given (the desk, in the hub). Each answer
 * is rendered, recorded in the outbox with the mail marked answered, and sent; the mail
 * is then flagged `\Seen`. Refused mail is gathered for the owner's digest.
 *
 * Mails are answered one at a time: a burst keeps its order, and a long answer (or one
 * waiting for an approval) holds the next mails back rather than racing them.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import { pause } from "../../backoff.ts";
import { type EventSaid, eventSentence, type OwnerEventSink, saidText } from "../../events/mod.ts";
import type { Lang } from "../../i18n.ts";
import type { Logger } from "../../log.ts";
import { t } from "./_messages.ts";
import { RefusedDigest } from "./digest.ts";
import { type FetchedMail, type ImapState, MailboxWatch } from "./imap.ts";
import { type IncomingMail, readMail } from "./mail.ts";
import { Outbox, type SendRaw, smtpSender } from "./outbox.ts";
import { mailPrompt } from "./prompt.ts";
import { type AnswerCost, renderAnswer } from "./render.ts";
import type { EmailSettings, MailPerson } from "./settings.ts";
import type { MailStore, TakenMail } from "./store.ts";
import { answerMessageId, threadRoot } from "./thread.ts";
import { judge } from "./trust.ts";

/** One mail to answer, as the desk gets it. */
export interface MailTurn {
  /** The desk conversation: `email:<thread root Message-ID>`. */
  key: `email:${string}`;
  person: MailPerson;
  /** The sender's address (the ledger's contact). */
  sender: string;
  /** What the model reads (see `prompt.ts`). */
  text: string;
  /**
   * The mail brings outside content the model reads (the text of attached or forwarded
   * files): nothing its turn asks to remember is kept without the owner's approval.
   */
  untrusted?: boolean | undefined;
  /** The mail's Message-ID: the turn's key, so a turn run again is not answered twice. */
  messageId: string;
  /** The turn waits for the owner's approval of `sentence` (told by mail once). */
  waiting(sentence: string): void;
  /** Aborts when the channel stops: the turn is cancelled, the mail answered after a restart. */
  signal?: AbortSignal;
}

/** How a turn ended. */
export type MailAnswer =
  | { kind: "answered"; text: string; cost?: AnswerCost | undefined }
  /** The turn ended early (a spent budget...): `text` is the sentence for the sender. */
  | { kind: "failed"; text: string }
  /** The hub stops: the mail stays taken and is answered after the restart. */
  | { kind: "closed" };

/** Answers one mail (the desk in the hub; a fake in tests). */
export type MailAnswerer = (turn: MailTurn) => Promise<MailAnswer>;

/** What `/status` shows of the channel (never the password). */
export interface EmailStatus {
  state: ImapState["state"];
  mode: "idle" | "poll";
  address: string;
  /** ISO 8601 time of the last mail taken or refused, or `null`. */
  last_message_at: string | null;
  last_error: string | null;
  answered: number;
  refused: number;
  /** Answers waiting in the outbox. */
  outbox: number;
  undelivered: number;
}

/** Options for {@linkcode EmailService}. */
export interface EmailServiceOptions {
  settings: EmailSettings;
  store: MailStore;
  answer: MailAnswerer;
  lang: Lang;
  logger: Logger;
  /** Where refused and undelivered mail is told (the hub's owner-event bus). */
  events: OwnerEventSink;
  /** @default SMTP with the settings */
  send?: SendRaw;
  /** @default Date.now */
  now?: () => number;
  /** The outbox's first retry wait. @default 1000 */
  retryBaseMs?: number;
  /** How long the refused-mail digest gathers. @default REFUSED_GATHER_MS */
  refusedGatherMs?: number;
  /** The shortest time between two refused-mail digests. @default REFUSED_INTERVAL_MS */
  refusedIntervalMs?: number;
}

/** The channel's machinery. */
export class EmailService {
  #o: EmailServiceOptions;
  #stop = new AbortController();
  #loops: Promise<void>[] = [];
  #watch: MailboxWatch;
  #outbox: Outbox;
  #digest: RefusedDigest;
  #closeSender: (() => void) | undefined;
  #state: ImapState["state"] = "stopped";
  #lastError: string | null = null;
  #wakeWorker: (() => void) | undefined;

  /** Builds the machinery; nothing connects before {@linkcode start}. */
  constructor(options: EmailServiceOptions) {
    this.#o = options;
    const { settings, store } = options;
    let send = options.send;
    if (send === undefined) {
      const sender = smtpSender(settings);
      send = sender.send;
      this.#closeSender = sender.close;
    }
    this.#watch = new MailboxWatch({
      settings,
      store,
      take: (mail) => this.take(mail),
      onError: (detail) => this.#failed(detail),
      onState: (state) => this.#state = state,
    });
    this.#outbox = new Outbox({
      settings,
      store,
      send,
      ...(options.now ? { now: options.now } : {}),
      ...(options.retryBaseMs ? { baseMs: options.retryBaseMs } : {}),
      onError: (detail) => this.#failed(detail),
      onGivenUp: async (row, failure) => {
        let subject = "";
        try {
          subject = readMail(row.raw).subject;
        } catch { /* the answer's own bytes: nothing to tell but the recipient */ }
        this.#o.logger.warn(
          `email: the answer to ${row.recipient} was given up: ${failure.detail}`,
        );
        await this.#o.events.publish({
          ts: Math.floor(this.#now() / 1000),
          type: "email.undelivered",
          to: row.recipient,
          subject,
          ...undeliveredSaid(options.lang, {
            to: row.recipient,
            subject,
            detail: failure.detail,
          }),
        });
      },
      onSent: () => this.#watch.poke(),
    });
    this.#digest = new RefusedDigest({
      store,
      events: options.events,
      lang: options.lang,
      ...(options.now ? { now: options.now } : {}),
      ...(options.refusedGatherMs === undefined ? {} : { gatherMs: options.refusedGatherMs }),
      ...(options.refusedIntervalMs === undefined ? {} : { intervalMs: options.refusedIntervalMs }),
    });
  }

  /** Starts the mailbox watch, the answers, the outbox and the digest. */
  start(): void {
    const signal = this.#stop.signal;
    this.#loops.push(
      this.#watch.run(signal),
      this.#work(signal),
      this.#outbox.run(signal),
      this.#digest.run(signal),
    );
  }

  /** Stops every loop and waits for them (a running answer is left to the desk's close). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wakeWorker?.();
    await Promise.allSettled(this.#loops);
    this.#closeSender?.();
  }

  /** The `email` block of `/status`. */
  status(): EmailStatus {
    const counts = this.#o.store.counts();
    const last = this.#o.store.lastMailMs();
    return {
      state: this.#state,
      mode: this.#o.settings.mode,
      address: this.#o.settings.address,
      last_message_at: last === undefined ? null : new Date(last).toISOString(),
      last_error: this.#lastError,
      ...counts,
    };
  }

  /**
   * Takes one fetched mail: judged, then recorded once (a known Message-ID or place is
   * skipped); a taken mail wakes the answers.
   */
  take(fetched: FetchedMail): void {
    const { settings, store, logger } = this.#o;
    let mail: IncomingMail;
    try {
      mail = readMail(fetched.raw, { attachmentBytes: settings.attachment_kb * 1024 });
    } catch (error) {
      logger.warn(`email: UID ${fetched.uid} cannot be read: ${errorMessage(error)}`);
      return;
    }
    // A mail without a Message-ID is known by its place.
    const messageId = mail.messageId ??
      `<uid.${fetched.uidvalidity}.${fetched.uid}@${settings.folder}.local>`;
    if (store.known(messageId, fetched.folder, fetched.uidvalidity, fetched.uid)) return;
    const now = this.#now();
    let verdict = judge(mail, settings);
    if (
      verdict.ok && store.answeredSince(verdict.sender, now - 3_600_000) >= settings.max_per_hour
    ) verdict = { ok: false, sender: verdict.sender, reason: "rate_limited" };
    const base = {
      messageId,
      folder: fetched.folder,
      uidvalidity: fetched.uidvalidity,
      uid: fetched.uid,
      subject: mail.subject.slice(0, 500),
      receivedMs: now,
    };
    if (!verdict.ok) {
      store.take({
        ...base,
        sender: verdict.sender ?? null,
        person: null,
        thread: null,
        state: "refused",
        reason: verdict.reason,
        raw: null,
      });
      logger.info(
        `email: not answered: ${messageId} from ${
          verdict.sender ?? "no sender"
        }: ${verdict.reason}`,
      );
      this.#digest.poke();
      return;
    }
    // A thread is its first sender's: someone else naming its root starts their own.
    const root = threadRoot(mail) ?? messageId;
    const thread = store.threadOwner(root, verdict.sender) === verdict.sender ? root : messageId;
    if (thread === messageId) store.threadOwner(messageId, verdict.sender);
    store.take({
      ...base,
      sender: verdict.sender,
      person: verdict.person,
      thread,
      state: "taken",
      reason: null,
      raw: fetched.raw,
    });
    logger.info(`email: taken ${messageId} from ${verdict.sender} (${verdict.proof})`);
    this.#wakeWorker?.();
  }

  /** Answers the taken mails, oldest first, until `signal` aborts. */
  async #work(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = this.#o.store.unanswered()[0];
      if (next === undefined) {
        await new Promise<void>((resolve) => this.#wakeWorker = resolve);
        this.#wakeWorker = undefined;
        continue;
      }
      try {
        if (!(await this.#answer(next))) return;
      } catch (error) {
        // A store that cannot be written: logged, tried again after a pause.
        this.#failed(`answering ${next.messageId}: ${errorMessage(error)}`);
        await pause(5_000, signal);
      }
    }
  }

  /** Answers one mail; `false` when the hub stops before it is answered. */
  async #answer(taken: TakenMail): Promise<boolean> {
    const { settings, store, lang } = this.#o;
    const mail = readMail(taken.raw, { attachmentBytes: settings.attachment_kb * 1024 });
    const answerId = await answerMessageId(taken.messageId, settings.address);
    let waited = false;
    const result = await this.#o.answer({
      key: `email:${taken.thread}`,
      person: taken.person,
      sender: taken.sender,
      text: mailPrompt(mail, taken.person),
      untrusted: mail.attachments.some((a) => a.text !== undefined),
      messageId: taken.messageId,
      signal: this.#stop.signal,
      waiting: (sentence) => {
        if (waited) return;
        waited = true;
        this.#notice(taken, mail, answerId, sentence);
      },
    });
    if (result.kind === "closed" || this.#stop.signal.aborted) return false;
    const raw = renderAnswer({
      from: settings.address,
      to: taken.sender,
      mail: { ...mail, messageId: taken.messageId },
      messageId: answerId,
      text: result.text,
      lang,
      // Figures are for the owner: other senders do not see what their answer cost.
      cost: result.kind === "answered" && settings.footer && taken.person === "owner"
        ? result.cost
        : undefined,
      date: new Date(this.#now()),
    });
    store.answered(taken.messageId, {
      id: answerId,
      answers: taken.messageId,
      recipient: taken.sender,
      raw,
      firstMs: this.#now(),
    });
    this.#outbox.poke();
    this.#watch.poke();
    return true;
  }

  /** Records (once per mail) the mail that says an approval waits, and sends it. */
  #notice(taken: TakenMail, mail: IncomingMail, answerId: string, sentence: string): void {
    const { settings, lang } = this.#o;
    try {
      const id = answerId.replace("<answer.", "<waiting.");
      const raw = renderAnswer({
        from: settings.address,
        to: taken.sender,
        mail: { ...mail, messageId: taken.messageId },
        messageId: id,
        text: t(lang, "waiting", { sentence }),
        lang,
        date: new Date(this.#now()),
      });
      this.#o.store.notice({
        id,
        answers: taken.messageId,
        recipient: taken.sender,
        raw,
        firstMs: this.#now(),
      });
      this.#outbox.poke();
    } catch (error) {
      this.#failed(`the approval notice for ${taken.messageId}: ${errorMessage(error)}`);
    }
  }

  #failed(detail: string): void {
    this.#lastError = detail;
    this.#o.logger.warn(`email: ${detail}`);
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }
}

/** The `email.undelivered` sentence in the hub's language, and as a code for other readers. */
function undeliveredSaid(
  lang: Lang,
  vars: { to: string; subject: string; detail: string },
): { text: string; said: EventSaid } {
  const said = { code: "events.email_undelivered", vars };
  return { text: saidText(lang, said, { events: eventSentence })!, said };
}
