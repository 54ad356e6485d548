/**
 * The hub tells the owner when a role's model could not be reached and its failover
 * answered: a `model.failover` agent event (which the messenger shows), once per role
 * and Istanbul day, remembered in the ledger so a restart does not tell it again.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { FailoverEvent } from "../router/mod.ts";
import type { Lang } from "../i18n.ts";
import type { Logger } from "../log.ts";
import { dayStart, type Ledger } from "../ledger/mod.ts";
import { type EventSaid, eventSentence, type OwnerEventSink, saidText } from "../events/mod.ts";

/** Options for {@linkcode failoverTeller}. */
export interface FailoverTellerOptions {
  ledger: Ledger | undefined;
  /** Where the event goes (the hub's bus). */
  events: OwnerEventSink;
  lang: Lang;
  logger: Logger;
  /** @default Date.now */
  now?: () => number;
}

/** The router's `onFailover`: appends the event the first time a role fails over each day. */
export function failoverTeller(options: FailoverTellerOptions): (event: FailoverEvent) => void {
  const now = options.now ?? Date.now;
  return (event) => {
    const at = now();
    try {
      if (options.ledger?.claimWarning(`hub-failover:${event.role}`, dayStart(at), at) !== true) {
        return;
      }
    } catch {
      return;
    }
    const said: EventSaid = {
      code: "events.failover",
      vars: { role: event.role, reason: event.reason, stand_in: event.standIn },
    };
    options.events.publish({
      ts: Math.floor(at / 1000),
      type: "model.failover",
      role: event.role,
      stand_in: event.standIn,
      text: saidText(options.lang, said, { events: eventSentence })!,
      said,
    }).catch((error) =>
      options.logger.warn(`hub: cannot record a failover: ${errorMessage(error)}`)
    );
  };
}
