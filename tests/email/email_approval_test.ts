/**
 * A tier-2 tool asked for in the owner's mail is decided in the messenger (the loopback
 * Bot API server), like any approval: the mail thread is told it waits, the owner's
 * chat shows the question with its buttons, Allow once runs the tool, and the answer
 * follows in the thread. Another person's mail gets no tier-2 tool at all: nothing is
 * asked and nothing runs.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { startBotServer } from "../messenger/_bot_server.ts";
import { buttonsOf, OWNER as OWNER_CHAT, seenIn } from "../messenger/_hub.ts";
import { startDovecot } from "./_dovecot.ts";
import { startSmtp } from "./_smtp.ts";
import { mailText } from "./_mails.ts";
import {
  AGENT,
  AUTHSERV,
  emailHome,
  FRIEND,
  OWNER,
  OWNER_PROVEN,
  PASSWORD,
  runEmailHubHere,
} from "./_hub.ts";
import { until } from "../_poll.ts";

const NOTE = '/tool write_note {"name":"plan.md","text":"Çarşamba 15:00"}';

Deno.test({
  name: "e-mail approval: asked in the owner's mail, decided in the messenger",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dovecot = await startDovecot([{ name: AGENT, password: PASSWORD }]);
    const smtp = await startSmtp(AGENT, PASSWORD);
    const bot = startBotServer();
    try {
      const { home, port } = await emailHome(dovecot, smtp, {
        replies: [NOTE, "Noted in plan.md.", NOTE, "I cannot write notes for you."],
        env: {
          MESSENGER_BOT_TOKEN: bot.token,
          MESSENGER_ALLOWED_CHAT_IDS: String(OWNER_CHAT),
          MESSENGER_API_ROOT: bot.apiRoot,
        },
      });
      const hub = await runEmailHubHere(home, port);
      try {
        await dovecot.deliver(
          AGENT,
          mailText({
            from: OWNER,
            subject: "plan",
            id: "<a1@example.com>",
            authResults: [OWNER_PROVEN],
            body: "Write the plan down, please.",
          }),
        );
        // The thread is told it waits.
        await until("the waiting mail", () => smtp.received.length === 1);
        const waiting = smtp.received[0]!;
        assert.equal(waiting.mail.inReplyTo, "<a1@example.com>");
        assert.equal(waiting.mail.subject, "Re: plan");
        assert.match(waiting.mail.text, /^Before I go on, this needs your approval:\n\n.*plan\.md/);
        assert.match(waiting.mail.messageId ?? "", /^<waiting\.[0-9a-f]{32}@example\.test>$/);
        // The owner's chat asks, and says where it was asked.
        await bot.until(
          "the question in the chat",
          () =>
            [...bot.messages.values()].some((m) =>
              buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:"))
            ),
          30_000,
        );
        const ask = [...bot.messages.values()].find((m) =>
          buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:"))
        )!;
        assert.equal(ask.chatId, OWNER_CHAT);
        assert.match(
          seenIn(bot, OWNER_CHAT).join("\n"),
          /Asked in one of your e-mails to the agent\./,
        );
        await new Promise((r) => setTimeout(r, 300));
        const allow = buttonsOf(ask).flat().find((b) => b.text === "Allow once")!;
        bot.pushPress(OWNER_CHAT, ask.messageId, allow.callback_data);
        await until("the answer", () => smtp.received.length === 2);
        const answer = smtp.received[1]!;
        assert.equal(answer.mail.inReplyTo, "<a1@example.com>");
        assert.match(answer.mail.text, /^Noted in plan\.md\./);
        assert.equal(await Deno.readTextFile(`${home}/notes/plan.md`), "Çarşamba 15:00\n");
        await bot.until(
          "the decided message",
          () =>
            seenIn(bot, OWNER_CHAT).some((line) => line.startsWith("Allowed once by you here:")),
        );

        // Another person: no tier-2 tool, so nothing is asked and nothing runs.
        const asked = bot.callsOf("sendMessage", OWNER_CHAT).filter((c) =>
          c.body.reply_markup !== undefined
        ).length;
        await dovecot.deliver(
          AGENT,
          mailText({
            from: FRIEND,
            subject: "note",
            id: "<p1@example.org>",
            authResults: [`${AUTHSERV}; dkim=pass header.d=example.org`],
            body: "Write into the owner's notes.",
          }),
        );
        await until("the person's answer", () => smtp.received.length === 3);
        assert.equal(smtp.received[2]!.mail.inReplyTo, "<p1@example.org>");
        assert.equal(
          bot.callsOf("sendMessage", OWNER_CHAT).filter((c) => c.body.reply_markup !== undefined)
            .length,
          asked,
        );
        assert.equal(await Deno.readTextFile(`${home}/notes/plan.md`), "Çarşamba 15:00\n");
      } finally {
        await hub.stop();
      }
    } finally {
      await bot.stop();
      await smtp.stop();
      await dovecot.stop();
      await cleanup();
    }
  },
});
