/**
 * A real Dovecot for the e-mail tests: Debian's `dovecot-imapd` and `dovecot-lmtpd`
 * run as a plain process (`dovecot -F`) with a configuration of its own in a temp
 * folder (passwd-file users, single-dbox mail, IMAP and LMTP on loopback ports, no
 * TLS, no system service). Mail is delivered into it over LMTP, as a mail server's last hop
 * does, by `nodemailer` (whose SMTP transport speaks LMTP).
 *
 * Run as root, Dovecot refuses uid 0 for mailboxes: the mail then belongs to `nobody`,
 * which must be able to walk to the folder. The folder is then made in `/tmp` (open to
 * everyone) rather than in TMPDIR, which CI makes 0700: changing the modes of folders on the
 * way raced between Dovecots running side by side (one put back the mode another still
 * needed, and its logins were refused).
 *
 * @module
 */
import { createTransport } from "nodemailer";
import { Buffer } from "node:buffer";
import { until } from "../_poll.ts";
import { freePort } from "../_port.ts";

/** A mailbox user. */
export interface DovecotUser {
  name: string;
  password: string;
}

/** A running Dovecot. */
export interface Dovecot extends AsyncDisposable {
  imapPort: number;
  lmtpPort: number;
  /** Delivers raw RFC 5322 bytes (or text) into `user`'s INBOX over LMTP. */
  deliver(user: string, raw: string | Uint8Array, from?: string): Promise<void>;
  /** The folder Dovecot keeps its files in. */
  dir: string;
  /** Its log so far. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** Whether Dovecot is installed here. */
export function hasDovecot(): boolean {
  try {
    return Deno.statSync("/usr/sbin/dovecot").isFile &&
      Deno.statSync("/usr/lib/dovecot/lmtp").isFile;
  } catch {
    return false;
  }
}

/** Starts Dovecot with `users`, and waits until IMAP and LMTP answer. */
export async function startDovecot(users: readonly DovecotUser[]): Promise<Dovecot> {
  const uid = Deno.uid() ?? 0;
  const root = uid === 0;
  const dir = await Deno.makeTempDir({
    prefix: "agent-dovecot-",
    ...(root ? { dir: "/tmp" } : {}),
  });
  if (root) await Deno.chmod(dir, 0o711);
  const mailUid = root ? 65534 : uid;
  const mailGid = root ? 65534 : (Deno.gid() ?? 0);
  for (const sub of ["run", "state", "mail"]) await Deno.mkdir(`${dir}/${sub}`);
  if (root) await Deno.chown(`${dir}/mail`, mailUid, mailGid);
  const imapPort = freePort();
  const lmtpPort = freePort();
  await Deno.writeTextFile(
    `${dir}/users`,
    users.map((u) => `${u.name}:{PLAIN}${u.password}::::::`).join("\n") + "\n",
  );
  const me = root
    ? ""
    : `default_login_user = ${userName()}\ndefault_internal_user = ${userName()}\n`;
  await Deno.writeTextFile(
    `${dir}/dovecot.conf`,
    `protocols = imap lmtp
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
info_log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A refused login is answered at once, not after Dovecot's 2 s (a test of a wrong
# password waited it out for nothing).
auth_failure_delay = 0
${root ? "default_login_user = dovenull\ndefault_internal_user = dovecot\n" : me}
# sdbox, not maildir: a maildir delivery numbers its mail only when it gets the uidlist
# lock at once (LMTP does not wait for it), else the next sync numbers it, after mail
# delivered later; with IMAP busy on a loaded machine a burst got its UIDs out of order
# (mail 11 after 14 to 21). A dbox delivery is numbered as it is saved: UID order is the
# order of delivery, which the tests' order checks rely on.
mail_location = sdbox:${dir}/mail/%u
# IDLE hears of new mail through inotify; on a busy machine whose inotify instances run
# out it falls back to looking every mailbox_idle_check_interval (30 s by default).
mailbox_idle_check_interval = 1 secs
first_valid_uid = ${Math.min(mailUid, 500)}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/mail/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${lmtpPort}
  }
  unix_listener lmtp {
    mode = 0600
  }
}
service anvil {
  chroot =
}
protocol lmtp {
  postmaster_address = postmaster@example.test
}
`,
  );
  const child = new Deno.Command("/usr/sbin/dovecot", {
    args: ["-F", "-c", `${dir}/dovecot.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log = () => Deno.readTextFile(`${dir}/dovecot.log`).catch(() => "");
  let stopped: Promise<void> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.output().catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    })();
  try {
    await until(
      "Dovecot answers",
      async () => await answers(imapPort) && await answers(lmtpPort),
      { timeoutMs: 15_000 },
    );
  } catch (error) {
    const text = await log();
    await stop();
    throw new Error(`Dovecot did not start: ${text}`, { cause: error });
  }
  const lmtp = createTransport({
    host: "127.0.0.1",
    port: lmtpPort,
    lmtp: true,
    ignoreTLS: true,
    name: "mx.example.test",
  } as never);
  const dovecot: Dovecot = {
    imapPort,
    lmtpPort,
    dir,
    log,
    async deliver(user, raw, from = "sender@example.test") {
      await lmtp.sendMail({
        envelope: { from, to: [user] },
        raw: typeof raw === "string" ? raw : Buffer.from(raw),
      });
    },
    async stop() {
      lmtp.close();
      await stop();
    },
    async [Symbol.asyncDispose]() {
      await dovecot.stop();
    },
  };
  return dovecot;
}

function userName(): string {
  return Deno.env.get("USER") ?? "nobody";
}

/** Whether something listens on `port` (a connect that succeeds). */
async function answers(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}
