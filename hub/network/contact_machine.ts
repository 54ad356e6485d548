/**
 * The contact life cycle of document 2 ("States and transitions"), every rule of it in
 * one pure function: {@linkcode contactTransition} takes where a contact stands and
 * what happened, and returns where it stands now and what to do about it. No I/O and no
 * clock (the time comes in the event): handling an envelope (`handle.ts`) and the
 * owner's commands (`node.ts`) call it and carry out its effects in order.
 *
 * Some events need a fact that takes I/O to learn (the sender's card, whether the
 * signature holds); they come in steps: the machine asks (`verify`, `fetch_card`) and
 * the caller answers with the next event. A new kind of envelope or a new command is a
 * new event type and new rows, here and in the table test.
 *
 * @module
 */
import { cleanText, type EnvelopeKind, sameKey } from "@agent/net";
import { type Contact, REQUEST_TELL_SECONDS } from "./store/state.ts";

/** No contact for `address` (never added, or removed). */
export interface NoContact {
  address: string;
  state: "none";
}

/** Where a contact stands: its record, or none. */
export type ContactSlot = Contact | NoContact;

/** The keys of a card. */
export interface ContactKeys {
  sign_key: string;
  box_key: string;
}

/** A card as the machine needs it: the display name (another agent's text) and keys. */
export interface ContactCard extends ContactKeys {
  name: string;
}

/**
 * What happened to a contact. Incoming envelopes, after the hub re-verified them (in
 * the order handling meets them), then the owner's commands.
 */
export type ContactEvent =
  /** An envelope of `kind` from the contact arrived; its id is new. Before any card fetch. */
  | { type: "envelope"; kind: EnvelopeKind }
  /** The sender's card, fetched because no key is pinned. */
  | { type: "fresh_card"; keys: ContactKeys }
  /** The envelope failed verification or opening (`bad_signature`, `unopenable`, ...). */
  | { type: "unverified"; reason: string }
  /** A verified `contact_request`: the sender's card name, introduction and keys. */
  | { type: "request"; name: string; text: string; keys: ContactKeys; at: number }
  /** A verified `contact_accept`, with the sender's card name. */
  | { type: "accept"; name: string; at: number }
  /** A verified `message`. */
  | { type: "message" }
  /** A verified `contact_removed`: the other side forgot this agent. */
  | { type: "removed"; at: number }
  /** `agent net add`, first step. */
  | { type: "add"; at: number }
  /** `agent net add` of this agent's own address, second step. */
  | { type: "add_own" }
  /** `agent net add`, second step: the other agent's card was fetched (a re-add unblocks). */
  | { type: "add_card"; card: ContactCard; note: string; at: number }
  /** `agent net accept`. */
  | { type: "accept_request"; at: number }
  /** `agent net send` (and the agent's `net_send` tool). */
  | { type: "send" }
  /** `agent net block`. */
  | { type: "block"; at: number }
  /** `agent net remove`. */
  | { type: "remove" };

/** Why an envelope is dropped. */
export type DropWhy =
  /** From a blocked address: never read, never answered. */
  | "blocked"
  /** From an address that is no contact, and not a request. */
  | "stranger"
  /** A message from a contact that is not accepted (yet). */
  | "not_accepted"
  /** Signed with keys other than the pinned (or, pending, the stored) ones. */
  | "key_changed"
  /** It failed verification or opening: the event's reason says how. */
  | "unverified";

/** The refusal of an owner's command (a sentence key of `_messages.ts`). */
export type ContactRefusal =
  | "own_address"
  | "no_pending"
  | "not_accepted"
  /** Our request waits for the other side's answer. */
  | "not_accepted_yet"
  | "removed_by_peer";

/** What to do, in order. */
export type ContactEffect =
  /** Drop the envelope: logged (a warning when `warn`), counted, never answered. */
  | { type: "drop"; why: DropWhy; warn: boolean }
  /** Verify the envelope with the pinned keys, or with a freshly fetched card. */
  | { type: "verify"; keys: "pinned" | "card" }
  /** Write the new record. */
  | { type: "save" }
  /** Forget the record; the network log and the contact's session stay. */
  | { type: "forget" }
  /** Append the incoming envelope to the network log, with this text. */
  | { type: "log_in"; text: string }
  /** Tell the owner of a new request: a log line and an owner event. */
  | { type: "tell_owner"; name: string; text: string }
  /** Note in the hub log that the other side accepted the owner's request. */
  | { type: "note_accepted" }
  /** Note in the hub log that the other side removed this agent. */
  | { type: "note_removed" }
  /**
   * Tell the other side it was removed (a signed `contact_removed` to `contact`, the
   * record just forgotten); a failure is only logged, the removal stands.
   */
  | { type: "send_removed"; contact: Contact }
  /**
   * Send a `contact_accept` (then log it). Answering a request it is a reply with a
   * deterministic id, and a failure is only logged; for the owner's `accept`, a failure
   * puts `restore` back and reaches the owner.
   */
  | { type: "send_accept"; restore?: ContactSlot }
  /** Send a `contact_request` with `note` (then log it); on failure put `restore` back. */
  | { type: "send_request"; note: string; restore: ContactSlot }
  /** Answer the message with a network turn. */
  | { type: "answer" }
  /** Fetch the other agent's card, then go on with `add_card` (or `add_own`). */
  | { type: "fetch_card" }
  /** Send the owner's message (through the outbox). */
  | { type: "send_message" }
  /** Refuse the owner's command with this sentence. */
  | { type: "refuse"; key: ContactRefusal };

/** The result of {@linkcode contactTransition}. */
export interface ContactStep {
  state: ContactSlot;
  effects: ContactEffect[];
}

/** The slot of `address`: its record, or none. */
export function contactSlot(address: string, contact: Contact | undefined): ContactSlot {
  return contact ?? { address, state: "none" };
}

/** The record in a slot, `undefined` for none. */
export function contactOf(slot: ContactSlot): Contact | undefined {
  return slot.state === "none" ? undefined : slot;
}

/** A card name as it is kept: no control or bidi characters, 80 at most, else the address. */
export function contactName(name: string, address: string): string {
  return cleanText(name, 80) || address;
}

/**
 * Where the contact stands after `event`, and what to do, in order. Every rule of the
 * contact life cycle is here; a row that changes nothing returns the same slot.
 *
 * @example
 * ```ts
 * import { contactTransition } from "./contact_machine.ts";
 * const step = contactTransition({ address: "b.example", state: "none" }, {
 *   type: "envelope",
 *   kind: "message",
 * });
 * if (step.effects[0]?.type !== "drop") throw new Error("a stranger's message is read");
 * ```
 */
export function contactTransition(state: ContactSlot, event: ContactEvent): ContactStep {
  switch (event.type) {
    case "envelope":
      return screen(state, event.kind);
    case "fresh_card":
      if (state.state === "blocked") return drop(state, "blocked");
      // A stranger's card is all there is (and one that removed this agent starts
      // afresh); a known contact's must carry the stored keys.
      if (state.state !== "none" && state.state !== "removed" && !sameKeys(state, event.keys)) {
        return drop(state, "key_changed", true);
      }
      return stay(state);
    case "unverified":
      if (state.state === "blocked") return drop(state, "blocked");
      // The pinned key failing means the other side's key changed, not a forgery test.
      if (state.state === "accepted" && event.reason === "bad_signature") {
        return drop(state, "key_changed", true);
      }
      return drop(state, "unverified");
    case "request":
      return onRequest(state, event);
    case "accept":
      return onAccept(state, event);
    case "message":
      // Only an accepted contact's message gets an answer; the rest as screened.
      return state.state === "accepted"
        ? stay(state, { type: "answer" })
        : screen(state, "message");
    case "removed":
      return onRemoved(state, event.at);
    case "add":
      if (state.state === "pending_in") return acceptRequest(state, event.at);
      if (state.state === "accepted") return stay(state);
      return stay(state, { type: "fetch_card" });
    case "add_own":
      return stay(state, { type: "refuse", key: "own_address" });
    case "add_card": {
      // The other side asked meanwhile, or it is done: as for the first step.
      if (state.state === "pending_in") return acceptRequest(state, event.at);
      if (state.state === "accepted") return stay(state);
      const contact: Contact = {
        address: state.address,
        // A card is another agent's text: no control or bidi character is kept.
        name: contactName(event.card.name, state.address),
        state: "pending_out",
        sign_key: event.card.sign_key,
        box_key: event.card.box_key,
        note: event.note,
        created_at: state.state === "none" ? event.at : state.created_at,
        updated_at: event.at,
        accepted_at: null,
      };
      // Saved before sending: an accept that comes back quickly must find the contact.
      return {
        state: contact,
        effects: [{ type: "save" }, { type: "send_request", note: event.note, restore: state }],
      };
    }
    case "accept_request":
      if (state.state === "pending_in") return acceptRequest(state, event.at);
      if (state.state === "accepted") return stay(state);
      return stay(state, { type: "refuse", key: "no_pending" });
    case "send":
      if (state.state === "removed") return stay(state, { type: "refuse", key: "removed_by_peer" });
      if (state.state === "accepted") return stay(state, { type: "send_message" });
      return stay(state, {
        type: "refuse",
        key: state.state === "pending_out" ? "not_accepted_yet" : "not_accepted",
      });
    case "block": {
      const blocked: Contact = state.state === "none"
        ? {
          address: state.address,
          name: state.address,
          state: "blocked",
          sign_key: "",
          box_key: "",
          note: "",
          created_at: event.at,
          updated_at: event.at,
        }
        : { ...state, state: "blocked", updated_at: event.at };
      return { state: blocked, effects: [{ type: "save" }] };
    }
    case "remove": {
      if (state.state === "none") return stay(state);
      const none: NoContact = { address: state.address, state: "none" };
      // Blocked peers get no signal; one that removed this agent knows already.
      if (state.state === "blocked" || state.state === "removed") {
        return { state: none, effects: [{ type: "forget" }] };
      }
      return {
        state: none,
        effects: [{ type: "forget" }, { type: "send_removed", contact: state }],
      };
    }
  }
}

/**
 * Before any card fetch: strangers (anything but a request) and blocked senders are
 * dropped; a message needs an accepted contact; an accepted contact is verified with
 * its pinned keys, anyone else with a fresh card.
 */
function screen(state: ContactSlot, kind: EnvelopeKind): ContactStep {
  if (state.state === "blocked") return drop(state, "blocked");
  // One that removed this agent is a stranger again, but for a new request.
  const gone = state.state === "none" || state.state === "removed";
  if (gone && kind !== "contact_request") return drop(state, "stranger");
  if (kind === "message" && state.state !== "accepted") return drop(state, "not_accepted");
  return stay(state, { type: "verify", keys: state.state === "accepted" ? "pinned" : "card" });
}

function onRequest(
  state: ContactSlot,
  event: Extract<ContactEvent, { type: "request" }>,
): ContactStep {
  const name = contactName(event.name, state.address);
  const logIn: ContactEffect = { type: "log_in", text: event.text };
  switch (state.state) {
    case "blocked":
      return drop(state, "blocked");
    case "none":
    case "removed":
    case "pending_in": {
      // A request after a removal is a new one, and the owner hears of it, but once a
      // day at most: a stranger asking, removing itself and asking again in a loop
      // would otherwise reach the owner every time. A repeat while it is pending
      // refreshes the note and tells no one.
      const told = state.state === "none" ? undefined : state.request_told_at;
      const tell = state.state !== "pending_in" &&
        (told === undefined || event.at - told >= REQUEST_TELL_SECONDS);
      const toldAt = tell ? event.at : told;
      const contact: Contact = {
        address: state.address,
        name,
        state: "pending_in",
        sign_key: event.keys.sign_key,
        box_key: event.keys.box_key,
        note: event.text,
        created_at: state.state === "none" ? event.at : state.created_at,
        updated_at: event.at,
        accepted_at: null,
        ...(toldAt === undefined ? {} : { request_told_at: toldAt }),
      };
      return {
        state: contact,
        effects: tell
          ? [logIn, { type: "save" }, { type: "tell_owner", name, text: event.text }]
          : [logIn, { type: "save" }],
      };
    }
    case "pending_out":
    case "accepted": {
      // Both asked, or asked again: accepted (keys pinned), an accept goes back each time.
      const contact: Contact = {
        ...state,
        name,
        state: "accepted",
        updated_at: event.at,
        accepted_at: state.accepted_at ?? event.at,
      };
      return { state: contact, effects: [logIn, { type: "save" }, { type: "send_accept" }] };
    }
  }
}

function onAccept(
  state: ContactSlot,
  event: Extract<ContactEvent, { type: "accept" }>,
): ContactStep {
  const logIn: ContactEffect = { type: "log_in", text: "" };
  switch (state.state) {
    case "blocked":
      return drop(state, "blocked");
    case "none":
    case "removed":
      return drop(state, "stranger");
    case "pending_out": {
      const contact: Contact = {
        ...state,
        name: contactName(event.name, state.address),
        state: "accepted",
        updated_at: event.at,
        accepted_at: event.at,
      };
      return { state: contact, effects: [{ type: "save" }, { type: "note_accepted" }, logIn] };
    }
    case "pending_in":
    case "accepted":
      // Nothing was asked of them (pending_in), or it is done already: logged, no change.
      return stay(state, logIn);
  }
}

/**
 * The other side removed this agent: an accepted or pending contact is kept as
 * `removed` (its keys too), so `agent net contacts` shows where both sides stand.
 */
function onRemoved(state: ContactSlot, at: number): ContactStep {
  if (state.state === "blocked") return drop(state, "blocked");
  if (state.state === "none" || state.state === "removed") return drop(state, "stranger");
  const removed: Contact = { ...state, state: "removed", updated_at: at };
  return {
    state: removed,
    effects: [{ type: "log_in", text: "" }, { type: "save" }, { type: "note_removed" }],
  };
}

/** The owner accepts a pending request: keys pinned, an accept sent, undone if it fails. */
function acceptRequest(state: Contact, at: number): ContactStep {
  // Accepted, it is no stranger: a later request (after it removed this agent) is told.
  const { request_told_at: _told, ...rest } = state;
  const accepted: Contact = { ...rest, state: "accepted", updated_at: at, accepted_at: at };
  return { state: accepted, effects: [{ type: "save" }, { type: "send_accept", restore: state }] };
}

function stay(state: ContactSlot, ...effects: ContactEffect[]): ContactStep {
  return { state, effects };
}

function drop(state: ContactSlot, why: DropWhy, warn = false): ContactStep {
  return { state, effects: [{ type: "drop", why, warn }] };
}

// As bytes: a key served padded once and unpadded later (or kept padded in an older
// contacts file) is the same key.
function sameKeys(a: ContactKeys, b: ContactKeys): boolean {
  return sameKey(a.sign_key, b.sign_key) && sameKey(a.box_key, b.box_key);
}
