/**
 * The contact life cycle, row by row: every state against every event, the no-ops and
 * refusals included. The table must hold exactly one row per pair, so a new state or a
 * new event cannot go in without its rows.
 */
import assert from "node:assert/strict";
import {
  type ContactEffect,
  type ContactEvent,
  type ContactSlot,
  contactTransition,
} from "./contact_machine.ts";
import type { Contact } from "./store/state.ts";

const ADDRESS = "b.example";
const KEYS = { sign_key: "S".repeat(43), box_key: "B".repeat(43) };
const OTHER_KEYS = { sign_key: "T".repeat(43), box_key: "C".repeat(43) };
// Real b64u keys, for the byte comparison.
const KEY_A = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const KEY_B = "PUAXw-hDiVqStwqnTRt-vJyYLM8uxJaMwM1V8Sr0Zgw";
const AT = 2_000;

const STATES = ["none", "pending_in", "pending_out", "accepted", "blocked", "removed"] as const;
type StateName = typeof STATES[number];

/** A contact in `state`, added at 100, last changed at 150. */
function slotIn(state: StateName): ContactSlot {
  if (state === "none") return { address: ADDRESS, state: "none" };
  return {
    address: ADDRESS,
    name: "Bob",
    state,
    ...KEYS,
    note: "old note",
    created_at: 100,
    updated_at: 150,
    accepted_at: state === "accepted" ? 120 : null,
  };
}

/** One event of each type and shape. */
const EVENTS = {
  "envelope request": { type: "envelope", kind: "contact_request" },
  "envelope accept": { type: "envelope", kind: "contact_accept" },
  "envelope message": { type: "envelope", kind: "message" },
  "envelope removed": { type: "envelope", kind: "contact_removed" },
  "fresh card, same keys": { type: "fresh_card", keys: KEYS },
  "fresh card, other keys": { type: "fresh_card", keys: OTHER_KEYS },
  "bad signature": { type: "unverified", reason: "bad_signature" },
  "unopenable": { type: "unverified", reason: "unopenable" },
  "request": { type: "request", name: "Bobby\u0007", text: "hello", keys: KEYS, at: AT },
  "accept": { type: "accept", name: "Bobby", at: AT },
  "message": { type: "message" },
  "removed": { type: "removed", at: AT },
  "add": { type: "add", at: AT },
  "add own": { type: "add_own" },
  "add card": {
    type: "add_card",
    card: { name: "Bobby", ...OTHER_KEYS },
    note: "new note",
    at: AT,
  },
  "accept request": { type: "accept_request", at: AT },
  "send": { type: "send" },
  "block": { type: "block", at: AT },
  "remove": { type: "remove" },
} satisfies Record<string, ContactEvent>;
type EventName = keyof typeof EVENTS;

/**
 * Effects in short: `drop:<why>` (`!` when warned), `verify:<keys>`, `refuse:<key>`,
 * `send_accept+restore` for the owner's accept, else the effect's type.
 */
function short(effect: ContactEffect): string {
  switch (effect.type) {
    case "drop":
      return `drop:${effect.why}${effect.warn ? "!" : ""}`;
    case "verify":
      return `verify:${effect.keys}`;
    case "refuse":
      return `refuse:${effect.key}`;
    case "send_accept":
      return effect.restore === undefined ? "send_accept" : "send_accept+restore";
    default:
      return effect.type;
  }
}

type Row = [from: StateName, event: EventName, to: StateName, effects: string[]];

// deno-fmt-ignore
const TABLE: Row[] = [
  // No contact: only a request gets in (verified with a fresh card); the owner adds or blocks.
  ["none", "envelope request", "none", ["verify:card"]],
  ["none", "envelope accept", "none", ["drop:stranger"]],
  ["none", "envelope message", "none", ["drop:stranger"]],
  ["none", "envelope removed", "none", ["drop:stranger"]],
  ["none", "fresh card, same keys", "none", []],
  ["none", "fresh card, other keys", "none", []],
  ["none", "bad signature", "none", ["drop:unverified"]],
  ["none", "unopenable", "none", ["drop:unverified"]],
  ["none", "request", "pending_in", ["log_in", "save", "tell_owner"]],
  ["none", "accept", "none", ["drop:stranger"]],
  ["none", "message", "none", ["drop:stranger"]],
  ["none", "removed", "none", ["drop:stranger"]],
  ["none", "add", "none", ["fetch_card"]],
  ["none", "add own", "none", ["refuse:own_address"]],
  ["none", "add card", "pending_out", ["save", "send_request"]],
  ["none", "accept request", "none", ["refuse:no_pending"]],
  ["none", "send", "none", ["refuse:not_accepted"]],
  ["none", "block", "blocked", ["save"]],
  ["none", "remove", "none", []],
  // They asked: a repeat refreshes the note, the owner's add or accept accepts.
  ["pending_in", "envelope request", "pending_in", ["verify:card"]],
  ["pending_in", "envelope accept", "pending_in", ["verify:card"]],
  ["pending_in", "envelope message", "pending_in", ["drop:not_accepted"]],
  ["pending_in", "envelope removed", "pending_in", ["verify:card"]],
  ["pending_in", "fresh card, same keys", "pending_in", []],
  ["pending_in", "fresh card, other keys", "pending_in", ["drop:key_changed!"]],
  ["pending_in", "bad signature", "pending_in", ["drop:unverified"]],
  ["pending_in", "unopenable", "pending_in", ["drop:unverified"]],
  ["pending_in", "request", "pending_in", ["log_in", "save"]],
  ["pending_in", "accept", "pending_in", ["log_in"]],
  ["pending_in", "message", "pending_in", ["drop:not_accepted"]],
  ["pending_in", "removed", "removed", ["log_in", "save", "note_removed"]],
  ["pending_in", "add", "accepted", ["save", "send_accept+restore"]],
  ["pending_in", "add own", "pending_in", ["refuse:own_address"]],
  ["pending_in", "add card", "accepted", ["save", "send_accept+restore"]],
  ["pending_in", "accept request", "accepted", ["save", "send_accept+restore"]],
  ["pending_in", "send", "pending_in", ["refuse:not_accepted"]],
  ["pending_in", "block", "blocked", ["save"]],
  ["pending_in", "remove", "none", ["forget", "send_removed"]],
  // The owner asked: their request or their accept makes it accepted.
  ["pending_out", "envelope request", "pending_out", ["verify:card"]],
  ["pending_out", "envelope accept", "pending_out", ["verify:card"]],
  ["pending_out", "envelope message", "pending_out", ["drop:not_accepted"]],
  ["pending_out", "envelope removed", "pending_out", ["verify:card"]],
  ["pending_out", "fresh card, same keys", "pending_out", []],
  ["pending_out", "fresh card, other keys", "pending_out", ["drop:key_changed!"]],
  ["pending_out", "bad signature", "pending_out", ["drop:unverified"]],
  ["pending_out", "unopenable", "pending_out", ["drop:unverified"]],
  ["pending_out", "request", "accepted", ["log_in", "save", "send_accept"]],
  ["pending_out", "accept", "accepted", ["save", "note_accepted", "log_in"]],
  ["pending_out", "message", "pending_out", ["drop:not_accepted"]],
  ["pending_out", "removed", "removed", ["log_in", "save", "note_removed"]],
  ["pending_out", "add", "pending_out", ["fetch_card"]],
  ["pending_out", "add own", "pending_out", ["refuse:own_address"]],
  ["pending_out", "add card", "pending_out", ["save", "send_request"]],
  ["pending_out", "accept request", "pending_out", ["refuse:no_pending"]],
  ["pending_out", "send", "pending_out", ["refuse:not_accepted_yet"]],
  ["pending_out", "block", "blocked", ["save"]],
  ["pending_out", "remove", "none", ["forget", "send_removed"]],
  // Accepted: pinned keys, a message gets a turn, a request gets an accept again.
  ["accepted", "envelope request", "accepted", ["verify:pinned"]],
  ["accepted", "envelope accept", "accepted", ["verify:pinned"]],
  ["accepted", "envelope message", "accepted", ["verify:pinned"]],
  ["accepted", "envelope removed", "accepted", ["verify:pinned"]],
  ["accepted", "fresh card, same keys", "accepted", []],
  ["accepted", "fresh card, other keys", "accepted", ["drop:key_changed!"]],
  ["accepted", "bad signature", "accepted", ["drop:key_changed!"]],
  ["accepted", "unopenable", "accepted", ["drop:unverified"]],
  ["accepted", "request", "accepted", ["log_in", "save", "send_accept"]],
  ["accepted", "accept", "accepted", ["log_in"]],
  ["accepted", "message", "accepted", ["answer"]],
  ["accepted", "removed", "removed", ["log_in", "save", "note_removed"]],
  ["accepted", "add", "accepted", []],
  ["accepted", "add own", "accepted", ["refuse:own_address"]],
  ["accepted", "add card", "accepted", []],
  ["accepted", "accept request", "accepted", []],
  ["accepted", "send", "accepted", ["send_message"]],
  ["accepted", "block", "blocked", ["save"]],
  ["accepted", "remove", "none", ["forget", "send_removed"]],
  // Blocked: nothing from it is read or answered; the owner may re-add or remove it.
  ["blocked", "envelope request", "blocked", ["drop:blocked"]],
  ["blocked", "envelope accept", "blocked", ["drop:blocked"]],
  ["blocked", "envelope message", "blocked", ["drop:blocked"]],
  ["blocked", "envelope removed", "blocked", ["drop:blocked"]],
  ["blocked", "fresh card, same keys", "blocked", ["drop:blocked"]],
  ["blocked", "fresh card, other keys", "blocked", ["drop:blocked"]],
  ["blocked", "bad signature", "blocked", ["drop:blocked"]],
  ["blocked", "unopenable", "blocked", ["drop:blocked"]],
  ["blocked", "request", "blocked", ["drop:blocked"]],
  ["blocked", "accept", "blocked", ["drop:blocked"]],
  ["blocked", "message", "blocked", ["drop:blocked"]],
  ["blocked", "removed", "blocked", ["drop:blocked"]],
  ["blocked", "add", "blocked", ["fetch_card"]],
  ["blocked", "add own", "blocked", ["refuse:own_address"]],
  ["blocked", "add card", "pending_out", ["save", "send_request"]],
  ["blocked", "accept request", "blocked", ["refuse:no_pending"]],
  ["blocked", "send", "blocked", ["refuse:not_accepted"]],
  ["blocked", "block", "blocked", ["save"]],
  ["blocked", "remove", "none", ["forget"]],
  // They removed this agent: a stranger again but for a new request, which the owner hears of.
  ["removed", "envelope request", "removed", ["verify:card"]],
  ["removed", "envelope accept", "removed", ["drop:stranger"]],
  ["removed", "envelope message", "removed", ["drop:stranger"]],
  ["removed", "envelope removed", "removed", ["drop:stranger"]],
  ["removed", "fresh card, same keys", "removed", []],
  ["removed", "fresh card, other keys", "removed", []],
  ["removed", "bad signature", "removed", ["drop:unverified"]],
  ["removed", "unopenable", "removed", ["drop:unverified"]],
  ["removed", "request", "pending_in", ["log_in", "save", "tell_owner"]],
  ["removed", "accept", "removed", ["drop:stranger"]],
  ["removed", "message", "removed", ["drop:stranger"]],
  ["removed", "removed", "removed", ["drop:stranger"]],
  ["removed", "add", "removed", ["fetch_card"]],
  ["removed", "add own", "removed", ["refuse:own_address"]],
  ["removed", "add card", "pending_out", ["save", "send_request"]],
  ["removed", "accept request", "removed", ["refuse:no_pending"]],
  ["removed", "send", "removed", ["refuse:removed_by_peer"]],
  ["removed", "block", "blocked", ["save"]],
  ["removed", "remove", "none", ["forget"]],
];

Deno.test("contactTransition() has exactly one row for every state and event", () => {
  const seen = new Set<string>();
  for (const [from, event] of TABLE) {
    const key = `${from} + ${event}`;
    assert.ok(!seen.has(key), `two rows for ${key}`);
    seen.add(key);
  }
  for (const from of STATES) {
    for (const event of Object.keys(EVENTS)) {
      assert.ok(seen.has(`${from} + ${event}`), `no row for ${from} + ${event}`);
    }
  }
  assert.equal(TABLE.length, STATES.length * Object.keys(EVENTS).length);
});

for (const [from, eventName, to, effects] of TABLE) {
  Deno.test(`contactTransition(): ${from} + ${eventName} -> ${to} [${effects.join(", ")}]`, () => {
    const before = slotIn(from);
    const frozen = structuredClone(before);
    const step = contactTransition(before, EVENTS[eventName]);
    assert.equal(step.state.state, to);
    assert.equal(step.state.address, ADDRESS);
    assert.deepEqual(step.effects.map(short), effects);
    // Pure: the slot given is never changed, and the same input gives the same output.
    assert.deepEqual(before, frozen);
    assert.deepEqual(contactTransition(before, EVENTS[eventName]), step);
    // A row that changes nothing hands back the very slot it was given.
    if (!effects.includes("save") && !effects.includes("forget")) assert.equal(step.state, before);
  });
}

/** The record of a step, for the rows that write one. */
function recordOf(from: StateName, event: ContactEvent): Contact {
  const state = contactTransition(slotIn(from), event).state;
  assert.notEqual(state.state, "none");
  return state as Contact;
}

Deno.test("contactTransition(): a new request keeps the card's keys, the note and a clean name", () => {
  assert.deepEqual(recordOf("none", EVENTS.request), {
    address: ADDRESS,
    name: "Bobby",
    state: "pending_in",
    ...KEYS,
    note: "hello",
    created_at: AT,
    updated_at: AT,
    accepted_at: null,
    request_told_at: AT,
  });
  const step = contactTransition(slotIn("none"), EVENTS.request);
  assert.deepEqual(step.effects, [
    { type: "log_in", text: "hello" },
    { type: "save" },
    { type: "tell_owner", name: "Bobby", text: "hello" },
  ]);
  // A repeated request refreshes the note and keeps when it first came.
  const again = recordOf("pending_in", EVENTS.request);
  assert.deepEqual([again.note, again.created_at, again.updated_at], ["hello", 100, AT]);
  // A name that is nothing but control characters falls back to the address.
  const blank = recordOf("none", { ...EVENTS.request, name: "\u0000\u001b " });
  assert.equal(blank.name, ADDRESS);
});

Deno.test("contactTransition(): accepting pins the stored keys and keeps the first acceptance time", () => {
  const both = recordOf("pending_out", EVENTS.request);
  assert.deepEqual([both.state, both.sign_key, both.accepted_at], ["accepted", KEYS.sign_key, AT]);
  const again = recordOf("accepted", EVENTS.request);
  assert.deepEqual([again.accepted_at, again.updated_at, again.name], [120, AT, "Bobby"]);
  const accepted = recordOf("pending_out", EVENTS.accept);
  assert.deepEqual([accepted.accepted_at, accepted.name, accepted.note], [AT, "Bobby", "old note"]);
  const owner = recordOf("pending_in", EVENTS["accept request"]);
  assert.deepEqual([owner.state, owner.accepted_at, owner.note], ["accepted", AT, "old note"]);
});

Deno.test("contactTransition(): the owner's sends carry what to put back when they fail", () => {
  const accept = contactTransition(slotIn("pending_in"), EVENTS["accept request"]);
  assert.deepEqual(accept.effects[1], { type: "send_accept", restore: slotIn("pending_in") });
  const add = contactTransition(slotIn("none"), EVENTS["add card"]);
  assert.deepEqual(add.effects[1], {
    type: "send_request",
    note: "new note",
    restore: { address: ADDRESS, state: "none" },
  });
  assert.deepEqual(add.state, {
    address: ADDRESS,
    name: "Bobby",
    state: "pending_out",
    ...OTHER_KEYS,
    note: "new note",
    created_at: AT,
    updated_at: AT,
    accepted_at: null,
  });
  // A re-add keeps when the contact first came, and takes the card's keys.
  const readd = recordOf("blocked", EVENTS["add card"]);
  assert.deepEqual([readd.created_at, readd.sign_key], [100, OTHER_KEYS.sign_key]);
  const reblocked = contactTransition(slotIn("blocked"), EVENTS["add card"]);
  assert.deepEqual(reblocked.effects[1], {
    type: "send_request",
    note: "new note",
    restore: slotIn("blocked"),
  });
});

Deno.test("contactTransition(): blocking a stranger keeps an empty record; blocking a contact keeps it", () => {
  assert.deepEqual(recordOf("none", EVENTS.block), {
    address: ADDRESS,
    name: ADDRESS,
    state: "blocked",
    sign_key: "",
    box_key: "",
    note: "",
    created_at: AT,
    updated_at: AT,
  });
  const blocked = recordOf("accepted", EVENTS.block);
  assert.deepEqual({ ...blocked, state: "accepted", updated_at: 150 }, slotIn("accepted"));
  assert.deepEqual(contactTransition(slotIn("accepted"), EVENTS.remove).state, {
    address: ADDRESS,
    state: "none",
  });
});

Deno.test("contactTransition(): a removal tells the other side with the record it forgot", () => {
  const step = contactTransition(slotIn("accepted"), EVENTS.remove);
  assert.deepEqual(step.effects, [
    { type: "forget" },
    { type: "send_removed", contact: slotIn("accepted") },
  ]);
  // The other side keeps its record (keys too) as removed.
  const removed = recordOf("accepted", EVENTS.removed);
  assert.deepEqual({ ...removed, state: "accepted", updated_at: 150 }, slotIn("accepted"));
  assert.equal(removed.updated_at, AT);
});

Deno.test("contactTransition(): a key served padded is the pinned key, compared as bytes", () => {
  const pinned = { ...slotIn("accepted"), sign_key: KEY_A, box_key: KEY_B } as ContactSlot;
  const padded = { sign_key: `${KEY_A}=`, box_key: `${KEY_B}=` };
  assert.deepEqual(contactTransition(pinned, { type: "fresh_card", keys: padded }).effects, []);
  const other = { sign_key: KEY_B, box_key: KEY_B };
  assert.deepEqual(
    contactTransition(pinned, { type: "fresh_card", keys: other }).effects.map((e) => e.type),
    ["drop"],
  );
});

Deno.test("contactTransition(): a stranger asking, removing itself and asking again is told of once a day (N1)", () => {
  const DAY = 86_400;
  const request = (at: number) =>
    ({ type: "request", name: "Spam", text: "let me in", keys: KEYS, at }) as const;
  let slot: ContactSlot = { address: ADDRESS, state: "none" };
  const told: number[] = [];
  // Every ten minutes for two days: request, then contact_removed.
  for (let at = AT; at < AT + 2 * DAY; at += 600) {
    const asked = contactTransition(slot, request(at));
    if (asked.effects.some((e) => e.type === "tell_owner")) told.push(at);
    assert.equal(asked.state.state, "pending_in");
    slot = contactTransition(asked.state, { type: "removed", at: at + 1 }).state;
    assert.equal(slot.state, "removed");
  }
  assert.deepEqual(told, [AT, AT + DAY]);
  // A repeat while pending never tells, and keeps when the owner was told.
  const pending = contactTransition({ address: ADDRESS, state: "none" }, request(AT)).state;
  const again = contactTransition(pending, request(AT + 2 * DAY));
  assert.deepEqual(again.effects.map(short), ["log_in", "save"]);
  assert.equal((again.state as Contact).request_told_at, AT);
  // Once the owner accepted it, a request after it removed this agent is told at once.
  const accepted = contactTransition(pending, { type: "accept_request", at: AT + 5 }).state;
  assert.equal((accepted as Contact).request_told_at, undefined);
  const gone = contactTransition(accepted, { type: "removed", at: AT + 10 }).state;
  assert.deepEqual(contactTransition(gone, request(AT + 20)).effects.map(short), [
    "log_in",
    "save",
    "tell_owner",
  ]);
});
