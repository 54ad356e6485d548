/**
 * The hub's services: what the hub runs for its lifetime (the network service with the
 * universe reporter, the budget watch, the job scheduler, and the channels that run
 * inside the hub, the messenger and e-mail). A service is one file with a
 * {@linkcode HubServiceFactory}, listed in {@linkcode HUB_SERVICES}; the hub starts and
 * stops it and shows its status. The shapes are in `hub/channels/contract.ts`, so a
 * channel adapter names them without importing upward.
 *
 * @module
 */
import type { HubContext, HubService, HubServiceFactory } from "../channels/contract.ts";
import { UniverseReporter } from "../network/mod.ts";

export type { HubContext, HubService, HubServiceFactory } from "../channels/contract.ts";

/**
 * The network service as a hub service, with the universe reporter: its `/status` block is
 * `net`, the reporter's is `net.universe`.
 */
function networkService(hub: HubContext): Promise<HubService> {
  const service = hub.network;
  const reporter = new UniverseReporter({ node: service.node, subs: hub.subs });
  service.universeChanged = () => reporter.refresh();
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

/** Every service the hub runs, in start order (stopped in reverse). */
export const HUB_SERVICES: readonly HubServiceFactory[] = [
  networkService,
  (hub) => import("./budget_watch.ts").then((m) => m.budgetWatchService(hub)),
  // Proposals from quiet conversations (one look a minute), when [memory] extract is on.
  (hub) => import("./memory_service.ts").then((m) => m.memoryService(hub)),
  // Scheduled jobs: idle (one look at persona/jobs/ every 15 s) until the owner adds one.
  (hub) => import("./jobs_service.ts").then((m) => m.jobsService(hub)),
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
