/**
 * `agent net init [--name NAME]`, `agent net publish` and `agent net add ADDRESS` for a
 * home, in the test's process: the same calls the commands make (`initIdentity()`, the
 * network state's profile, the node's `publish()` and `add()`), with the home's `.env`
 * as the command reads it. For tests where a peer only has to exist, be published or ask
 * (a spawned `net` command is a process start, ~0.6 CPU-s); the tests of the commands
 * themselves (tests/hub/cli_test.ts and the `net` CLI tests) run them.
 *
 * @module
 */
import { initIdentity, openNetwork, openState } from "@agent/hub";
import { loadConfig } from "@agent/hub/config";
import { Logger, readEnvFileSync, resolvePaths } from "@agent/hub/base";
import { until } from "./_poll.ts";

async function opened(home: string) {
  const paths = resolvePaths({ home, env: {} });
  const env = readEnvFileSync(paths.envFile);
  const config = await loadConfig(paths, { lang: "en" });
  return { paths, env, config };
}

/** `agent --home HOME net init [--name NAME]`: the identity, and the name when given. */
export async function netInitHere(home: string, name?: string): Promise<void> {
  const { paths, env, config } = await opened(home);
  await initIdentity(paths, env);
  if (name === undefined) return;
  const state = openState(config, env, paths);
  await state.setProfile({ ...await state.profile(), name });
}

async function nodeOf(home: string) {
  const { paths, env, config } = await opened(home);
  const logger = new Logger({ file: paths.logFile, stderr: "off" });
  const network = await openNetwork({ config, env, paths, logger });
  if (!network.ok) throw new Error(`${home} has no network: missing ${network.missing}`);
  return network.node;
}

/** `agent --home HOME net publish`: the card on the home's spine. */
export async function netPublishHere(home: string): Promise<void> {
  await (await nodeOf(home)).publish();
}

/** `agent --home HOME net add ADDRESS [--note NOTE]`: a contact request (or acceptance). */
export async function netAddHere(home: string, address: string, note = ""): Promise<void> {
  await (await nodeOf(home)).add(address, note);
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
