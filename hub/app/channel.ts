/**
 * Channels: what the hub runs for its lifetime so that people and other agents reach
 * the agent (the network service today; the messenger, the TUI's link and the
 * universe reporter next). A channel is one file with a {@linkcode HubChannelFactory},
 * listed in {@linkcode HUB_CHANNELS}; the hub starts and stops it and shows its status.
 *
 * @module
 */
import type { HubChannel, HubChannelFactory, HubContext } from "./channel_types.ts";
import { UniverseReporter } from "../network/mod.ts";

export type { HubChannel, HubChannelFactory, HubContext } from "./channel_types.ts";

/**
 * The network service as a channel, with the universe reporter: its `/status` block is
 * `net`, the reporter's is `net.universe`.
 */
function networkChannel(hub: HubContext): Promise<HubChannel> {
  const service = hub.network;
  const reporter = new UniverseReporter({ node: service.node, subs: hub.subs });
  return Promise.resolve({
    name: service.name,
    statusKey: "net",
    start: () => {
      service.start();
      reporter.start();
    },
    stop: async () => {
      await reporter.stop();
      await service.stop();
    },
    status: () => ({ ...service.status(), universe: reporter.status() }),
  });
}

/** Every channel the hub runs, in start order (stopped in reverse). */
export const HUB_CHANNELS: readonly HubChannelFactory[] = [
  networkChannel,
  (hub) => import("./budget_watch.ts").then((m) => m.budgetWatchChannel(hub)),
  // Scheduled jobs: idle (one look at persona/jobs/ every 15 s) until the owner adds one.
  (hub) => import("./jobs_channel.ts").then((m) => m.jobsChannel(hub)),
  // Loaded only with a token: grammY is not needed otherwise.
  (hub) =>
    hub.env.MESSENGER_BOT_TOKEN?.trim()
      ? import("../channels/messenger/mod.ts").then((m) => m.messengerChannel(hub))
      : Promise.resolve(undefined),
  // Loaded only with [email]: the IMAP, SMTP and MIME packages are not needed otherwise.
  (hub) =>
    hub.config.email !== undefined
      ? import("../channels/email/mod.ts").then((m) => m.emailChannel(hub))
      : Promise.resolve(undefined),
];
