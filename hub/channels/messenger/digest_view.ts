/**
 * The network digest in the messenger: one message per digest (each conversation with
 * the peer's name and address, the first line it asked and the first line the agent
 * answered), with a row of buttons per peer: Block, Remove, Open. Open shows the last
 * messages with that peer from the network log. Kept apart from the relay so the
 * relay stays a loop over events.
 *
 * @module
 */
import { catalogue, type Lang } from "../../i18n.ts";
import type { NetDigestEvent } from "../../events/mod.ts";
import type { NetLogEntry } from "../../network/mod.ts";
import { chatText, escapeHtml } from "./telegram.ts";

/** Conversations shown in one message (Telegram allows 4 096 characters). */
export const DIGEST_SHOWN = 8;

/** Messages with a peer that Open shows. */
export const OPEN_SHOWN = 6;

/** The digest buttons' callback data: `nd:<id>:b|r|o` (block, remove, open). */
export const DIGEST_DATA = /^nd:([A-Za-z0-9_-]{1,16}):([bro])$/;

/** The digest's sentences in English and Turkish. */
export const digestText = catalogue({
  title: "Your agent answered {n} conversation(s) with other agents:",
  entry: "{name} ({address})\nasked: {asked}\nanswered: {answered}",
  turns: "({n} messages)",
  more: "…and {n} more (agent net log).",
  block: "Block {name}",
  remove: "Remove {name}",
  open: "Open {name}",
  blocked: "{address} is blocked: nothing from it is read or answered.",
  removed: "{address} is removed and was told; adding it again sends a new request.",
  removed_untold: "{address} is removed, but could not be told now: it still lists you.",
  removed_later:
    "{address} is removed; its spine does not answer now, so the hub tells it when it does (tried for 24 hours).",
  not_contact: "{address} is no contact any more.",
  open_title: "Last messages with {address}:",
  open_in: "they: {text}",
  open_out: "your agent: {text}",
  open_none: "No messages with {address} in the network log.",
}, {
  title: "Ajanınız diğer ajanlarla {n} konuşmayı yanıtladı:",
  entry: "{name} ({address})\nsordu: {asked}\nyanıtladı: {answered}",
  turns: "({n} mesaj)",
  more: "…ve {n} tane daha (agent net log).",
  block: "Engelle: {name}",
  remove: "Kaldır: {name}",
  open: "Aç: {name}",
  blocked: "{address} engellendi: ondan gelen hiçbir şey okunmaz ya da yanıtlanmaz.",
  removed: "{address} kaldırıldı ve kendisine bildirildi; yeniden eklemek yeni bir istek gönderir.",
  removed_untold: "{address} kaldırıldı, ama şu an bildirilemedi: sizi hâlâ kişi olarak görüyor.",
  removed_later:
    "{address} kaldırıldı; spine'ı şu an yanıt vermiyor, hub yanıt verdiğinde bildirir (24 saat denenir).",
  not_contact: "{address} artık bir kişi değil.",
  open_title: "{address} ile son mesajlar:",
  open_in: "o: {text}",
  open_out: "ajanınız: {text}",
  open_none: "Ağ kaydında {address} ile mesaj yok.",
});

/** A Telegram message: HTML text and its inline keyboard. */
export interface DigestMessage {
  html: string;
  keyboard: { text: string; callback_data: string }[][];
}

/**
 * The digest as one Telegram message: at most {@linkcode DIGEST_SHOWN} conversations,
 * the rest counted; one button row per peer, its ids made by `buttonId(address)`.
 *
 * @example
 * ```ts
 * import { digestMessage } from "./digest_view.ts";
 * const m = digestMessage("en", {
 *   more: 0, conversations: [{
 *     address: "bob.example", name: "Bob", thread: "t", asked: "Tea?", answered: "Yes.",
 *     turns: 1, first_ts: 1, last_ts: 1,
 *   }],
 * }, () => "id1");
 * if (m.keyboard[0]![2]!.callback_data !== "nd:id1:o") throw new Error();
 * ```
 */
export function digestMessage(
  lang: Lang,
  event: Pick<NetDigestEvent, "conversations" | "more">,
  buttonId: (address: string) => string,
): DigestMessage {
  const shown = event.conversations.slice(0, DIGEST_SHOWN);
  const more = event.more + event.conversations.length - shown.length;
  const total = event.conversations.length + event.more;
  const parts = [digestText(lang, "title", { n: String(total) })];
  for (const c of shown) {
    const entry = digestText(lang, "entry", {
      name: chatText(c.name),
      address: c.address,
      asked: chatText(c.asked),
      answered: chatText(c.answered),
    });
    parts.push(
      c.turns > 1 ? `${entry} ${digestText(lang, "turns", { n: String(c.turns) })}` : entry,
    );
  }
  if (more > 0) parts.push(digestText(lang, "more", { n: String(more) }));
  const keyboard: DigestMessage["keyboard"] = [];
  const peers = new Map<string, string>();
  for (const c of shown) if (!peers.has(c.address)) peers.set(c.address, c.name);
  for (const [address, name] of peers) {
    const id = buttonId(address);
    const short = shortName(name, address);
    keyboard.push([
      { text: digestText(lang, "block", { name: short }), callback_data: `nd:${id}:b` },
      { text: digestText(lang, "remove", { name: short }), callback_data: `nd:${id}:r` },
      { text: digestText(lang, "open", { name: short }), callback_data: `nd:${id}:o` },
    ]);
  }
  return { html: escapeHtml(parts.join("\n\n")), keyboard };
}

/**
 * What Open shows: the last {@linkcode OPEN_SHOWN} messages with `address` in the
 * network log, oldest first, each cut to 600 characters.
 *
 * @example
 * ```ts
 * import { openText } from "./digest_view.ts";
 * const text = openText("en", "bob.example", [
 *   { ts: 1, direction: "in", address: "bob.example", kind: "message", id: "a", thread: "t",
 *     text: "Tea?" },
 * ]);
 * if (text !== "Last messages with bob.example:\nthey: Tea?") throw new Error(text);
 * ```
 */
export function openText(lang: Lang, address: string, log: readonly NetLogEntry[]): string {
  const messages = log.filter((e) => e.address === address && e.kind === "message")
    .slice(-OPEN_SHOWN);
  if (messages.length === 0) return digestText(lang, "open_none", { address });
  return [
    digestText(lang, "open_title", { address }),
    ...messages.map((e) =>
      digestText(lang, e.direction === "in" ? "open_in" : "open_out", {
        text: cut(chatText(e.text), 600),
      })
    ),
  ].join("\n");
}

function shortName(name: string, address: string): string {
  return cut(chatText(name) || address, 16);
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}
