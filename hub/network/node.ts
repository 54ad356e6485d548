/**
 * One agent on the network, as its hub sees it: identity, own spine, store, and the
 * owner's actions (publish, add, accept, block, remove, send). The network service
 * and the `agent net` commands share it.
 *
 * @module
 */
import {
  type Card,
  type EnvelopeKind,
  type Identity,
  isAddress,
  MESSAGE_TEXT_MAX,
  newEnvelopeId,
  sealBox,
  signEnvelope,
  type WireEnvelope,
} from "@agent/net";
import { errorMessage } from "@agent/net/common";
import type { AgentConfig } from "../config/types.ts";
import type { Logger } from "../log.ts";
import type { Lang } from "../i18n.ts";
import { type NetMessageKey, t } from "./_messages.ts";
import type { AgentPaths } from "../paths.ts";
import type { NetLogEntry } from "./turn_types.ts";
import type { Contact, NetState } from "./store/mod.ts";
import { fileEventSink, type OwnerEventSink } from "../events/mod.ts";
import {
  contactOf,
  type ContactSlot,
  contactSlot,
  type ContactStep,
  contactTransition,
} from "./contact_machine.ts";
import {
  type Delivery,
  fetchCard,
  OwnSpineError,
  postEnvelope,
  type SpineClient,
  SpineError,
  type SpineHealth,
} from "./spine_client.ts";

/** The owner asked for something the contact's state does not allow; the message says why. */
export class NetUsageError extends Error {
  override name = "NetUsageError";
  /** The sentence's key, for {@linkcode NetUsageError.sentence}. */
  key: NetMessageKey;
  /** Its values. */
  vars: Record<string, string>;

  constructor(key: NetMessageKey, vars: Record<string, string> = {}) {
    super(t("en", key, vars));
    this.key = key;
    this.vars = vars;
  }

  /** The sentence in `lang`. */
  sentence(lang: Lang): string {
    return t(lang, this.key, this.vars);
  }
}

/** Options for {@linkcode NetNode}. */
export interface NetNodeOptions {
  config: AgentConfig;
  env: Readonly<Record<string, string | undefined>>;
  paths: AgentPaths;
  logger: Logger;
  identity: Identity;
  state: NetState;
  spine: SpineClient;
  /** `AGENT_NET_ALLOW_INSECURE=1`. */
  allowInsecure: boolean;
  fetch?: typeof fetch;
  now?: () => number;
}

import { dropPending, sendThroughOutbox } from "./outbox.ts";
import { pendingReason, type SendOutcome } from "./send_outcome.ts";

/** The fallback card name when neither the profile nor `[net] name` gives one. */
export const DEFAULT_CARD_NAME = "agent";

/** An agent on the network. */
export class NetNode {
  readonly config: AgentConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly paths: AgentPaths;
  readonly logger: Logger;
  readonly identity: Identity;
  readonly state: NetState;
  readonly spine: SpineClient;
  readonly allowInsecure: boolean;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  /**
   * Where the owner's events go (a contact request, a dropped message): the events file
   * by default; a running hub sets its bus here so its channels hear them at once.
   */
  events: OwnerEventSink;
  /** The language of the owner events' sentences; a running hub sets its own here. */
  lang: Lang = "en";
  #address: string | undefined;

  constructor(options: NetNodeOptions) {
    this.config = options.config;
    this.env = options.env;
    this.paths = options.paths;
    this.logger = options.logger;
    this.identity = options.identity;
    this.state = options.state;
    this.spine = options.spine;
    this.allowInsecure = options.allowInsecure;
    this.fetch = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.events = fileEventSink(options.paths.netDir);
  }

  /** Unix seconds now. */
  nowSec(): number {
    return Math.floor(this.now() / 1000);
  }

  /** This agent's address, as its spine's `GET /hub/health` says (asked once). */
  async address(signal?: AbortSignal): Promise<string> {
    if (this.#address === undefined) this.#address = (await this.health(signal)).address;
    return this.#address;
  }

  /**
   * `GET /hub/health` (also learns the address). An own spine that does not answer is
   * an {@linkcode OwnSpineError}, so no caller blames a peer or the universe for it.
   */
  async health(signal?: AbortSignal): Promise<SpineHealth> {
    const health = await this.#own(this.spine.health(signal));
    this.#address = health.address;
    return health;
  }

  /** A request to the own spine: no answer (or a 5xx) becomes an {@linkcode OwnSpineError}. */
  async #own<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof SpineError && error.transient) {
        throw new OwnSpineError(this.spine.url, error);
      }
      throw error;
    }
  }

  /** The card name: the profile's, else `[net] name`, else `agent`. */
  async cardName(): Promise<string> {
    return (await this.state.profile()).name ?? this.config.net.name ?? DEFAULT_CARD_NAME;
  }

  /** What the hub publishes with `PUT /hub/card`. */
  async cardInput(): Promise<{ name: string; sign_key: string; box_key: string }> {
    return {
      name: await this.cardName(),
      sign_key: this.identity.signKey,
      box_key: this.identity.boxKey,
    };
  }

  /** Publishes the card and records it in the profile. */
  async publish(signal?: AbortSignal): Promise<Card> {
    const input = await this.cardInput();
    const card = await this.#own(this.spine.putCard(input, signal));
    const profile = await this.state.profile();
    await this.state.setProfile({ ...profile, published: { ...input, at: this.nowSec() } });
    return card;
  }

  /** Fetches another agent's card. */
  fetchCard(address: string, signal?: AbortSignal): Promise<Card> {
    return fetchCard(address, {
      allowInsecure: this.allowInsecure,
      fetch: this.fetch,
      ...(signal ? { signal } : {}),
    });
  }

  /** Seals, signs and posts an envelope; throws a `SpineError` unless delivered. */
  async deliver(
    kind: EnvelopeKind,
    to: { address: string; box_key: string },
    plaintext: object,
    options: { id?: string; thread?: string; reply_to?: string | null; hops?: number } = {},
  ): Promise<{ id: string; thread: string; delivery: Delivery; wire: WireEnvelope }> {
    const id = options.id ?? newEnvelopeId();
    const from = await this.address();
    const header = { id, kind, from, to: to.address };
    const box = await sealBox(plaintext, header, to.box_key);
    const thread = options.thread ?? id;
    const wire = await signEnvelope({
      v: 1,
      ...header,
      ts: this.nowSec(),
      thread,
      reply_to: options.reply_to ?? null,
      hops: options.hops ?? 0,
      box,
    }, this.identity);
    const delivery = await postEnvelope(to.address, wire, {
      allowInsecure: this.allowInsecure,
      fetch: this.fetch,
    });
    // A duplicate is a post made before (a restart after a crash): counted then.
    if (delivery === "queued") {
      await this.state.count(
        { sent: 1 },
        header.kind === "message" ? { peer: to.address, direction: "out" } : undefined,
      );
    }
    return { id, thread, delivery, wire };
  }

  /**
   * `agent net add`: fetches the card, remembers the address as `pending_out` and sends
   * a `contact_request`; accepts at once when the other side already asked.
   */
  async add(address: string, note = ""): Promise<Contact> {
    checkAddress(address);
    const slot = contactSlot(address, await this.state.contact(address));
    let step = contactTransition(slot, { type: "add", at: this.nowSec() });
    if (step.effects.some((e) => e.type === "fetch_card")) {
      step = address === await this.address()
        ? contactTransition(slot, { type: "add_own" })
        : contactTransition(slot, {
          type: "add_card",
          card: await this.fetchCard(address),
          note,
          at: this.nowSec(),
        });
    }
    return await this.#apply(step);
  }

  /** `agent net accept`: pins the keys of a pending request and sends `contact_accept`. */
  async accept(address: string): Promise<Contact> {
    checkAddress(address);
    const slot = contactSlot(address, await this.state.contact(address));
    return await this.#apply(
      contactTransition(slot, { type: "accept_request", at: this.nowSec() }),
    );
  }

  /** `agent net block`: nothing from that address is read or answered. */
  async block(address: string): Promise<Contact> {
    checkAddress(address);
    return await blockContact(this.state, address, this.nowSec());
  }

  /**
   * `agent net remove`: forgets the contact (the log and the session stay) and tells
   * the other side with a signed `contact_removed`, unless it is blocked (no signal)
   * or removed this agent first. Returns whether there was a contact.
   */
  async remove(address: string): Promise<boolean> {
    return (await this.removeAndTell(address)).removed;
  }

  /**
   * {@linkcode NetNode.remove}, saying whether the other side heard of it (`told`
   * missing: nothing to tell; `false`: not now, the removal stands). The notice goes
   * through the outbox: a spine that does not answer now is tried again (by the hub)
   * for 24 hours and the notice arrives once (`later`); a hard refusal is only logged.
   */
  async removeAndTell(
    address: string,
  ): Promise<{ removed: boolean; told?: boolean; later?: boolean }> {
    checkAddress(address);
    const slot = contactSlot(address, await this.state.contact(address));
    const step = contactTransition(slot, { type: "remove" });
    if (!step.effects.some((e) => e.type === "forget")) return { removed: false };
    const removed = await this.state.removeContact(address);
    const notice = step.effects.find((e) => e.type === "send_removed");
    if (!removed || notice?.type !== "send_removed") return { removed };
    const id = newEnvelopeId();
    try {
      const delivery = await sendThroughOutbox(this, {
        id,
        to: address,
        box_key: notice.contact.box_key,
        kind: "contact_removed",
        plaintext: { name: await this.cardName() },
        thread: id,
        reply_to: null,
        hops: 0,
        log: { text: "" },
      });
      return delivery === "pending"
        ? { removed, told: false, later: true }
        : { removed, told: true };
    } catch (error) {
      this.logger.warn(`network: could not tell ${address} of the removal: ${errorMessage(error)}`);
      return { removed, told: false };
    }
  }

  /** `agent net send`: a new conversation with an accepted contact (or its sub-agent). */
  async send(
    address: string,
    text: string,
    sub?: string,
  ): Promise<SendOutcome> {
    checkAddress(address);
    if (Array.from(text).length > MESSAGE_TEXT_MAX) {
      throw new NetUsageError("too_long", { max: String(MESSAGE_TEXT_MAX) });
    }
    if (text.trim() === "") throw new NetUsageError("empty");
    const contact = await this.state.contact(address);
    const step = contactTransition(contactSlot(address, contact), { type: "send" });
    refuseIfTold(step, address);
    // Through the outbox: a spine that does not answer now is tried again (by the hub)
    // for 24 hours; a hard refusal is thrown at once.
    const id = newEnvelopeId();
    let later: SendOutcome["later"];
    const delivery = await sendThroughOutbox(this, {
      id,
      to: address,
      box_key: contact!.box_key,
      kind: "message",
      plaintext: sub === undefined ? { text } : { text, sub },
      thread: id,
      reply_to: null,
      hops: 0,
      log: { text, ...(sub ? { peer_sub: sub } : {}) },
    }, {
      onPending: (error, nextAt) => {
        later = { ...pendingReason(error), retry_at: nextAt };
      },
    });
    return later === undefined ? { id, delivery } : { id, delivery, later };
  }

  /**
   * Carries out what the contact machine said of an owner's command, in order, and
   * returns the contact as it stands. A send that fails puts back what was there and
   * throws, so the command can be tried again.
   */
  async #apply(step: ContactStep): Promise<Contact> {
    refuseIfTold(step, step.state.address);
    const contact = contactOf(step.state)!;
    for (const effect of step.effects) {
      switch (effect.type) {
        case "save":
          await this.state.saveContact(contact);
          break;
        case "send_accept":
        case "send_request": {
          const kind = effect.type === "send_accept" ? "contact_accept" : "contact_request";
          const plaintext = effect.type === "send_accept"
            ? { name: await this.cardName() }
            : { name: await this.cardName(), text: effect.note };
          // A removal still waiting in the outbox would undo this on arrival: it is void.
          await dropPending(this.state, "contact_removed", contact.address);
          let sent;
          try {
            sent = await this.deliver(kind, contact, plaintext);
          } catch (error) {
            // Still as before: otherwise the other side never learns, and it cannot be retried.
            if (effect.restore !== undefined) await this.#restore(effect.restore);
            throw error;
          }
          const note = effect.type === "send_request" ? effect.note : "";
          await this.logOut(contact.address, kind, sent.id, sent.thread, note);
          break;
        }
        default:
          throw new Error(`Cannot change ${contact.address}: no handling for ${effect.type}`);
      }
    }
    return contact;
  }

  async #restore(slot: ContactSlot): Promise<void> {
    const before = contactOf(slot);
    if (before === undefined) await this.state.removeContact(slot.address);
    else await this.state.saveContact(before);
  }

  /** Appends an outgoing entry to the network log. */
  async logOut(
    address: string,
    kind: EnvelopeKind,
    id: string,
    thread: string,
    text: string,
    subs: { own_sub?: string; peer_sub?: string } | undefined | "" = undefined,
  ): Promise<void> {
    const entry: NetLogEntry = {
      ts: this.nowSec(),
      direction: "out",
      address,
      kind,
      id,
      thread,
      text,
      ...(subs || {}),
    };
    await this.state.appendLog(entry);
  }
}

function checkAddress(address: string): void {
  if (!isAddress(address)) throw new NetUsageError("bad_address", { address });
}

/**
 * Marks `address` blocked, known or not: nothing from it is read or answered. Needs
 * only the network state (no identity or spine), so `agent net block` works offline.
 */
export async function blockContact(
  state: NetState,
  address: string,
  nowSec: number,
): Promise<Contact> {
  const step = contactTransition(contactSlot(address, await state.contact(address)), {
    type: "block",
    at: nowSec,
  });
  const blocked = contactOf(step.state)!;
  if (step.effects.some((e) => e.type === "save")) await state.saveContact(blocked);
  return blocked;
}

/** Throws the owner's refusal when the contact machine gave one. */
function refuseIfTold(step: ContactStep, address: string): void {
  const refusal = step.effects.find((e) => e.type === "refuse");
  if (refusal !== undefined) throw new NetUsageError(refusal.key, { address });
}
