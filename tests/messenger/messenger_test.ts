/**
 * The messenger channel end to end: the hub talking to a local server that speaks the
 * Bot API's wire format; in this process (`runHubHere`, the agent loaded once for the
 * file), and as a real `agent hub run` process where its output is the point.
 */
import assert from "node:assert/strict";
import { Ledger } from "@agent/hub/money";
import { cleanup } from "../cli/_run.ts";
import { startBotServer } from "./_bot_server.ts";
import { messengerHome, OWNER, runHub, runHubHere, STRANGER, textsIn } from "./_hub.ts";
import { controlJson } from "../_control.ts";

const SLOW = { sanitizeOps: false, sanitizeResources: false };

function ledgerCount(home: string): number {
  const ledger = Ledger.openExisting(`${home}/data/spend.sqlite3`);
  try {
    return ledger?.count() ?? 0;
  } finally {
    ledger?.close();
  }
}

// deno-lint-ignore no-explicit-any
async function hubStatus(port: number): Promise<any> {
  return await controlJson(port, "/status");
}

async function logOf(home: string): Promise<string> {
  try {
    return await Deno.readTextFile(`${home}/data/logs/agent.log`);
  } catch {
    return "";
  }
}

Deno.test({
  name: "messenger: an allowed chat is answered, typing first, in a messenger session",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: ["Hello from your agent."] });
    const hub = await runHubHere(home, bot);
    try {
      // setMyCommands in both languages, and no webhook left behind.
      const commands = bot.callsOf("setMyCommands");
      assert.deepEqual(commands.map((c) => c.body.language_code ?? "default"), ["default", "tr"]);
      assert.deepEqual(
        (commands[0]!.body.commands as { command: string }[]).map((c) => c.command),
        [
          "start",
          "new",
          "stop",
          "resume",
          "model",
          "status",
          "settings",
          "jobs",
          "memory",
          "remember",
          "forget",
          "help",
        ],
      );
      assert.equal(bot.callsOf("deleteWebhook").length, 1);

      bot.pushMessage(OWNER, "Hi there");
      await bot.until("the answer", () => textsIn(bot, OWNER).includes("Hello from your agent."));
      const typing = bot.callsOf("sendChatAction", OWNER)[0]!;
      const first = bot.callsOf("sendMessage", OWNER)[0]!;
      assert.equal(typing.body.action, "typing");
      assert.ok(typing.at <= first.at);
      assert.equal(first.body.parse_mode, "HTML");
      const sessions = [...Deno.readDirSync(`${home}/data/sessions`)].map((e) => e.name);
      assert.ok(
        sessions.some((n) => /^messenger-\d{8}-\d{6}-[0-9a-f]{4}/.test(n)),
        sessions.join(),
      );
      using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
      assert.deepEqual(ledger.breakdown("channel", { sinceMs: 0 }).map((r) => r.channel), [
        "messenger",
      ]);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a chat that is not allowed gets nothing, costs nothing, and is logged once",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: ["Never for strangers."] });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(STRANGER, "let me in");
      bot.pushMessage(STRANGER, "please");
      bot.pushMessage(OWNER, "/help");
      await bot.until("the owner's help", () => textsIn(bot, OWNER).length === 1);
      assert.deepEqual(bot.callsOf("sendMessage", STRANGER), []);
      assert.deepEqual(bot.callsOf("sendChatAction", STRANGER), []);
      assert.equal(ledgerCount(home), 0);
      const log = await logOf(home);
      assert.equal(log.split("\n").filter((l) => l.includes(`chat ${STRANGER}`)).length, 1, log);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "messenger: /start, /help, /settings, /new, /model, /status with the Budget line, /remember and /memory",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home, port } = await messengerHome(bot);
    const hub = await runHubHere(home, bot);
    try {
      // A command sent while the one before is still being stored is queued and told so.
      const answers = () => textsIn(bot, OWNER).filter((text) => !text.startsWith("(queued"));
      for (
        const command of [
          "/start",
          "/help",
          "/settings",
          "/new",
          "/model fast",
          "/status",
          "/remember Prefers green tea",
          "/memory tea",
        ]
      ) {
        const before = answers().length;
        bot.pushMessage(OWNER, command);
        await bot.until(command, () => answers().length > before);
      }
      const [start, help, settings, fresh, model, status, remembered, recalled] = answers();
      // The owner's memory, kept from the messenger and listed there.
      assert.match(remembered!, /^Remembered as memory \d+ \(owner\)\.$/);
      assert.match(recalled!, /owner · fact · .* · Prefers green tea/);
      assert.match(start!, /^This is your agent/);
      assert.match(
        help!,
        /^Commands:\n {2}\/start · what this is\n {2}\/new · start a new conversation/,
      );
      assert.match(settings!, /^Credentials \(values are never shown\):\n/);
      assert.match(settings!, /\nKeys are set on the machine, not here: /);
      assert.match(fresh!, /^New conversation messenger-\d{8}-\d{6}-[0-9a-f]{4}\.$/);
      assert.match(model!, /^Role fast/);
      const lines = status!.split("\n");
      assert.match(lines[0]!, /^Session messenger-.* · role fast \(fake fake-fast\)/);
      assert.match(lines[1]!, /^Budget: brain \$0\.00 of \$15\.00 this month/);
      assert.match(lines[2]!, /^Forecast: /);
      // The hub's /status has the messenger block, without the token.
      const body = await hubStatus(port);
      assert.equal(body.messenger.state, "polling");
      assert.equal(body.messenger.allowed_chats, 1);
      assert.match(body.messenger.last_update_at, /^\d{4}-\d\d-\d\dT/);
      assert.ok(!JSON.stringify(body).includes(bot.token));
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a 5,000-character answer arrives as two messages split at a paragraph",
  ...SLOW,
  async fn() {
    const para = (c: string) => `${c.repeat(60)} `.repeat(40).trim();
    const long = [para("a"), para("b")].join("\n\n");
    assert.ok(long.length > 4096 && long.length < 5100);
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: [long] });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "write a lot");
      await bot.until("both parts", () =>
        textsIn(bot, OWNER).length === 2 &&
        textsIn(bot, OWNER)[1] === para("b"), 15_000);
      assert.equal(textsIn(bot, OWNER)[0], para("a"));
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: text is HTML-escaped, and sent again as plain text when entities are refused",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      replies: ["1 < 2 & <b>not bold</b>", "Plain now."],
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.pushMessage(OWNER, "escape");
      await bot.until(
        "the escaped answer",
        () => textsIn(bot, OWNER).includes("1 &lt; 2 &amp; &lt;b&gt;not bold&lt;/b&gt;"),
      );
      bot.refuseEntities = true;
      bot.pushMessage(OWNER, "again");
      await bot.until("the plain answer", () => textsIn(bot, OWNER).includes("Plain now."));
      const last = [...bot.messages.values()].find((m) => m.text === "Plain now.")!;
      assert.equal(last.parseMode, undefined);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a 429 on an edit is waited out for its retry_after, then the edit goes",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, {
      replies: ["Streaming in several words now, slowly."],
      wordMs: 40,
    });
    const hub = await runHubHere(home, bot);
    try {
      bot.fail("editMessageText", {
        code: 429,
        description: "Too Many Requests: retry after 2",
        retryAfter: 2,
      });
      bot.pushMessage(OWNER, "go");
      await bot.until(
        "the whole answer",
        () => textsIn(bot, OWNER).includes("Streaming in several words now, slowly."),
        15_000,
      );
      const edits = bot.callsOf("editMessageText", OWNER);
      assert.equal(edits.length, 2, "the refused edit and its one retry");
      assert.ok(
        edits[1]!.at - edits[0]!.at >= 1_950,
        `retried after ${edits[1]!.at - edits[0]!.at} ms`,
      );
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: a 409 conflict shows in /status and is retried with backoff",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home, port } = await messengerHome(bot);
    const hub = await runHubHere(home, bot);
    try {
      bot.fail("getUpdates", {
        code: 409,
        description:
          "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
        times: 2,
      });
      // The poll in flight returns, then the next two fail.
      bot.pushMessage(OWNER, "/help");
      await bot.until(
        "two conflicts",
        () => bot.calls.filter((c) => c.method === "getUpdates").length >= 3,
        15_000,
      );
      const body = await hubStatus(port);
      assert.equal(body.messenger.state, "conflict");
      assert.match(
        body.messenger.last_error,
        /another process polls this bot token \(409 Conflict\)/,
      );
      assert.match(body.messenger.retry_at, /^\d{4}-/);
    } finally {
      await hub.stop();
      await bot.stop();
      await cleanup();
    }
  },
});

Deno.test({
  name: "messenger: the token is in no log line and no output",
  ...SLOW,
  async fn() {
    const bot = startBotServer();
    const { home } = await messengerHome(bot, { replies: ["Fine."] });
    const hub = await runHub(home, bot);
    let out = { stdout: "", stderr: "" };
    try {
      // Errors with the request URL in them: a refused method and a network failure.
      bot.fail("sendMessage", { code: 500, description: "Internal Server Error" });
      bot.pushMessage(OWNER, "hello");
      await bot.until("the answer", () => textsIn(bot, OWNER).includes("Fine."), 15_000);
    } finally {
      out = await hub.stop();
      await bot.stop();
    }
    try {
      const log = await logOf(home);
      assert.match(log, /messenger: /);
      for (const text of [log, out.stdout, out.stderr]) {
        assert.ok(!text.includes(bot.token), text);
        assert.ok(!text.includes(bot.token.split(":")[1]!), text);
        assert.ok(!text.includes("DeprecationWarning"), text);
      }
    } finally {
      await cleanup();
    }
  },
});
