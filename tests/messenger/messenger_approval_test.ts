/**
 * Approvals a person decides on a phone, end to end through `agent hub run` and the
 * loopback Bot API server: the owner's sentence, arguments cut with "…" and in full
 * behind Details, the expiry, Allow once / Allow for this session / Deny, the decided
 * message keeping what was decided and by whom, no "typing" while it waits, and a
 * message typed meanwhile queued and acknowledged; in English and Turkish.
 */
import assert from "node:assert/strict";
import { cleanup } from "../cli/_run.ts";
import { type BotServer, startBotServer } from "./_bot_server.ts";
import { buttonsOf, messengerHome, OWNER, runHubHere, seenIn } from "./_hub.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };
const LONG = "x".repeat(150);
const TOOL = `/tool net_send {"to":"friend.example","text":"${LONG}"}`;
/** The tool's own sentence cuts the text it quotes with "…". */
const SENTENCE = /^The agent wants to send friend\.example a message: “x+…”\.$/;

/** The approval message, once it is there. */
async function asked(bot: BotServer) {
  await bot.until(
    "the question",
    () =>
      [...bot.messages.values()].some((m) =>
        buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:"))
      ),
  );
  return [...bot.messages.values()].find((m) =>
    buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:"))
  )!;
}

function press(bot: BotServer, messageId: number, label: string): void {
  const message = bot.messages.get(`${OWNER}:${messageId}`);
  const button = buttonsOf(message).flat().find((b) => b.text === label);
  assert.ok(button, `no button ${label}`);
  bot.pushPress(OWNER, messageId, button.callback_data);
}

function seenText(bot: BotServer, messageId: number): string {
  return seenIn(bot, OWNER)[
    [...bot.messages.values()].filter((m) => m.chatId === OWNER)
      .sort((a, b) => a.messageId - b.messageId).findIndex((m) => m.messageId === messageId)
  ]!;
}

Deno.test({
  name:
    "messenger approval (en): sentence, cut arguments, expiry, Details, queued message, Allow once",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      replies: [TOOL, "All done.", "And the second one."],
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "send it");
      const ask = await asked(bot);
      const askedAt = bot.callsOf("sendMessage", OWNER).find((c) =>
        c.body.reply_markup !== undefined
      )!.at;
      const lines = seenText(bot, ask.messageId).split("\n");
      assert.match(lines[0]!, SENTENCE);
      assert.equal(lines[1], "to: friend.example");
      assert.equal(lines[2], `text: ${"x".repeat(59)}…`);
      assert.match(
        lines[3]!,
        /^Waiting for your answer until \d\d:\d\d \(10 minutes\); no answer means Deny\.$/,
      );
      assert.deepEqual(buttonsOf(ask).map((row) => row.map((b) => b.text)), [
        ["Allow once", "Deny"],
        ["Allow for this session"],
        ["Details"],
      ]);
      for (const b of buttonsOf(ask).flat()) {
        assert.ok(new TextEncoder().encode(b.callback_data).length <= 64);
      }

      // A message typed meanwhile is queued and acknowledged.
      bot.pushMessage(OWNER, "and another thing");
      await bot.until(
        "the acknowledgement",
        () => seenIn(bot, OWNER).includes("Queued: I will answer this after the approval above."),
      );

      // Details shows the arguments in full, and the buttons but Details stay.
      press(bot, ask.messageId, "Details");
      await bot.until(
        "the details",
        () => seenText(bot, ask.messageId).includes("Arguments in full:"),
      );
      assert.ok(seenText(bot, ask.messageId).includes(`"text": "${LONG}"`));
      assert.deepEqual(
        buttonsOf(bot.messages.get(`${OWNER}:${ask.messageId}`)).flat().map((b) => b.text),
        ["Allow once", "Deny", "Allow for this session"],
      );

      await new Promise((r) => setTimeout(r, 300));
      press(bot, ask.messageId, "Allow once");
      await bot.until("the answer", () => seenIn(bot, OWNER).includes("All done."));
      await bot.until("the queued answer", () =>
        seenIn(bot, OWNER).includes("And the second one."));
      // No "typing" while the approval waited.
      const pressedAt = bot.callsOf("answerCallbackQuery").at(-1)!.at;
      assert.deepEqual(
        bot.callsOf("sendChatAction", OWNER).filter((c) =>
          c.at > askedAt && c.at < pressedAt
        ),
        [],
      );
      const decided = seenText(bot, ask.messageId).split("\n");
      assert.equal(decided[0], "Allowed once by you here:");
      assert.equal(decided[1], lines[0]);
      assert.equal(decided[2], "to: friend.example");
      assert.deepEqual(buttonsOf(bot.messages.get(`${OWNER}:${ask.messageId}`)), []);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger approval (en): Allow for this session runs the tool again without asking",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      replies: [TOOL, "Sent once.", TOOL, "Sent twice."],
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "send it");
      const ask = await asked(bot);
      press(bot, ask.messageId, "Allow for this session");
      await bot.until("the answer", () => seenIn(bot, OWNER).includes("Sent once."));
      assert.equal(
        seenText(bot, ask.messageId).split("\n")[0],
        "Allowed for this session by you here:",
      );
      bot.pushMessage(OWNER, "again");
      await bot.until("the second answer", () => seenIn(bot, OWNER).includes("Sent twice."));
      const questions = [...bot.messages.values()].filter((m) =>
        buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:")) ||
        m.text.includes("Allowed")
      );
      assert.equal(questions.length, 1);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger approval (tr): Turkish buttons, expiry and the Deny outcome",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      replies: ['/tool net_send {"to":"friend.example","text":"selam"}', "Gönderilmedi."],
      lang: "tr",
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "gönder");
      const ask = await asked(bot);
      const lines = seenText(bot, ask.messageId).split("\n");
      assert.match(
        lines.at(-1)!,
        /^Yanıtınız \d\d:\d\d saatine kadar bekleniyor \(10 dakika\); yanıt gelmezse reddedilir\.$/,
      );
      assert.deepEqual(buttonsOf(ask).map((row) => row.map((b) => b.text)), [
        ["Bir kez izin ver", "Reddet"],
        ["Bu oturum için izin ver"],
        ["Ayrıntılar"],
      ]);
      bot.pushMessage(OWNER, "bir şey daha");
      await bot.until(
        "the acknowledgement",
        () =>
          seenIn(bot, OWNER).includes("Sıraya alındı: yukarıdaki onaydan sonra yanıtlayacağım."),
      );
      press(bot, ask.messageId, "Reddet");
      await bot.until("the answer", () => seenIn(bot, OWNER).includes("Gönderilmedi."));
      const decided = seenText(bot, ask.messageId);
      assert.equal(decided.split("\n")[0], "Reddedildi (siz, burada), çalıştırılmadı:");
      assert.equal(decided.split("\n")[1], lines[0]);
      assert.ok(!decided.includes("çalışmıyor"), decided);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

for (const lang of ["en", "tr"] as const) {
  Deno.test({
    name: `messenger approval (${lang}): one nobody answers expires visibly and counts as Deny`,
    ...SLOW,
    async fn() {
      const bot = startBotServer();
      const { home } = await messengerHome(bot, {
        replies: ['/tool net_send {"to":"friend.example","text":"hi"}', "Not sent."],
        toml: [["approval_timeout_seconds = 600", "approval_timeout_seconds = 2"]],
        lang,
      });
      const hub = await runHubHere(home, bot);
      try {
        bot.pushMessage(OWNER, "send it");
        const ask = await asked(bot);
        assert.match(
          seenText(bot, ask.messageId),
          lang === "en" ? /\(2 seconds\); no answer means Deny\.$/ : /\(2 saniye\); yanıt gelmezse/,
        );
        await bot.until("the answer", () => seenIn(bot, OWNER).includes("Not sent."), 15_000);
        assert.equal(
          seenText(bot, ask.messageId).split("\n")[0],
          lang === "en"
            ? "No answer within 2 seconds, so it was denied and not run:"
            : "2 saniye içinde yanıt gelmedi; reddedildi ve çalıştırılmadı:",
        );
      } finally {
        await hub.stop();
        await bot.stop();
        await cleanup();
      }
    },
  });
}
