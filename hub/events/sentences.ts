/**
 * An owner event as one line for a terminal (chat, the TUI): a stranger's contact
 * request with the command that accepts it, a message the outbox gave up on, and the
 * hub's own sentence for the rest. Text from other agents is made printable.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";
import { printable } from "../text.ts";
import { type EventBooks, eventText } from "./said.ts";
import type { NetDigestEvent, OwnerEvent } from "./types.ts";

/** The owner events' own sentences: the `events` book of {@linkcode EventBooks}. */
export const eventSentence = catalogue({
  contact_request:
    "{name} ({address}) asks to become a contact: “{text}”. `agent net accept {address}` accepts.",
  outbox_dropped:
    "A message to {address} could not be delivered in 24 hours and was dropped: {text}",
  digest_title: "Your agent answered {n} conversation(s) with other agents:",
  digest_entry: "{name} ({address}) asked “{asked}”; your agent answered “{answered}”",
  digest_turns: " ({n} messages)",
  digest_more: "…and {n} more: `agent net log` shows them all.",
  digest_hint: "`agent net block ADDRESS` or `agent net remove ADDRESS` stops a conversation.",
  failover: "The {role} model could not be reached ({reason}); {stand_in} answers for it today.",
  email_undelivered:
    "The answer to {to} (“{subject}”) could not be sent in 24 hours and was given up: {detail}",
}, {
  contact_request:
    "{name} ({address}) kişi olmak istiyor: “{text}”. Kabul etmek için `agent net accept {address}`.",
  outbox_dropped: "{address} adresine bir mesaj 24 saatte teslim edilemedi ve bırakıldı: {text}",
  digest_title: "Ajanınız diğer ajanlarla {n} konuşmayı yanıtladı:",
  digest_entry: "{name} ({address}) sordu: “{asked}”; ajanınız yanıtladı: “{answered}”",
  digest_turns: " ({n} mesaj)",
  digest_more: "…ve {n} tane daha: `agent net log` hepsini gösterir.",
  digest_hint: "`agent net block ADRES` ya da `agent net remove ADRES` bir konuşmayı durdurur.",
  failover: "{role} modeline ulaşılamadı ({reason}); bugün onun yerine {stand_in} yanıtlıyor.",
  email_undelivered:
    "{to} adresine yanıt (“{subject}”) 24 saatte gönderilemedi ve bırakıldı: {detail}",
});
const t = eventSentence;

/**
 * The line a terminal shows for `event`, in `lang`: a sentence kept as a code
 * (`said`) is said with `books` (the channels' {@linkcode EventBooks}; the events' own
 * book is always there), anything else as its `text`.
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
export function ownerEventLine(lang: Lang, event: OwnerEvent, books: EventBooks = {}): string {
  switch (event.type) {
    case "net.contact_request":
      return t(lang, "contact_request", {
        name: printable(event.name),
        address: event.address,
        text: printable(event.text),
      });
    case "net.outbox_dropped":
      return t(lang, "outbox_dropped", { address: event.address, text: printable(event.text) });
    case "net.digest":
      return digestLines(lang, event).join("\n");
    default:
      return eventText(lang, event, { events: eventSentence, ...books });
  }
}

/**
 * A digest as lines for a terminal: a title, one line per conversation (name, address,
 * the first lines asked and answered), the count of the rest, and how to stop one.
 *
 * @example
 * ```ts
 * import { digestLines } from "./sentences.ts";
 * const lines = digestLines("en", {
 *   more: 0, conversations: [{
 *     address: "bob.example", name: "Bob", thread: "t", asked: "Tea?", answered: "Yes.",
 *     turns: 1, first_ts: 1, last_ts: 1,
 *   }],
 * });
 * if (lines[1] !== "- Bob (bob.example) asked “Tea?”; your agent answered “Yes.”") {
 *   throw new Error(lines[1]);
 * }
 * ```
 */
export function digestLines(
  lang: Lang,
  event: Pick<NetDigestEvent, "conversations" | "more">,
): string[] {
  const n = event.conversations.length + event.more;
  const lines = [t(lang, "digest_title", { n: String(n) })];
  for (const c of event.conversations) {
    const entry = t(lang, "digest_entry", {
      name: printable(c.name),
      address: c.address,
      asked: printable(c.asked),
      answered: printable(c.answered),
    });
    const turns = c.turns > 1 ? t(lang, "digest_turns", { n: String(c.turns) }) : "";
    lines.push(`- ${entry}${turns}`);
  }
  if (event.more > 0) lines.push(t(lang, "digest_more", { n: String(event.more) }));
  lines.push(t(lang, "digest_hint"));
  return lines;
}
