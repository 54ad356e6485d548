/**
 * The messenger channel (Telegram through grammY): {@linkcode messengerChannel} is the
 * hub's factory for it. The door is light: grammY and the channel itself load only
 * when the factory runs (or {@linkcode loadBotApi} is called), so `agent doctor` and the
 * job delivery worker import it without them.
 *
 * @module
 */
import type { HubContext, HubService } from "../contract.ts";
import { messengerSettings } from "./settings.ts";

export type { MessengerStatus } from "./intake.ts";
export { allowedChats, messengerSettings } from "./settings.ts";
export type { MessengerSettings } from "./settings.ts";
export {
  type BotApiFailure,
  botApiFailure,
  escapeHtml,
  refusedEntities,
  scrubToken,
  splitMessage,
} from "./telegram.ts";
export { markdownHtmlParts, plainOfHtml } from "./markdown_html.ts";
export { messengerCheck } from "./doctor.ts";

/**
 * The messenger as a hub channel when `MESSENGER_BOT_TOKEN` is set; it needs the spend
 * ledger (budgets apply to every channel), so without one it is left out with a log line.
 */
export async function messengerChannel(hub: HubContext): Promise<HubService | undefined> {
  const settings = messengerSettings(hub.config, hub.env);
  if (settings === undefined) return undefined;
  if (hub.ledger === undefined) {
    hub.logger.error("messenger: not started: the spend ledger cannot be opened");
    return undefined;
  }
  const { MessengerChannel } = await import("./channel.ts");
  return new MessengerChannel(hub, hub.desk, settings);
}

/**
 * grammY's `Api` class, loaded after the shim that keeps grammY's fetch polyfill from
 * printing a deprecation on stderr (for a sender outside the channel, the job delivery).
 */
export async function loadBotApi(): Promise<typeof import("grammy").Api> {
  await import("./_quiet_node.ts");
  return (await import("grammy")).Api;
}
