/**
 * `agent tui` from start to exit: the setup screen when `agent.toml` is missing, the
 * settings screen while the role lacks a key, then the chat screen. Logs go only to
 * `<AGENT_DATA_DIR>/logs/agent.log` while it runs; the terminal's alternate screen
 * keeps the shell's scrollback as it was.
 *
 * @module
 */
import { Box, type Instance, render, Text, useApp, useInput, useStdout } from "ink";
import { useEffect, useState, useSyncExternalStore } from "./react.ts";
import { type Lang, Logger, setEnvKey, testNow, UserError } from "@agent/hub/base";
import { type AgentConfig, ConfigError, loadConfig, type ShippedProvider } from "@agent/hub/config";
import { Ledger, spendReport } from "@agent/hub/money";
import type { CommandContext } from "../context.ts";
import { ChatScreen, statusBar } from "./chat_screen.tsx";
import type { StatusFacts, TuiController } from "./controller.ts";
import { type SettingLine, SettingsScreen, SetupScreen } from "./setup_screens.tsx";
import { t } from "./_messages.ts";
import { CleanOut } from "./clean_out.ts";

/** What `agent tui` was asked. */
export interface TuiOptions {
  resume?: string | true | undefined;
  profile?: string | undefined;
}

const ENTER_ALT = "\x1b[?1049h\x1b[2J\x1b[H";
const LEAVE_ALT = "\x1b[?1049l";

/** Runs the TUI; returns the exit code. */
export async function runTui(ctx: CommandContext, tui: TuiOptions): Promise<number> {
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
    throw new UserError(t(ctx.lang, "no_terminal"), 2);
  }
  // While the screen is drawn, nothing may write under it: the log file only.
  const logger = new Logger({ file: ctx.paths.logFile, stderr: "off" });
  const env = { ...ctx.env };
  const profile = tui.profile ?? ctx.profile;
  let lang = ctx.lang;
  Deno.stdout.writeSync(new TextEncoder().encode(ENTER_ALT));
  // Every screen is drawn through it: each one's first frame starts on a clean screen.
  const out = new CleanOut();
  const options = { ...RENDER_OPTIONS, stdout: out.stream };
  try {
    let config: AgentConfig;
    try {
      config = await ctx.config();
    } catch (error) {
      if (!(error instanceof ConfigError) || error.kind !== "missing") throw error;
      const choice = await setup(ctx, env, out);
      if (choice === undefined) return 2;
      lang = choice.language;
      config = await loadConfig(ctx.paths, { lang });
    }
    // The first frame is drawn from the light modules while the agent (the model SDKs)
    // loads; keys typed meanwhile are kept for the input line.
    const early: string[] = [];
    out.cleanNext();
    let frame: Instance | undefined = render(
      <Starting facts={firstFacts(config, ctx, tui)} lang={lang} typed={early} />,
      options,
    );
    const [hub, { TuiController }, { hubWatch }] = await Promise.all([
      import("@agent/hub/desk"),
      import("./controller.ts"),
      import("./hub_watch.ts"),
    ]);
    const conversation = {
      config,
      env,
      paths: ctx.paths,
      lang,
      logger,
      resume: tui.resume,
    };
    let picked;
    try {
      picked = await hub.pickSession(conversation);
    } catch (error) {
      frame.clear();
      frame.unmount();
      throw error;
    }
    if (hub.missingCredentialOf(conversation, picked.role) !== undefined) {
      frame.clear();
      frame.unmount();
      frame = undefined;
      const ready = await settingsFirst(
        ctx,
        out,
        { env, lang, load: () => hub.settingChoices(config.models.roles, env) },
        () => hub.missingCredentialOf(conversation, picked.role) === undefined,
      );
      if (!ready) return 2;
    }
    let ledger: Ledger;
    try {
      ledger = Ledger.open(ctx.paths.ledgerFile);
    } catch (error) {
      frame?.clear();
      frame?.unmount();
      if (!(error instanceof hub.LedgerError)) throw error;
      throw new UserError(hub.ledgerErrorSentence(lang, error), 1, { cause: error });
    }
    const memory = hub.openMemory(config, ctx.paths, lang, logger);
    const desk = new hub.Desk({
      config,
      env,
      paths: ctx.paths,
      lang,
      logger,
      ledger,
      tools: await hub.enabledTools(await hub.loadComponents(config, ctx.paths)),
      commands: hub.appCommands(),
      profile,
      sessions: picked.sessions,
      memory,
    });
    // `/jobs` fits its table to the screen as it is when asked (after a resize, too).
    const chat = await desk.open("tui", { picked, columns: screenColumns });
    const controller = new TuiController({
      conversation: chat,
      lang,
      hub: hubWatch({ port: config.hub.port, config, env, paths: ctx.paths }),
      // A test's clock file (AGENT_TEST_CLOCK, from a checkout only) holds the approval
      // guard's time still, so a key the test sends within a card's first 500 ms stays
      // within them however late a loaded machine delivers it.
      clock: testNow(env),
    });
    if (picked.notice) controller.say("system", picked.notice);
    if (picked.resumed) controller.showHistory(await chat.history());
    controller.start();
    // What was typed while the agent loaded: whole lines are sent in order, the rest
    // stays in the input line.
    let pending = "";
    for (const key of early.join("").replace(/\r\n?/g, "\r")) {
      pending = key === "\b" ? pending.slice(0, -1) : pending + key;
    }
    const lines = pending.split("\r");
    const rest = lines.pop() ?? "";
    void (async () => {
      for (const line of lines) await controller.submit(line);
    })();
    try {
      return await chatApp(controller, lang, ctx, { frame, typed: rest, out });
    } finally {
      controller.stop();
      await desk.close();
      memory?.close();
      ledger.close();
    }
  } finally {
    Deno.stdout.writeSync(new TextEncoder().encode(LEAVE_ALT));
  }
}

/** The setup screen; `undefined` when the owner pressed Esc. */
async function setup(
  ctx: CommandContext,
  env: Record<string, string>,
  out: CleanOut,
): Promise<{ language: Lang; provider: ShippedProvider } | undefined> {
  const { defaultProvider, SETUP_PROVIDERS, setupHome } = await import("@agent/hub/setup");
  let choice: { language: Lang; provider: ShippedProvider } | undefined;
  out.cleanNext();
  const app = render(
    <SetupScreen
      lang={ctx.lang}
      home={ctx.paths.home}
      providers={SETUP_PROVIDERS}
      env={env}
      preferred={defaultProvider(env)}
      onDone={(c) => {
        choice = c;
        app.unmount();
      }}
      onQuit={() => app.unmount()}
    />,
    { ...RENDER_OPTIONS, stdout: out.stream },
  );
  await app.waitUntilExit();
  app.clear();
  if (choice === undefined) return undefined;
  await setupHome(ctx.paths, {
    provider: choice.provider,
    language: choice.language,
    env,
    ...(ctx.profile !== "home" ? { profile: ctx.profile } : {}),
  });
  return choice;
}

/** The settings screen before the chat; `true` once `ready()` holds after a save. */
async function settingsFirst(
  ctx: CommandContext,
  out: CleanOut,
  screen: {
    env: Record<string, string>;
    lang: Lang;
    load(): readonly SettingLine[];
  },
  ready: () => boolean,
): Promise<boolean> {
  let done = false;
  out.cleanNext();
  const app = render(
    <SettingsScreen
      lang={screen.lang}
      envFile={ctx.paths.envFile}
      load={() => Promise.resolve(screen.load())}
      save={async (name, value) => {
        // No desk yet: the key is written here, and the chat opens with it.
        await setEnvKey(ctx.paths.envFile, name, value);
        screen.env[name] = value;
      }}
      back="quit"
      onSaved={() => {
        if (ready()) {
          done = true;
          app.unmount();
        }
      }}
      onBack={() => app.unmount()}
    />,
    { ...RENDER_OPTIONS, stdout: out.stream },
  );
  await app.waitUntilExit();
  app.clear();
  return done;
}

/** The chat screen until it closes (in the first frame's instance); returns its exit code. */
async function chatApp(
  controller: TuiController,
  lang: Lang,
  ctx: CommandContext,
  screen: { frame: Instance | undefined; typed: string; out: CleanOut },
): Promise<number> {
  const { frame, typed, out } = screen;
  const tree = (
    <TuiApp controller={controller} lang={lang} envFile={ctx.paths.envFile} typed={typed} />
  );
  // The first frame was drawn before the agent's modules loaded, and whatever Deno
  // printed meanwhile is on the screen: the chat is drawn in full, on a clean screen.
  frame?.clear();
  out.cleanNext();
  const app = frame ?? render(tree, { ...RENDER_OPTIONS, stdout: out.stream });
  if (frame !== undefined) frame.rerender(tree);
  // SIGTERM (a service manager, `kill`) ends the TUI within a second, whatever runs: the
  // answer is cancelled and the screen closed; if that stalls, the process leaves anyway.
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const onTerm = () => {
    controller.interrupt();
    controller.quit(143);
    if (deadline !== undefined) return;
    deadline = setTimeout(() => {
      Deno.stdout.writeSync(new TextEncoder().encode(LEAVE_ALT));
      Deno.exit(143);
    }, 800);
    Deno.unrefTimer(deadline);
  };
  Deno.addSignalListener("SIGTERM", onTerm);
  try {
    await app.waitUntilExit();
  } finally {
    Deno.removeSignalListener("SIGTERM", onTerm);
  }
  return controller.getState().exit ?? 0;
}

/** Ink's options: Ctrl-C is the TUI's own; frames up to 120 a second, changed lines only. */
const RENDER_OPTIONS = { exitOnCtrlC: false, maxFps: 120, incrementalRendering: true } as const;

/** The status bar's facts before the agent loaded: from agent.toml and the ledger alone. */
function firstFacts(config: AgentConfig, ctx: CommandContext, tui: TuiOptions): StatusFacts {
  const role = "brain" in config.models.roles ? "brain" : Object.keys(config.models.roles)[0] ?? "";
  const r = config.models.roles[role];
  let entry;
  try {
    const ledger = Ledger.openExisting(ctx.paths.ledgerFile);
    try {
      entry = spendReport(config, ledger, Date.now())[role];
    } finally {
      ledger?.close();
    }
  } catch {
    entry = undefined;
  }
  return {
    role,
    provider: r?.provider ?? "",
    model: r?.model_id ?? "",
    spentUsd: entry?.spent_usd ?? 0,
    capUsd: entry?.cap_usd ?? null,
    period: entry?.period ?? "month",
    exhausted: entry?.exhausted ?? false,
    standIn: entry?.degrade_to,
    hub: undefined,
    requests: 0,
    session: typeof tui.resume === "string" ? tui.resume : "",
  };
}

/** The first frame: the chat screen's frame, empty, while the agent loads. */
function Starting({ facts, lang, typed }: { facts: StatusFacts; lang: Lang; typed: string[] }) {
  const stdout = useStdout().stdout as unknown as TerminalOut;
  const [text, setText] = useState("");
  useInput((char, key) => {
    if (key.return) {
      typed.push("\r");
      setText("");
      return;
    }
    if (key.backspace || key.delete) {
      typed.push("\b");
      setText((v) => v.slice(0, -1));
      return;
    }
    if (key.ctrl || key.meta || char === "") return;
    typed.push(char);
    setText((v) => (v + char).split("\r").pop()!);
  });
  const width = Math.max(10, stdout.columns);
  const height = Math.max(4, stdout.rows - 1);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box height={height - 3} />
      <Text color="cyan">› {text}</Text>
      <Text inverse>{statusBar(facts, lang, width, true).padEnd(width)}</Text>
      <Text color="gray">{t(lang, "chat_hint").slice(0, width)}</Text>
    </Box>
  );
}

interface TerminalOut {
  columns: number;
  rows: number;
  on(event: "resize", listener: () => void): void;
  off(event: "resize", listener: () => void): void;
}

function TuiApp(
  { controller, lang, envFile, typed }: {
    controller: TuiController;
    lang: Lang;
    envFile: string;
    typed: string;
  },
) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const { exit } = useApp();
  // Node's WriteStream, which Deno's types call a web stream.
  const stdout = useStdout().stdout as unknown as TerminalOut;
  const [size, setSize] = useState({ columns: stdout.columns, rows: stdout.rows });
  useEffect(() => {
    const resized = () => setSize({ columns: stdout.columns, rows: stdout.rows });
    stdout.on("resize", resized);
    return () => {
      stdout.off("resize", resized);
    };
  }, [stdout]);
  useEffect(() => {
    if (state.exit !== undefined) exit();
  }, [state.exit]);
  if (state.settings) {
    return (
      <Box height={size.rows}>
        <SettingsScreen
          lang={lang}
          envFile={envFile}
          load={() => controller.settingLines()}
          save={(name, value) => controller.saveSetting(name, value)}
          back="chat"
          onSaved={() => {}}
          onBack={() => controller.closeOverlay()}
        />
      </Box>
    );
  }
  return (
    <ChatScreen
      controller={controller}
      lang={lang}
      columns={size.columns}
      rows={size.rows}
      initialInput={typed}
    />
  );
}

/** The terminal's width now; 80 when it cannot be read. */
function screenColumns(): number {
  try {
    return Math.max(10, Deno.consoleSize().columns);
  } catch {
    return 80;
  }
}
