/**
 * A loopback SMTP server (npm `smtp-server`) that takes the agent's answers: it checks
 * the login, keeps every message it accepted (raw bytes and envelope), and can refuse
 * the next sends with a temporary failure (`451`), as a server that is down for a
 * while does, to exercise the outbox.
 *
 * @module
 */
import { SMTPServer } from "smtp-server";
import { type IncomingMail, readMail } from "@agent/hub";

/** One accepted message. */
export interface Received {
  from: string;
  to: string[];
  raw: Uint8Array;
  mail: IncomingMail;
  /** Its raw headers, as text (for `In-Reply-To`, `References`). */
  head: string;
  at: number;
}

/** A running SMTP server. */
export interface SmtpCapture extends AsyncDisposable {
  port: number;
  received: Received[];
  /** Sends tried (accepted or refused). */
  tries: number;
  /** Refuses the next `n` messages with `451`. */
  refuseNext(n: number): void;
  stop(): Promise<void>;
}

/** Starts the server on a free loopback port, taking the logins of `users` with `password`. */
export async function startSmtp(users: string | string[], password: string): Promise<SmtpCapture> {
  const allowed = typeof users === "string" ? [users] : users;
  let refuse = 0;
  const capture = {
    port: 0,
    received: [] as Received[],
    tries: 0,
    refuseNext(n: number) {
      refuse = n;
    },
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (allowed.includes(auth.username ?? "") && auth.password === password) {
        callback(null, { user: auth.username });
      } else callback(Object.assign(new Error("Invalid login"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (c: Uint8Array) => chunks.push(c));
      stream.on("end", async () => {
        capture.tries++;
        if (refuse > 0) {
          refuse--;
          return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        }
        const raw = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) {
          raw.set(c, at);
          at += c.length;
        }
        const text = new TextDecoder().decode(raw);
        capture.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          mail: await readMail(raw),
          head: text.slice(0, text.search(/\r?\n\r?\n/)),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  capture.port = (server.server.address() as { port: number }).port;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return Object.assign(capture, {
    stop,
    [Symbol.asyncDispose]: stop,
  });
}
