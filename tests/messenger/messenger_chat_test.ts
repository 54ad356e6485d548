/**
 * What a person meets in the chat, in English and Turkish: a long first message kept
 * as the session's title (cut with "…"), `/settings` without literal backticks,
 * `/resume` with a button per session, a peer's note cut with "…" and its control
 * characters shown as spaces, a failover told once, a photo's caption answered, the
 * messenger's line in `agent hub status`, and `agent doctor` refusing a chat id `abc`.
 */
import assert from "node:assert/strict";
import { RUN_FLAGS } from "../_agent_flags.ts";
import { agent, cleanup } from "../cli/_run.ts";
import { startBotServer } from "./_bot_server.ts";
import { buttonsOf, messengerHome, OWNER, runHubHere, seenIn, textsIn } from "./_hub.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };
const APPEND = new URL("../hub/_append_event.ts", import.meta.url).pathname;

/** Sends `text` and waits for the next message in the chat (past a "queued" one). */
async function ask(bot: ReturnType<typeof startBotServer>, text: string): Promise<string> {
  const before = seenIn(bot, OWNER).length;
  const answer = () => seenIn(bot, OWNER).slice(before).find((t) => !/^\((queued|sıraya)/.test(t));
  bot.pushMessage(OWNER, text);
  await bot.until(text, () => answer() !== undefined);
  return answer()!;
}

const FIRST =
  "Hi there, could you plan a week in Istanbul for my family of four, with museums and food?";

for (const lang of ["en", "tr"] as const) {
  Deno.test({
    name: `messenger (${lang}): the session title keeps a long first message; /resume has buttons`,
    ...SLOW,
    async fn() {
      const bot = startBotServer();
      const { home } = await messengerHome(bot, { replies: ["Gladly."], lang });
      const hub = await runHubHere(home, bot);
      try {
        bot.pushMessage(OWNER, FIRST);
        await bot.until("the answer", () => seenIn(bot, OWNER).includes("Gladly."));
        await ask(bot, "/new");
        const list = await ask(bot, "/resume");
        const title = `${FIRST.slice(0, 59)}…`;
        assert.match(list, new RegExp(lang === "en" ? "^Recent sessions:" : "^Son oturumlar:"));
        assert.ok(list.includes(title), list);
        const message = [...bot.messages.values()].at(-1)!;
        const buttons = buttonsOf(message).flat();
        assert.equal(buttons.length, 1);
        // The title (cut), how many messages and when, whole on the button.
        assert.equal(
          buttons[0]!.text.replace(/\d\d:\d\d$/, "HH:MM"),
          lang === "en"
            ? "Hi there, could you plan… · 2 messages · today HH:MM"
            : "Hi there, could you plan… · 2 mesaj · bugün HH:MM",
        );
        const before = seenIn(bot, OWNER).length;
        bot.pushPress(OWNER, message.messageId, buttons[0]!.callback_data);
        await bot.until("the resumed session", () => seenIn(bot, OWNER).length >= before + 2);
        assert.match(
          seenIn(bot, OWNER)[before]!,
          lang === "en"
            ? /^Session messenger-\S+ \(2 messages\)\.$/
            : /^messenger-\S+ oturumu \(2 mesaj\)\.$/,
        );
        assert.equal(
          seenIn(bot, OWNER)[before + 1],
          lang === "en"
            ? `Earlier in this session:\n› ${FIRST}\nGladly.`
            : `Bu oturumda daha önce:\n› ${FIRST}\nGladly.`,
        );

        const settings = await ask(bot, "/settings");
        assert.ok(!settings.includes("`"), settings);
        assert.ok(settings.includes("agent tui"), settings);
        assert.ok(textsIn(bot, OWNER).some((t) => t.includes("<code>agent tui</code>")));
      } finally {
        await hub.stop();
        await bot.stop();
        await cleanup();
      }
    },
  });

  Deno.test({
    name:
      `messenger (${lang}): a peer's note is cut with "…" and its control characters are spaces`,
    ...SLOW,
    async fn() {
      const bot = startBotServer();
      const { home } = await messengerHome(bot, { lang });
      const hub = await runHubHere(home, bot);
      try {
        const note = `Hello\x1b[2J friend\u202e, ${"long note ".repeat(80)}`;
        for (
          const event of [
            { type: "net.contact_request", address: "bob.example", name: "Bob\x07", text: note },
            {
              type: "net.outbox_dropped",
              address: "bob.example",
              id: "e1",
              text: "bye\x1b[0m now",
            },
          ]
        ) {
          const out = await new Deno.Command(Deno.execPath(), {
            args: [
              "run",
              "--quiet",
              ...RUN_FLAGS,
              APPEND,
              `${home}/data/net`,
              JSON.stringify({ ts: Math.floor(Date.now() / 1000), ...event }),
            ],
            stdout: "null",
            stderr: "piped",
          }).output();
          assert.ok(out.success, new TextDecoder().decode(out.stderr));
        }
        await bot.until("both events", () => seenIn(bot, OWNER).length >= 2, 15_000);
        const [request, dropped] = seenIn(bot, OWNER);
        assert.ok(
          request!.startsWith(
            lang === "en"
              ? "Bob  (bob.example) asks to become a contact:\n“Hello [2J friend , long note"
              : "Bob  (bob.example) kişi olmak istiyor:\n“Hello [2J friend , long note",
          ),
          request,
        );
        assert.ok(request!.endsWith("…”"), request);
        assert.ok(!/\\x|\\u/.test(request!), request);
        assert.match(dropped!, /: bye \[0m now$/);
        assert.deepEqual(
          buttonsOf([...bot.messages.values()][0]).flat().map((b) => b.text),
          lang === "en" ? ["Accept", "Block"] : ["Kabul et", "Engelle"],
        );
      } finally {
        await hub.stop();
        await bot.stop();
        await cleanup();
      }
    },
  });

  Deno.test({
    name: `messenger (${lang}): a photo's caption is answered; a photo without one is told why not`,
    ...SLOW,
    async fn() {
      const bot = startBotServer();
      const { home } = await messengerHome(bot, { replies: ["A cat, it seems."], lang });
      const hub = await runHubHere(home, bot);
      try {
        bot.pushPhoto(OWNER, "What is in this photo?");
        await bot.until("the answer", () => seenIn(bot, OWNER).includes("A cat, it seems."));
        bot.pushPhoto(OWNER);
        await bot.until("the sentence", () => seenIn(bot, OWNER).length === 2);
        assert.equal(
          seenIn(bot, OWNER)[1],
          lang === "en"
            ? "Only text messages reach the agent; a photo with a caption is answered by its caption."
            : "Ajana yalnızca metin mesajları ulaşır; açıklaması olan bir fotoğraf, açıklamasıyla yanıtlanır.",
        );
        // `agent hub status` has the messenger's line. It reads it from the control API,
        // which it waits a second for: asked again while a loaded machine keeps this
        // process's hub from answering in time (a run beside a busy loop: "no answer").
        const status = await until("`agent hub status` with the control API's answer", async () => {
          const r = await agent(["--home", home, "--lang", lang, "hub", "status"]);
          return !/no answer on|üzerinde yanıt yok/.test(r.stdout) && r;
        }, { intervalMs: 200 });
        assert.equal(status.code, 0, status.stderr);
        assert.match(
          status.stdout,
          lang === "en"
            ? /\nmessenger: connected \(polling\); last update \d\d\.\d\d\.\d{4} \d\d:\d\d; last error: none\n/
            : /\nmesajlaşma: bağlı \(polling\); son güncelleme \d\d\.\d\d\.\d{4} \d\d:\d\d; son hata: yok\n/,
        );
      } finally {
        await hub.stop();
        await bot.stop();
        await cleanup();
      }
    },
  });

  Deno.test({
    name: `agent doctor (${lang}) refuses an allowed chat id that is not a number`,
    ...SLOW,
    async fn() {
      const bot = startBotServer();
      const { home } = await messengerHome(bot, {
        env: { MESSENGER_ALLOWED_CHAT_IDS: "abc" },
        lang,
      });
      try {
        const r = await agent(["--home", home, "--lang", lang, "doctor"]);
        assert.match(
          r.stdout,
          lang === "en"
            ? /MESSENGER_ALLOWED_CHAT_IDS has 'abc', which is not a chat id: a chat id is a whole number such as 123456789/
            : /MESSENGER_ALLOWED_CHAT_IDS içindeki 'abc' bir sohbet kimliği değil/,
        );
        assert.notEqual(r.code, 0);
      } finally {
        await bot.stop();
        await cleanup();
      }
    },
  });
}

Deno.test({
  name: "messenger: a failover is told once, in the answer, not again as an event",
  ...SLOW,
  async fn() {
    const port = freePort();
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      toml: [[
        '[models.roles.brain]\nprovider = "fake"\nmodel_id = "fake-brain"\n',
        `[models.roles.brain]\nprovider = "local-runtime"\nmodel_id = "llama3.2"\nfailover = "fast"\nparams = { base_url = "http://127.0.0.1:${port}" }\n`,
      ]],
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "Hi");
      await bot.until(
        "the answer",
        () => seenIn(bot, OWNER).some((t) => t.includes("fast answered instead")),
        20_000,
      );
      // The event reaches the relay too; give it time to (not) be told.
      await new Promise((r) => setTimeout(r, 2_000));
      const texts = seenIn(bot, OWNER);
      assert.equal(texts.filter((t) => /brain/.test(t)).length, 1, texts.join("\n---\n"));
      const events = await Deno.readTextFile(`${home}/data/net/events.jsonl`);
      assert.match(events, /"model\.failover"/);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});
