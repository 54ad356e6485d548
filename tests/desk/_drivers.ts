/**
 * The three channels driven the way a person uses them, for the desk suite: terminal
 * chat (its real adapter, `runChat`, with a scripted terminal), the TUI (its
 * controller, as the screen drives it) and the messenger (the hub in the test's process,
 * as `agent hub run` assembles it, and the loopback Bot API server, presses and all). Each driver sends lines,
 * answers approvals, cancels, and reads back what the person saw.
 *
 * @module
 */
import {
  ANSWER_AFTER_MS,
  appCommands,
  Desk,
  enabledTools,
  FileSessionStore,
  Ledger,
  loadComponents,
  Logger,
  MAIN_AGENT_ID,
  runChat,
  setupHome,
  type TerminalHandlers,
} from "@agent/hub";
import type { ChatInput } from "@agent/hub";
import { resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import { hubWatch, TuiController } from "@agent/cli/tui";
import { startBotServer } from "../messenger/_bot_server.ts";
import { buttonsOf, messengerHome, OWNER, runHubHere, seenIn } from "../messenger/_hub.ts";
import { cleanup } from "../cli/_run.ts";
import { until, UNTIL_TIMEOUT_MS } from "../_poll.ts";

/** What every channel is set up with. */
export interface Setup {
  replies: string[];
  /** Milliseconds between streamed words. */
  wordMs: number;
  approvalTimeoutSeconds: number;
  /** USD already spent by `brain` (of its $15 a month) before the first message. */
  spentUsd: number;
  /** The hub's control port in agent.toml. @default the shipped one */
  hubPort?: number;
}

/** How a channel words what every channel tells (each in its own sentences). */
export interface Words {
  /** A line waits behind the running answer. @default `(queued` */
  queued: RegExp;
  /** An answer was cancelled. @default `(answer cancelled)` */
  cancelled: RegExp;
  /** An approval nobody answered was denied. */
  expired: RegExp;
}

/** The desk's own sentences, which chat, the TUI and the messenger show. */
export const DESK_WORDS: Words = {
  queued: /\(queued/,
  cancelled: /\(answer cancelled\)/,
  expired:
    /No answer in time: write_note was denied\.|No answer within 2 seconds, so it was denied and not run:\nThe agent wants to save the note “c”/,
};

/** A channel as a person uses it. */
export interface Driver {
  readonly name: string;
  /** How it words queued lines, cancels and expiries. @default {@linkcode DESK_WORDS} */
  readonly words?: Words;
  /** Whether `/resume` draws the session's history again. @default true */
  readonly drawsHistory?: boolean;
  readonly home: string;
  /** Types a line and sends it. */
  send(text: string): Promise<void>;
  /** Waits until what the channel shows matches. */
  until(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  /** Answers the approval the channel shows. */
  approve(yes: boolean): Promise<void>;
  /** Stops the answer being written, the channel's way (Ctrl-C, `/stop`). */
  cancel(): Promise<void>;
  /** Everything the channel showed, as text. */
  shown(): string;
  /** The session the conversation is on. */
  sessionId(): Promise<string>;
  /** Ends the channel and what it started; the home stays for checks. */
  close(): Promise<void>;
}

/** The texts of the messages of `sessionId` in `home`, in order. */
export async function sessionTexts(home: string, sessionId: string): Promise<string[]> {
  const store = new FileSessionStore(`${home}/data/sessions`);
  const stored = (await store.listMessages(sessionId, MAIN_AGENT_ID)) ?? [];
  return stored.map((m) => {
    const content = (m as { message: { content: unknown } }).message.content;
    return typeof content === "string"
      ? content
      : (content as { type: string; text?: string }[]).map((p) => p.text ?? "").join("");
  }).filter((text) => text.trim() !== "");
}

/** How many calls the ledger of `home` holds. */
export function ledgerCalls(home: string): number {
  const ledger = Ledger.openExisting(`${home}/data/spend.sqlite3`);
  try {
    return ledger?.count() ?? 0;
  } finally {
    ledger?.close();
  }
}

/** A fresh home with the fake provider, set up as `setup` says. */
export async function fakeHome(setup: Setup): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "agent-desk-suite-" });
  const paths = resolvePaths({ home, env: {} });
  await setupHome(paths, { provider: "fake", language: "en", env: {} });
  await configure(home, setup);
  return home;
}

/** Writes the setup into the home's agent.toml and ledger. */
async function configure(home: string, setup: Setup): Promise<void> {
  const file = `${home}/agent.toml`;
  const toml = (await Deno.readTextFile(file))
    .replace(
      'model_id = "fake-brain"\n',
      `model_id = "fake-brain"\nparams = { word_ms = ${setup.wordMs}, replies = ${
        JSON.stringify(setup.replies)
      } }\n`,
    )
    .replace(
      "approval_timeout_seconds = 600",
      `approval_timeout_seconds = ${setup.approvalTimeoutSeconds}`,
    )
    .replace(/^port = \d+$/m, (line) => setup.hubPort ? `port = ${setup.hubPort}` : line);
  await Deno.writeTextFile(file, toml);
  if (setup.spentUsd > 0) {
    await Deno.mkdir(`${home}/data`, { recursive: true });
    const ledger = Ledger.open(`${home}/data/spend.sqlite3`);
    ledger.record({
      ts: Date.now(),
      role: "brain",
      provider: "fake",
      model_id: "fake-brain",
      input_tokens: 1,
      output_tokens: 1,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      usd: setup.spentUsd,
      channel: "cli",
      session_id: null,
      peer: null,
    });
    ledger.close();
  }
}

/** A test of shown text: a substring or a pattern. */
export function matcher(pattern: RegExp | string): (text: string) => boolean {
  return typeof pattern === "string"
    ? (text) => text.includes(pattern)
    : (text) => pattern.test(text);
}

/** Terminal chat: `runChat` with a terminal whose keys the test types. */
export async function chatDriver(setup: Setup): Promise<Driver> {
  const home = await fakeHome(setup);
  const paths = resolvePaths({ home, env: {} });
  const config = await loadConfig(paths, { lang: "en" });
  let out = "";
  let handlers: TerminalHandlers | undefined;
  // When the approval's question became the prompt (it is answered by a line after it).
  let questionAt: number | undefined;
  const input: ChatInput = {
    interactive: true,
    readLine: () => Promise.resolve(null),
    listen(h) {
      handlers = h;
    },
    prompt(text) {
      out += text;
      questionAt = text.endsWith("[y/N] ") ? performance.now() : undefined;
    },
    confirm: () => Promise.resolve(false),
    secret: () => Promise.resolve(null),
    onInterrupt: () => () => {},
    close() {},
  };
  const ledger = () => Ledger.open(paths.ledgerFile);
  let sessionId = "";
  const exit = runChat({
    config,
    env: {},
    paths,
    lang: "en",
    profile: "home",
    logger: new Logger({ stderr: "off" }),
    input,
    write: (text) => {
      out += text;
      sessionId ||= /session (chat-[\w-]+)/.exec(out)?.[1] ?? "";
    },
    openLedger: ledger,
    tools: async () => enabledTools(await loadComponents(config, paths)),
  });
  await until("the chat's header", () => handlers && sessionId ? "ok" : undefined);
  return {
    name: "chat",
    home,
    send(text) {
      out += `${text}\n`;
      handlers!.line(text);
      return Promise.resolve();
    },
    until(pattern, timeoutMs = UNTIL_TIMEOUT_MS) {
      const test = matcher(pattern);
      return until(`${pattern} in chat`, () => test(out) ? out : undefined, { timeoutMs });
    },
    async approve(yes) {
      await until("the y/N question", () => questionAt !== undefined);
      // A line in the first 500 ms after the question is not its answer.
      const wait = questionAt! + ANSWER_AFTER_MS + 20 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      out += `${yes ? "y" : "n"}\n`;
      handlers!.line(yes ? "y" : "n");
    },
    cancel() {
      handlers!.interrupt();
      return Promise.resolve();
    },
    shown: () => out,
    sessionId: () => {
      const changed = [...out.matchAll(/(?:Session|New conversation) (chat-[\w-]+)/g)].pop();
      return Promise.resolve(changed?.[1] ?? sessionId);
    },
    async close() {
      handlers!.end();
      await exit;
    },
  };
}

/** The TUI: its controller over a desk, as the chat screen drives it. */
export async function tuiDriver(
  setup: Setup,
  options: { start?: boolean } = {},
): Promise<Driver> {
  const home = await fakeHome(setup);
  const paths = resolvePaths({ home, env: {} });
  const config = await loadConfig(paths, { lang: "en" });
  const ledger = Ledger.open(paths.ledgerFile);
  const desk = new Desk({
    config,
    env: {},
    paths,
    lang: "en",
    logger: new Logger({ stderr: "off" }),
    ledger,
    tools: await enabledTools(await loadComponents(config, paths)),
    commands: appCommands(),
  });
  const conversation = await desk.open("tui");
  const controller = new TuiController({
    conversation,
    lang: "en",
    hub: hubWatch({ port: setup.hubPort ?? 1, config, env: {}, paths }),
  });
  // As the TUI does once its screen is up: the status bar and the hub's events.
  if (options.start) controller.start();
  // What the screen shows: the transcript, the answer streaming, the queue, the approval.
  const shown = () => {
    const s = controller.getState();
    return [
      ...s.entries.map((e) => (e.kind === "user" ? `› ${e.text}` : e.text)),
      ...(s.streaming !== undefined ? [s.streaming] : []),
      ...s.queued.map((text) => `(queued) ${text}`),
      ...(s.approval ? [`${s.approval.message}\n${s.approval.summary}`] : []),
    ].join("\n");
  };
  return {
    name: "tui",
    home,
    send(text) {
      void controller.submit(text);
      return Promise.resolve();
    },
    until(pattern, timeoutMs = UNTIL_TIMEOUT_MS) {
      const test = matcher(pattern);
      return until(`${pattern} in the TUI`, () => {
        const text = shown();
        return test(text) ? text : undefined;
      }, { timeoutMs });
    },
    async approve(yes) {
      // The deliberate key, once the approval has been up for 500 ms.
      await until("the approval", () => controller.approvalReady());
      if (!controller.answer(yes ? "once" : "deny")) throw new Error("the approval took no key");
    },
    cancel() {
      controller.interrupt();
      return Promise.resolve();
    },
    shown,
    sessionId: () => Promise.resolve(conversation.sessionId),
    async close() {
      controller.stop();
      await desk.close();
      ledger.close();
    },
  };
}

/** The messenger: the hub and the loopback Bot API server. */
export async function messengerDriver(setup: Setup): Promise<Driver> {
  const bot = startBotServer();
  const { home } = await messengerHome(bot);
  await configure(home, setup);
  const hub = await runHubHere(home, bot);
  const shown = () => seenIn(bot, OWNER).join("\n");
  return {
    name: "messenger",
    home,
    send(text) {
      bot.pushMessage(OWNER, text);
      return Promise.resolve();
    },
    async until(pattern, timeoutMs = UNTIL_TIMEOUT_MS) {
      const test = matcher(pattern);
      await bot.until(`${pattern} in the messenger`, () => test(shown()), timeoutMs)
        .catch((error) => {
          throw new Error(`${error.message}; it shows:\n${shown()}`);
        });
      return shown();
    },
    async approve(yes) {
      await bot.until("the approval's buttons", () => open() !== undefined, 10_000);
      const ask = open()!;
      // The first row: Allow once, Deny.
      const buttons = buttonsOf(ask)[0]!;
      bot.pushPress(OWNER, ask.messageId, buttons[yes ? 0 : 1]!.callback_data);
    },
    cancel() {
      bot.pushMessage(OWNER, "/stop");
      return Promise.resolve();
    },
    shown,
    async sessionId() {
      const book = JSON.parse(await Deno.readTextFile(`${home}/data/conversations.json`));
      return book.conversations[`messenger:${OWNER}`].session_id;
    },
    async close() {
      await hub.stop();
      await bot.stop();
    },
  };

  function open() {
    // The approval still open: its message has the approval's buttons.
    return [...bot.messages.values()].find((m) =>
      m.chatId === OWNER && buttonsOf(m).flat().some((b) => b.callback_data.startsWith("ap:"))
    );
  }
}

/** Removes what the drivers made. */
export async function removeHome(home: string): Promise<void> {
  await Deno.remove(home, { recursive: true }).catch(() => {});
  await cleanup();
}
