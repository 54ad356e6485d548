/**
 * A home whose hub runs the e-mail channel against the tests' Dovecot and SMTP
 * server, as a real `agent hub run` process; and the addresses every e-mail test uses.
 *
 * @module
 */
import { withReplies } from "../cli/_run.ts";
import { initHome } from "../_init_home.ts";
import { spawnHubProcess, untilHub } from "../_hub_process.ts";
import { startHomeHub } from "../_home_hub.ts";
import type { Dovecot } from "./_dovecot.ts";
import type { SmtpCapture } from "./_smtp.ts";
import { freePort } from "../_port.ts";

/** The agent's mailbox. */
export const AGENT = "agent@example.test";
/** Its password (Dovecot's and the SMTP server's). */
export const PASSWORD = "s3cret-pw";
/** The owner. */
export const OWNER = "ayse@example.com";
/** Another person the owner allows. */
export const FRIEND = "bob@example.org";
/** The receiving server's authserv-id. */
export const AUTHSERV = "mx.example.test";
/** What the receiving server writes for a proven owner. */
export const OWNER_PROVEN = `${AUTHSERV}; dkim=pass header.d=example.com header.s=s1`;

/** Options for {@linkcode emailHome}. */
export interface EmailHomeOptions {
  /** The fake brain's replies, in turn. */
  replies?: string[];
  /** Lines added to `[email]`. */
  email?: string[];
  /** More `.env` lines. */
  env?: Record<string, string>;
  lang?: "en" | "tr";
}

/** A fresh fake-provider home with `[email]` on `dovecot` and `smtp`; its control port. */
export async function emailHome(
  dovecot: Dovecot,
  smtp: SmtpCapture,
  options: EmailHomeOptions = {},
): Promise<{ home: string; port: number }> {
  const home = await initHome();
  const port = freePort();
  let toml = await Deno.readTextFile(`${home}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${port}`);
  if (options.replies) toml = withReplies(toml, options.replies);
  if (options.lang) toml = toml.replace(/^lang = "en"$/m, `lang = "${options.lang}"`);
  toml += [
    "",
    "[email]",
    `address = "${AGENT}"`,
    `imap_host = "127.0.0.1"`,
    `imap_port = ${dovecot.imapPort}`,
    `smtp_host = "127.0.0.1"`,
    `smtp_port = ${smtp.port}`,
    `tls = "none"`,
    `owner = "${OWNER}"`,
    `allowed_senders = ["${FRIEND}"]`,
    `authserv_id = "${AUTHSERV}"`,
    ...(options.email ?? []),
    "",
  ].join("\n");
  await Deno.writeTextFile(`${home}/agent.toml`, toml);
  const env = { EMAIL_USERNAME: AGENT, EMAIL_PASSWORD: PASSWORD, ...options.env };
  await Deno.writeTextFile(
    `${home}/.env`,
    Object.entries(env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n",
    { append: true, mode: 0o600 },
  );
  return { home, port };
}

/** A running hub. */
export interface EmailHub {
  child: Deno.ChildProcess;
  /** SIGTERM, and waits for it to end. */
  stop(): Promise<void>;
  /** SIGKILL: no goodbye, as a crash. */
  kill(): Promise<void>;
}

/** Runs `agent hub run` for `home` and waits until its e-mail channel is connected. */
export async function runEmailHub(home: string, port: number): Promise<EmailHub> {
  const child = spawnHubProcess(home);
  await untilHub(port, (s) => s?.email?.state === "connected", "the e-mail channel connects");
  let done: Promise<void> | undefined;
  const end = (signal: Deno.Signal) =>
    done ??= (async () => {
      try {
        child.kill(signal);
      } catch { /* gone */ }
      await child.status;
    })();
  return { child, stop: () => end("SIGTERM"), kill: () => end("SIGKILL") };
}

/**
 * Runs `home`'s hub in this process (`_home_hub.ts`) and waits until its e-mail channel
 * is connected: for the tests of what the channel does, where the process (a kill, its
 * output) is not the point; those run {@linkcode runEmailHub}.
 */
export async function runEmailHubHere(
  home: string,
  port: number,
): Promise<{ stop(): Promise<void> }> {
  const hub = await startHomeHub(home);
  try {
    await untilHub(port, (s) => s?.email?.state === "connected", "the e-mail channel connects");
  } catch (error) {
    await hub.stop();
    throw error;
  }
  return hub;
}
