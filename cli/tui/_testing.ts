// Shared helpers for this folder's tests: a fake-model home, and the TUI's controller
// over a desk on it (with the app's commands), its clock in the test's hands.
import { type Lang, resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import {
  appCommands,
  Desk,
  enabledTools,
  Ledger,
  loadComponents,
  Logger,
  setupHome,
} from "@agent/hub";
import { TuiController } from "./controller.ts";
import { hubWatch } from "./hub_watch.ts";

/** Lets Ink draw. */
export const tick = (): Promise<unknown> => new Promise((r) => setTimeout(r, 30));

/** A set-up home answering `replies`; `using` removes it. */
export async function fakeHome(replies: string[], lang: Lang = "en") {
  const home = await Deno.makeTempDir({ prefix: "tui_test_" });
  const paths = resolvePaths({ home, env: {} });
  await setupHome(paths, { provider: "fake", language: lang, env: {} });
  const toml = await Deno.readTextFile(paths.configFile);
  await Deno.writeTextFile(
    paths.configFile,
    toml.replace(
      'model_id = "fake-brain"\n',
      `model_id = "fake-brain"\nparams = { replies = ${JSON.stringify(replies)} }\n`,
    ),
  );
  const config = await loadConfig(paths, { lang });
  const remove = () => Deno.removeSync(home, { recursive: true });
  return { home, paths, config, [Symbol.dispose]: remove };
}

/** Options for {@linkcode controllerFor}. */
export interface ControllerForOptions {
  /** @default "en" */
  lang?: Lang;
  /** The hub's control port the status bar asks. @default 1 (none there) */
  hubPort?: number;
}

/**
 * The TUI's controller over the `tui` conversation of a desk on a fake home; its clock
 * moves only with `advance()`. `await using` stops it and removes everything.
 */
export async function controllerFor(replies: string[], options: ControllerForOptions = {}) {
  const lang = options.lang ?? "en";
  const { home, paths, config, [Symbol.dispose]: remove } = await fakeHome(replies, lang);
  const ledger = Ledger.open(paths.ledgerFile);
  const desk = new Desk({
    config,
    env: {},
    paths,
    lang,
    logger: new Logger({ stderr: "off" }),
    ledger,
    tools: await enabledTools(await loadComponents(config, paths)),
    commands: appCommands(),
  });
  const conversation = await desk.open("tui");
  const hub = hubWatch({ port: options.hubPort ?? 1, config, env: {}, paths });
  let now = 1_000;
  const controller = new TuiController({ conversation, lang, hub, clock: () => now });
  return {
    home,
    paths,
    desk,
    conversation,
    controller,
    chat: { ledger, desk },
    /** Moves the controller's clock. */
    advance(ms: number) {
      now += ms;
    },
    [Symbol.dispose]: remove,
    async [Symbol.asyncDispose]() {
      controller.stop();
      await desk.close();
      ledger.close();
      remove();
    },
  };
}
