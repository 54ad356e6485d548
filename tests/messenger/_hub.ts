/**
 * A home whose hub runs the messenger against the local Bot API server, as a real
 * `agent hub run` process.
 *
 * @module
 */
import { withReplies } from "../cli/_run.ts";
import type { BotServer } from "./_bot_server.ts";
import { visibleText } from "./_bot_html.ts";
import { freePort } from "../_port.ts";
import { HUB_START_MS, spawnHubProcess } from "../_hub_process.ts";
import { startHomeHub } from "../_home_hub.ts";
import { fakeInitHome } from "../_init_home.ts";

/** The allowed chat of every test. */
export const OWNER = 5551234;
/** A chat that is not allowed. */
export const STRANGER = 7770001;

/** Options for {@linkcode messengerHome}. */
export interface MessengerHomeOptions {
  /** The fake brain's replies, in turn. */
  replies?: string[];
  /** Extra `.env` lines. */
  env?: Record<string, string>;
  /** Text replacing parts of agent.toml: [from, to] pairs. */
  toml?: [string | RegExp, string][];
  lang?: "en" | "tr";
  /** Milliseconds between the fake brain's streamed words (needs `replies`). */
  wordMs?: number;
}

/** A fresh fake-provider home wired to `bot`; returns the home and the control port. */
export async function messengerHome(
  bot: BotServer,
  options: MessengerHomeOptions = {},
): Promise<{ home: string; port: number }> {
  const home = await fakeInitHome();
  const port = freePort();
  let toml = await Deno.readTextFile(`${home}/agent.toml`);
  toml = toml.replace(/^port = \d+$/m, `port = ${port}`);
  if (options.replies) toml = withReplies(toml, options.replies);
  if (options.replies && options.wordMs) {
    toml = toml.replace(
      /^(params = \{ replies = .*) \}$/m,
      `$1, word_ms = ${options.wordMs} }`,
    );
  }
  if (options.lang) toml = toml.replace(/^lang = "en"$/m, `lang = "${options.lang}"`);
  for (const [from, to] of options.toml ?? []) toml = toml.replace(from, to);
  await Deno.writeTextFile(`${home}/agent.toml`, toml);
  const env = {
    MESSENGER_BOT_TOKEN: bot.token,
    MESSENGER_ALLOWED_CHAT_IDS: String(OWNER),
    MESSENGER_API_ROOT: bot.apiRoot,
    ...options.env,
  };
  await Deno.writeTextFile(
    `${home}/.env`,
    Object.entries(env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n",
    { append: true, mode: 0o600 },
  );
  return { home, port };
}

/** A running hub process. */
export interface HubProcess {
  child: Deno.ChildProcess;
  /** Stops it (SIGTERM) and returns what it printed. */
  stop(): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Waits until `bot` has had more than `polls` `getUpdates` calls (a hub's messenger
 * polls); a hub that never polls is stopped with `stop` (not left running and writing
 * into its home) and the wait fails.
 */
async function untilPolled(
  bot: BotServer,
  polls: number,
  stop: () => Promise<unknown>,
): Promise<void> {
  try {
    await bot.until(
      "getUpdates from the hub",
      () => bot.callsOf("getUpdates").length > polls,
      HUB_START_MS,
    );
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `agent hub run` for `home` (with `env` besides) and waits until the messenger polls. */
export async function runHub(
  home: string,
  bot: BotServer,
  env: Record<string, string> = {},
): Promise<HubProcess> {
  const polls = bot.callsOf("getUpdates").length;
  const child = spawnHubProcess(home, { env, piped: true });
  await untilPolled(bot, polls, async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.output().catch(() => {});
  });
  let stopped: Promise<{ stdout: string; stderr: string }> | undefined;
  return {
    child,
    stop() {
      stopped ??= (async () => {
        try {
          child.kill("SIGTERM");
        } catch { /* already gone */ }
        const out = await child.output();
        const text = new TextDecoder();
        return { stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
      })();
      return stopped;
    },
  };
}

/** A hub in the test's own process. */
export interface HubHere {
  port: number;
  /** Stops it, as SIGTERM would. */
  stop(): Promise<void>;
}

/**
 * Runs `home`'s hub in this process (`_home_hub.ts`) and waits until the messenger
 * polls: for the tests of what the messenger does, where the process itself (its
 * output, signals, a kill) is not the point; those run {@linkcode runHub}. `env` goes
 * over the home's `.env` (a test clock, `AGENT_TEST_CLOCK`).
 */
export async function runHubHere(
  home: string,
  bot: BotServer,
  env: Record<string, string> = {},
): Promise<HubHere> {
  const polls = bot.callsOf("getUpdates").length;
  const hub = await startHomeHub(home, env);
  await untilPolled(bot, polls, () => hub.stop());
  return hub;
}

/**
 * The states of `home`'s contacts, read from its network store (`data/net/contacts.json`)
 * without starting a process: for waiting on a contact, after which one `agent net
 * contacts` shows what the owner sees.
 */
export async function contactStates(home: string): Promise<string[]> {
  try {
    const contacts = JSON.parse(await Deno.readTextFile(`${home}/data/net/contacts.json`));
    return (contacts as { state: string }[]).map((c) => c.state);
  } catch {
    return [];
  }
}

/** The texts the server holds for `chat`, in message order. */
export function textsIn(bot: BotServer, chat: number): string[] {
  return [...bot.messages.values()].filter((m) => m.chatId === chat)
    .sort((a, b) => a.messageId - b.messageId).map((m) => m.text);
}

/** What a person sees in `chat` (tags left out, entities read), in message order. */
export function seenIn(bot: BotServer, chat: number): string[] {
  return [...bot.messages.values()].filter((m) => m.chatId === chat)
    .sort((a, b) => a.messageId - b.messageId)
    .map((m) => m.parseMode === "HTML" ? visibleText(m.text) : m.text);
}

/** The inline buttons of a stored message, row by row. */
export function buttonsOf(
  message: { replyMarkup?: unknown } | undefined,
): { text: string; callback_data: string }[][] {
  return (message?.replyMarkup as
    | { inline_keyboard: { text: string; callback_data: string }[][] }
    | undefined)?.inline_keyboard ?? [];
}
