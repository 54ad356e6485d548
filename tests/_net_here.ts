/**
 * `agent net init [--name]`, `publish`, `add`, `poll --once`, `accept` and `universe join`
 * for a home, in the test's process: the same calls the commands make
 * (`cli/commands/_net_actions.ts`: `initIdentity()`, the network state's profile, the
 * node's `publish()`, `add()` and `accept()`, a hub assembled without its services for a
 * poll; `_net_universe.ts`: `joinUniverse()`), with the home's `.env`
 * as the command reads it and the test clock it may name. For tests whose point comes
 * after these steps (a peer that only has to exist, be published, ask or be accepted): a
 * spawned `agent net` command is a process start, ~0.6 s of processor time, and a
 * handshake took eight. The tests of the commands themselves (`tests/hub/cli_test.ts` and
 * the `net` CLI tests) run them.
 *
 * @module
 */
import { type Lang, Logger, readEnvFileSync, resolvePaths } from "@agent/hub/base";
import { loadConfig } from "@agent/hub/config";
import {
  initIdentity,
  joinUniverse,
  loadSubAgentDirectory,
  type NetNode,
  openNetwork,
  openState,
  testNow,
  UniverseClient,
} from "@agent/hub/network";
import { until } from "./_poll.ts";

/**
 * A home as `agent --home <home> net …` sees it: its path, or its path and the variables
 * the test gives its `agent net` runs (the spine's URL and token) over its `.env`.
 */
export type NetHome = string | { home: string; env: Record<string, string> };

/** The run's environment, paths, config and logger, as `agent --home <home>` builds them. */
async function contextOf(at: NetHome) {
  const { home, env: given } = typeof at === "string" ? { home: at, env: {} } : at;
  const first = resolvePaths({ home, env: {} });
  const env = { ...readEnvFileSync(first.envFile), ...given };
  const paths = resolvePaths({ home, env });
  const lang: Lang = (await loadConfig(paths, { lang: "en" })).ui.lang ?? "en";
  const config = await loadConfig(paths, { lang });
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  return { home, env, paths, lang, config, logger };
}

/** `agent net init [--name <name>]`: the identity made, and the card's name when given. */
export async function netInit(at: NetHome, name?: string): Promise<void> {
  const { env, paths, config } = await contextOf(at);
  await initIdentity(paths, env);
  if (name === undefined) return;
  const state = openState(config, env, paths);
  await state.setProfile({ ...await state.profile(), name });
}

/** The home's network node, as `agent net publish`, `add` and `accept` open it. */
export async function netNode(at: NetHome): Promise<NetNode> {
  const { home, env, paths, config, logger } = await contextOf(at);
  // The clock a test may name (`AGENT_TEST_CLOCK`), as the command's netOptions() reads it.
  const now = testNow(env);
  const opened = await openNetwork({ config, env, paths, logger, ...(now ? { now } : {}) });
  if (!opened.ok) throw new Error(`${home}: the network lacks ${opened.missing}`);
  return opened.node;
}

/**
 * `agent net poll --once` with no hub running: the home's hub assembled without its
 * services polls the spine once and sends what its outbox holds.
 */
export async function netPollOnce(at: NetHome): Promise<{ handled: number; dropped: number }> {
  const { env, paths, lang, config, logger } = await contextOf(at);
  const { startHub } = await import("@agent/hub");
  const hub = await startHub({
    config,
    env,
    paths,
    lang,
    logger,
    services: [],
    node: await netNode(at),
  });
  try {
    const polled = await hub.context.network.pollOnce();
    await hub.context.network.flushOutbox();
    return polled;
  } finally {
    await hub.close();
  }
}

/** `agent net init [--name <name>]` then `agent net publish`: the card is at the spine. */
export async function netPublished(at: NetHome, name?: string): Promise<void> {
  await netInit(at, name);
  await (await netNode(at)).publish();
}

/**
 * `agent net universe join` without options: the home's card joined to (and its links
 * reported in) the universe its `[net] universe` names, as the command's `joinUniverse()`
 * does it. For tests whose point is what the universe or a hub does with a joined agent.
 */
export async function netUniverseJoin(at: NetHome): Promise<void> {
  const { config, paths } = await contextOf(at);
  const node = await netNode(at);
  const client = new UniverseClient(node, config.net.universe.trim());
  await joinUniverse(node, client, loadSubAgentDirectory(config, paths), {});
}

/**
 * Makes `a` and `b` (each with its `name`) accepted contacts of each other:
 * both publish their cards, `a` adds `b`, `b` learns it by a poll and accepts, and `a`
 * learns the answer by a poll.
 */
export async function acceptedPair(
  a: { home: string; env: Record<string, string>; name: string },
  b: { home: string; env: Record<string, string>; name: string },
): Promise<void> {
  await Promise.all([netPublished(a, a.name), netPublished(b, b.name)]);
  // A node per step, as each command opens its own.
  const [addressA, addressB] = await Promise.all([
    netNode(a).then((node) => node.address()),
    netNode(b).then((node) => node.address()),
  ]);
  await (await netNode(a)).add(addressB, "");
  await netPollOnce(b);
  await (await netNode(b)).accept(addressA);
  await netPollOnce(a);
}

/**
 * Waits until the spine at `spineUrl` serves a card: a hub publishes its own as it starts,
 * a moment after its control API answers, and an in-process `add` comes sooner than a
 * spawned `agent net add` did.
 */
export async function untilCard(spineUrl: string): Promise<void> {
  await until(`a card on ${spineUrl}`, async () => {
    const res = await fetch(`${spineUrl}/.well-known/agent.json`);
    await res.body?.cancel();
    return res.ok;
  });
}
