/**
 * The messenger channel (Telegram through grammY): {@linkcode messengerChannel} is the
 * hub's factory for it.
 *
 * @module
 */
import type { HubContext, HubService } from "../contract.ts";
import { MessengerChannel } from "./channel.ts";
import { messengerSettings } from "./settings.ts";

export { MessengerChannel } from "./channel.ts";
export type { MessengerStatus } from "./intake.ts";
export { allowedChats, messengerSettings } from "./settings.ts";
export type { MessengerSettings } from "./settings.ts";
export { escapeHtml, scrubToken, splitMessage } from "./telegram.ts";

/**
 * The messenger as a hub channel when `MESSENGER_BOT_TOKEN` is set; it needs the spend
 * ledger (budgets apply to every channel), so without one it is left out with a log line.
 */
export function messengerChannel(hub: HubContext): Promise<HubService | undefined> {
  const settings = messengerSettings(hub.config, hub.env);
  if (settings === undefined) return Promise.resolve(undefined);
  if (hub.ledger === undefined) {
    hub.logger.error("messenger: not started: the spend ledger cannot be opened");
    return Promise.resolve(undefined);
  }
  return Promise.resolve(new MessengerChannel(hub, hub.desk, settings));
}
