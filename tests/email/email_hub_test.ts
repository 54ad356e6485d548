/**
 * The e-mail channel end to end: the hub with `[email]` (in the test's process, and as a
 * real `agent hub run` process for the kill) against a real Dovecot (started here as a
 * plain process, mail delivered over LMTP) and a loopback SMTP server: the owner's mail
 * answered in its thread through the desk, with the model and cost in the footer and the
 * spend recorded for channel `email`; forged senders never answered; Turkish (RFC 2047)
 * subjects and bodies intact both ways; a burst of 100 mails answered in order, none
 * twice, across a SIGKILL of the hub and a restart; `agent hub status` and `agent doctor
 * --probe`.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { controlJson } from "../_control.ts";
import { Ledger } from "@agent/hub/money";
import { type Dovecot, startDovecot } from "./_dovecot.ts";
import { type SmtpCapture, startSmtp } from "./_smtp.ts";
import { mailText } from "./_mails.ts";
import {
  AGENT,
  emailHome,
  FRIEND,
  OWNER,
  OWNER_PROVEN,
  PASSWORD,
  runEmailHub,
  runEmailHubHere,
} from "./_hub.ts";
import { until } from "../_poll.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

/** Every file under `dir`, recursively. */
async function* filesUnder(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* filesUnder(path);
    else if (entry.isFile) yield path;
  }
}

Deno.test({
  name: "e-mail channel through the hub",
  ...SLOW,
  async fn(t) {
    const dovecot: Dovecot = await startDovecot([{ name: AGENT, password: PASSWORD }]);
    const smtp: SmtpCapture = await startSmtp(AGENT, PASSWORD);
    try {
      await t.step(
        "the owner's mail is answered in its thread, Turkish intact, spend as email",
        async () => {
          const { home, port } = await emailHome(dovecot, smtp, {
            replies: ["**Evet**, çarşamba saat 15:00'te. İyi günler!"],
          });
          const hub = await runEmailHubHere(home, port);
          try {
            await dovecot.deliver(
              AGENT,
              mailText({
                from: `=?UTF-8?Q?Ay=C5=9Fe_Y=C4=B1lmaz?= <${OWNER}>`,
                subject: "=?UTF-8?B?xZ5pcmtldCB0b3BsYW50xLFzxLE=?=",
                id: "<t1@example.com>",
                authResults: [OWNER_PROVEN],
                body: "Toplantı ne zaman? Çok önemli, ığüşöç.",
              }),
            );
            await until("the answer", () => smtp.received.length === 1);
            const sent = smtp.received[0]!;
            assert.deepEqual(sent.to, [OWNER]);
            assert.equal(sent.from, AGENT);
            assert.equal(sent.mail.subject, "Re: Şirket toplantısı");
            assert.equal(sent.mail.inReplyTo, "<t1@example.com>");
            assert.deepEqual(sent.mail.references, ["<t1@example.com>"]);
            assert.match(sent.mail.messageId ?? "", /^<answer\.[0-9a-f]{32}@example\.test>$/);
            assert.match(sent.mail.text, /^\*\*Evet\*\*, çarşamba saat 15:00'te\. İyi günler!/);
            assert.match(sent.mail.text, /\n-- \nAnswered by fake-brain /);
            assert.match(new TextDecoder().decode(sent.raw), /multipart\/alternative/);

            // The owner answers in the thread: the same desk conversation.
            await dovecot.deliver(
              AGENT,
              mailText({
                from: OWNER,
                subject: "Re: =?UTF-8?B?xZ5pcmtldCB0b3BsYW50xLFzxLE=?=",
                id: "<t2@example.com>",
                references: ["<t1@example.com>", sent.mail.messageId!],
                authResults: [OWNER_PROVEN],
                body: "Teşekkürler.",
              }),
            );
            await until("the second answer", () => smtp.received.length === 2);
            assert.deepEqual(smtp.received[1]!.mail.references, [
              "<t1@example.com>",
              sent.mail.messageId!,
              "<t2@example.com>",
            ]);
            const status = await controlJson(port, "/status");
            assert.equal(status.email.state, "connected");
            assert.equal(status.email.mode, "idle");
            assert.equal(status.email.answered, 2);
            assert.equal(JSON.stringify(status).includes(PASSWORD), false);
            // The ledger `agent spend --by channel` reads (tests/cli runs the command).
            {
              using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
              const channels = ledger.breakdown("channel", { sinceMs: 0 }).map((r) => r.channel);
              assert.ok(channels.includes("email"), channels.join(", "));
            }
            const lines = await agent(["--home", home, "hub", "status"]);
            assert.match(
              lines.stdout,
              /^e-mail: connected \(idle\) as agent@example\.test; last mail \d\d\.\d\d\.\d{4} \d\d:\d\d; last error: none$/m,
            );
            const tr = await agent(["--home", home, "--lang", "tr", "hub", "status"]);
            assert.match(tr.stdout, /^e-posta: bağlı \(idle\), agent@example\.test olarak; /m);
            // One desk conversation for the thread, with both turns in one session.
            const book = JSON.parse(await Deno.readTextFile(`${home}/data/conversations.json`));
            assert.deepEqual(Object.keys(book.conversations ?? book), ["email:<t1@example.com>"]);
          } finally {
            await hub.stop();
          }
        },
      );

      await t.step("forged senders are never answered nor shown to the model", async () => {
        const before = smtp.received.length;
        const { home, port } = await emailHome(dovecot, smtp, { replies: ["LEAKED"] });
        const hub = await runEmailHubHere(home, port);
        try {
          await dovecot.deliver(
            AGENT,
            mailText({ from: OWNER, subject: "pay now", id: "<x1@x>", body: "secret-one" }),
          );
          await dovecot.deliver(
            AGENT,
            mailText({
              from: FRIEND,
              subject: "pay now",
              id: "<x2@x>",
              authResults: [`attacker.example; dkim=pass header.d=example.org`],
              body: "secret-two",
            }),
          );
          await until(
            "both refused",
            async () => (await controlJson(port, "/status")).email.refused === 2,
          );
          // A proven mail after them is answered: the two were looked at, not skipped.
          await dovecot.deliver(
            AGENT,
            mailText({
              from: OWNER,
              subject: "ok",
              id: "<x3@example.com>",
              authResults: [OWNER_PROVEN],
              body: "hi",
            }),
          );
          await until("the proven one's answer", () => smtp.received.length === before + 1);
          assert.equal(smtp.received.at(-1)!.mail.inReplyTo, "<x3@example.com>");
          // Nothing of theirs is in any file the hub keeps (sessions, the store, the log).
          for await (const file of filesUnder(`${home}/data`)) {
            const text = new TextDecoder().decode(await Deno.readFile(file));
            assert.ok(!text.includes("secret-one") && !text.includes("secret-two"), file);
          }
        } finally {
          await hub.stop();
        }
      });

      await t.step(
        "a burst of 100 mails: answered in order, none twice, across SIGKILL",
        async () => {
          smtp.received.length = 0;
          const { home, port } = await emailHome(dovecot, smtp, {
            email: ["max_per_hour = 1000"],
          });
          const killed = await runEmailHub(home, port);
          const ids = Array.from({ length: 100 }, (_, i) => `<burst${i}@example.com>`);
          for (const [i, id] of ids.entries()) {
            await dovecot.deliver(
              AGENT,
              mailText({
                from: OWNER,
                subject: `burst ${i}`,
                id,
                authResults: [OWNER_PROVEN],
                body: `n ${i}`,
              }),
            );
          }
          await until("some answers", () => smtp.received.length >= 20, { timeoutMs: 60_000 });
          await killed.kill();
          const atKill = smtp.received.length;
          // The killed hub is the real process; the one after it runs here (its process
          // is not the point).
          const hub = await runEmailHubHere(home, port);
          try {
            await until(
              "every answer",
              () => new Set(smtp.received.map((r) => r.mail.inReplyTo)).size === 100,
              { timeoutMs: 120_000 },
            );
            const order = smtp.received.map((r) => r.mail.inReplyTo);
            // Each mail got one answer id; a resend after the kill carries the same id.
            const answerIds = new Map<string, Set<string>>();
            for (const r of smtp.received) {
              const set = answerIds.get(r.mail.inReplyTo!) ?? new Set();
              set.add(r.mail.messageId!);
              answerIds.set(r.mail.inReplyTo!, set);
            }
            for (const [id, set] of answerIds) assert.equal(set.size, 1, id);
            assert.ok(smtp.received.length <= 101, `${smtp.received.length} sends`);
            const firsts = order.filter((id, i) => order.indexOf(id) === i);
            assert.deepEqual(firsts, ids);
            assert.ok(atKill < 100, "the kill came in the middle of the burst");
          } finally {
            await hub.stop();
          }
        },
      );

      await t.step("agent doctor --probe names what fails in one sentence", async () => {
        const { home } = await emailHome(dovecot, smtp);
        const bad = await emailHome(dovecot, smtp, { env: { EMAIL_PASSWORD: "wrong" } });
        const closed = await emailHome(dovecot, smtp, { email: ["imap_port = 1"] });
        // The schema takes the last imap_port: rewrite the first one.
        const toml = (await Deno.readTextFile(`${closed.home}/agent.toml`))
          .replace(/^imap_port = \d+\n/m, "");
        await Deno.writeTextFile(`${closed.home}/agent.toml`, toml);
        const tls = await emailHome(dovecot, smtp, { email: [] });
        await Deno.writeTextFile(
          `${tls.home}/agent.toml`,
          (await Deno.readTextFile(`${tls.home}/agent.toml`)).replace(
            'tls = "none"',
            'tls = "implicit"',
          ),
        );
        // Five homes, five probes side by side: each is a process of its own.
        const [ok, refused, tr, unreachable, handshake] = await Promise.all([
          agent(["--home", home, "doctor", "--probe"]),
          agent(["--home", bad.home, "doctor", "--probe"]),
          agent(["--home", bad.home, "--lang", "tr", "doctor", "--probe"]),
          agent(["--home", closed.home, "doctor", "--probe"]),
          agent(["--home", tls.home, "doctor", "--probe"]),
        ]);
        assert.match(
          ok.stdout,
          /^ok email: logged in to IMAP 127\.0\.0\.1:\d+ \(folder INBOX\) and SMTP 127\.0\.0\.1:\d+$/m,
        );
        assert.equal(refused.code, 1);
        assert.match(
          refused.stdout,
          /^fail email: IMAP 127\.0\.0\.1:\d+ refused the login of agent@example\.test; check EMAIL_USERNAME and EMAIL_PASSWORD in \.env$/m,
        );
        assert.match(
          tr.stdout,
          /^fail email: IMAP 127\.0\.0\.1:\d+, agent@example\.test oturumunu reddetti;/m,
        );
        assert.ok(!refused.stdout.includes("wrong") && !refused.stderr.includes("wrong"));
        assert.match(
          unreachable.stdout,
          /^fail email: IMAP 127\.0\.0\.1:1 cannot be reached: connection refused$/m,
        );
        assert.match(
          handshake.stdout,
          /^fail email: IMAP 127\.0\.0\.1:\d+ did not complete a TLS handshake \(.+\); check \[email\] tls/m,
        );
      });
    } finally {
      await smtp.stop();
      await dovecot.stop();
      await cleanup();
    }
  },
});
