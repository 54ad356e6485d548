/**
 * The outbox: answers recorded in the store are sent over SMTP (nodemailer's
 * `SMTPConnection`), each as the bytes recorded; a send that fails is tried again after
 * the hub's backoff (`hub/backoff.ts`), for 24 hours, then given up and the owner told
 * (an `email.undelivered` owner event). A server's permanent refusal (a 5xx answer) is
 * not tried again. A restart goes on where the last process stopped: what is due is in
 * the store. Answers go in the order they were recorded, and one recipient's next
 * answer waits until the one before it is sent or given up (`MailStore.due`), so the
 * answers to a burst arrive in the order of its mails even across a failed send.
 *
 * @module
 */
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import { Buffer } from "node:buffer";
import { backoffDelay } from "../../backoff.ts";
import { Doze } from "./_doze.ts";
import type { EmailSettings } from "./settings.ts";
import type { MailStore, OutboxRow } from "./store.ts";

/** How long an answer is tried: 24 hours. */
export const OUTBOX_GIVE_UP_MS = 24 * 3_600_000;

/** How a send went wrong. */
export interface SendFailure {
  /** A 5xx: the server will not take it, trying again changes nothing. */
  permanent: boolean;
  /** Host, port and what failed; never the password. */
  detail: string;
}

/** Sends one raw message; throws on failure. */
export type SendRaw = (row: OutboxRow) => Promise<void>;

/** The SMTP options for the settings. */
export function smtpOptions(settings: EmailSettings) {
  return {
    host: settings.smtp_host,
    port: settings.smtp_port,
    secure: settings.tls === "implicit",
    requireTLS: settings.tls === "starttls",
    ignoreTLS: settings.tls === "none",
    auth: { user: settings.username, pass: settings.password },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    logger: false,
  };
}

/**
 * A sender over SMTP for the settings: one connection per send (as nodemailer's
 * transport without a pool does), logged in when the server offers AUTH. It loads only
 * nodemailer's `SMTPConnection`, with the first send: the answers are already MIME
 * (`render.ts`), so the package's mailer, composer and other transports (about 1 MiB
 * resident) are never loaded, and an idle channel holds none of it.
 */
export function smtpSender(settings: EmailSettings): { send: SendRaw; close(): void } {
  const open = new Set<SMTPConnection>();
  return {
    async send(row) {
      const { default: Connection } = await import("nodemailer/lib/smtp-connection");
      const { auth, ...options } = smtpOptions(settings);
      const connection = new Connection(options);
      open.add(connection);
      try {
        await new Promise<void>((resolve, reject) => {
          // `on`, not `once`: a second error (during QUIT, say) must not crash the hub unheard.
          connection.on("error", reject);
          // A close nodemailer does not count as an error must not leave the outbox waiting.
          connection.once(
            "end",
            () => reject(new Error("the connection closed before the server took the answer")),
          );
          const send = () =>
            connection.send(
              { from: settings.address, to: [row.recipient] },
              Buffer.from(row.raw),
              (error) => error ? reject(error) : resolve(),
            );
          connection.connect((error) => {
            if (error) return reject(error);
            if (!connection.allowsAuth) return send();
            connection.login(auth, (error) => error ? reject(error) : send());
          });
        });
        connection.quit();
      } catch (error) {
        connection.close();
        throw error;
      } finally {
        open.delete(connection);
      }
    },
    close() {
      for (const connection of open) connection.close();
      open.clear();
    },
  };
}

/**
 * A send's failure as a {@linkcode SendFailure}.
 *
 * @example
 * ```ts
 * import { smtpFailure } from "./outbox.ts";
 * const s = { smtp_host: "smtp.example.com", smtp_port: 465, password: "pw" } as never;
 * const f = smtpFailure(s, Object.assign(new Error("550 no such user"), { responseCode: 550 }));
 * if (!f.permanent || f.detail !== "SMTP smtp.example.com:465: 550 no such user") throw new Error(f.detail);
 * ```
 */
export function smtpFailure(settings: EmailSettings, error: unknown): SendFailure {
  const e = error as { responseCode?: number; code?: string; response?: string };
  const message = e?.response ?? (error instanceof Error ? error.message : String(error));
  const where = `SMTP ${settings.smtp_host}:${settings.smtp_port}`;
  return {
    permanent: typeof e?.responseCode === "number" && e.responseCode >= 500 &&
      e.code !== "EAUTH",
    detail: `${where}: ${message}`.replaceAll(settings.password, "***").replace(/\s+/g, " "),
  };
}

/** Options for {@linkcode Outbox}. */
export interface OutboxOptions {
  settings: EmailSettings;
  store: MailStore;
  send: SendRaw;
  /** An answer was given up (after a day, or refused for good). */
  onGivenUp(row: OutboxRow, failure: SendFailure): Promise<void>;
  /** Each failed try (for the log and `/status`). */
  onError(detail: string): void;
  /** An answer reached the server. */
  onSent?(row: OutboxRow): void;
  /** @default Date.now */
  now?: () => number;
  /** @default 1000 */
  baseMs?: number;
}

/** The outbox loop. */
export class Outbox {
  #o: OutboxOptions;
  #doze = new Doze();

  /** Makes the outbox; {@linkcode run} starts it. */
  constructor(options: OutboxOptions) {
    this.#o = options;
  }

  /** An answer was recorded: send now. */
  poke(): void {
    this.#doze.poke();
  }

  /** Sends what is due until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const now = this.#o.now ?? Date.now;
    while (!signal.aborted) {
      for (const row of this.#o.store.due(now())) {
        if (signal.aborted) return;
        await this.#try(row, now());
      }
      const next = this.#o.store.nextDue();
      const wait = next === undefined ? 3_600_000 : Math.max(0, next - now());
      await this.#doze.sleep(wait, signal);
    }
  }

  async #try(row: OutboxRow, at: number): Promise<void> {
    const { store, settings } = this.#o;
    try {
      await this.#o.send(row);
      store.sent(row.id, (this.#o.now ?? Date.now)());
      this.#o.onSent?.(row);
    } catch (error) {
      const failure = smtpFailure(settings, error);
      this.#o.onError(failure.detail);
      const attempts = row.attempts + 1;
      const next = at + backoffDelay(attempts - 1, {
        baseMs: this.#o.baseMs ?? 1000,
        maxMs: 600_000,
      });
      if (failure.permanent || next - row.firstMs > OUTBOX_GIVE_UP_MS) {
        store.undelivered(row.id, at, failure.detail);
        await this.#o.onGivenUp(row, failure);
      } else {
        store.retry(row.id, attempts, next, failure.detail);
      }
    }
  }
}
