/**
 * An owner event as one line for a terminal (chat, the TUI): a stranger's contact
 * request with the command that accepts it, a message the outbox gave up on, and the
 * hub's own sentence for the rest. Text from other agents is made printable.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";
import { printable } from "../text.ts";
import type { OwnerEvent } from "./types.ts";

const t = catalogue({
  contact_request:
    "{name} ({address}) asks to become a contact: “{text}”. `agent net accept {address}` accepts.",
  outbox_dropped:
    "A message to {address} could not be delivered in 24 hours and was dropped: {text}",
}, {
  contact_request:
    "{name} ({address}) kişi olmak istiyor: “{text}”. Kabul etmek için `agent net accept {address}`.",
  outbox_dropped: "{address} adresine bir mesaj 24 saatte teslim edilemedi ve bırakıldı: {text}",
});

/**
 * The line a terminal shows for `event`.
 *
 * @example
 * ```ts
 * import { ownerEventLine } from "./sentences.ts";
 * const line = ownerEventLine("en", {
 *   ts: 1, event_id: "1000-000001", type: "model.failover", role: "brain", stand_in: "fast",
 *   text: "The brain model could not be reached.",
 * });
 * if (line !== "The brain model could not be reached.") throw new Error(line);
 * ```
 */
export function ownerEventLine(lang: Lang, event: OwnerEvent): string {
  switch (event.type) {
    case "net.contact_request":
      return t(lang, "contact_request", {
        name: printable(event.name),
        address: event.address,
        text: printable(event.text),
      });
    case "net.outbox_dropped":
      return t(lang, "outbox_dropped", { address: event.address, text: printable(event.text) });
    default:
      return event.text;
  }
}
