/**
 * Handling one fetched envelope: the hub re-verifies everything its spine accepted
 * (signature with the pinned key or a fresh card, `to`, handled ids), opens the box,
 * moves the contact's state, and answers messages from accepted contacts with a
 * network turn.
 *
 * @module
 */
import {
  type ContactAcceptPlaintext,
  type ContactRequestPlaintext,
  deriveEnvelopeId,
  type EnvelopePayload,
  errorMessage,
  type MessagePlaintext,
  parseWireEnvelope,
  verifyAndOpen,
} from "@agent/net";
import type { Contact } from "./store/mod.ts";
import {
  type ContactEffect,
  type ContactEvent,
  type ContactKeys,
  contactOf,
  contactSlot,
  type ContactStep,
  contactTransition,
} from "./contact_machine.ts";
import type { NetNode } from "./node.ts";
import { enqueue, replyFor, sendThroughOutbox } from "./outbox.ts";
import { oneLine, printable } from "../text.ts";
import type { Update } from "./spine_client.ts";
import { noPublicSubLine, subRole, type TurnAnswerer } from "./turn_types.ts";
import type { AnsweredMessage } from "./digest.ts";

/** What became of one envelope. */
export type Handled =
  | { outcome: "handled"; kind: string; from: string; replied?: string }
  | { outcome: "dropped"; reason: string; from?: string };

/** What handling needs besides the node: who answers a message. */
export interface HandleDeps {
  node: NetNode;
  /** Answers a message from an accepted contact (the hub gives a network turn). */
  answer: TurnAnswerer;
  /** Told of every message the agent answered (the owner's network digest). */
  onAnswered?: ((message: AnsweredMessage) => Promise<void>) | undefined;
}

/** Handles one update. Never throws for the envelope's content; a store failure does throw. */
export async function handleUpdate(deps: HandleDeps, update: Update): Promise<Handled> {
  const { node } = deps;
  const parsed = parseWireEnvelope(update.envelope);
  if (!parsed.ok) {
    return await drop(deps, `malformed envelope (seq ${update.seq}): ${parsed.detail}`);
  }
  const p = parsed.payload;
  const own = await node.address();
  if (p.to !== own) return await drop(deps, `wrong recipient ${p.to} (from ${p.from})`, p.from);
  if (await node.state.seen(p.from, p.id)) {
    // Logged like every drop (hub-side error 3); the count stays: it was counted once.
    node.logger.info(`network: dropped already handled: ${p.from} ${p.id}`);
    return { outcome: "dropped", reason: "already handled", from: p.from };
  }
  const contact = await node.state.contact(p.from);
  const slot = contactSlot(p.from, contact);
  // Strangers and blocked senders go before any card fetch.
  const screened = contactTransition(slot, { type: "envelope", kind: p.kind });
  const verify = screened.effects.find((e) => e.type === "verify");
  if (verify === undefined) return await dropAs(deps, p, screened.effects);

  let signKey: string;
  let fresh: { name: string; sign_key: string; box_key: string } | undefined;
  if (verify.keys === "pinned") {
    signKey = contact!.sign_key;
  } else {
    try {
      fresh = await node.fetchCard(p.from);
    } catch (error) {
      // A verification failure like any other: dropped and acknowledged (a stuck envelope
      // would otherwise come back in every batch).
      return await drop(deps, `${p.kind} ${p.id}: ${errorMessage(error)}`, p.from);
    }
    const checked = contactTransition(slot, { type: "fresh_card", keys: fresh });
    if (checked.effects.length > 0) return await dropAs(deps, p, checked.effects);
    signKey = fresh.sign_key;
  }

  const opened = await verifyAndOpen(parsed, signKey, node.identity);
  if (!opened.ok) {
    const failed = contactTransition(slot, { type: "unverified", reason: opened.reason });
    return await dropAs(deps, p, failed.effects, opened.reason);
  }
  // A message is counted once it is known not to be for an unknown sub-agent.
  if (p.kind !== "message") await node.state.count({ received: 1 });
  const step = contactTransition(
    slot,
    verifiedEvent(p, opened.plaintext, fresh ?? contact!, node.nowSec()),
  );
  if (step.effects.some((e) => e.type === "drop")) return await dropAs(deps, p, step.effects);
  if (step.effects.some((e) => e.type === "answer")) {
    const replied = await onMessage(deps, p, opened.plaintext as MessagePlaintext, contact!);
    await node.state.markSeen(p.from, p.id);
    if (replied === NO_PUBLIC_SUB) {
      return { outcome: "dropped", reason: "no public sub-agent", from: p.from };
    }
    return replied === undefined
      ? { outcome: "handled", kind: p.kind, from: p.from }
      : { outcome: "handled", kind: p.kind, from: p.from, replied };
  }
  await apply(deps, p, step);
  await node.state.markSeen(p.from, p.id);
  return { outcome: "handled", kind: p.kind, from: p.from };
}

/** The contact machine's event for a verified, opened envelope. */
function verifiedEvent(
  p: EnvelopePayload,
  plaintext: unknown,
  keys: ContactKeys,
  at: number,
): ContactEvent {
  switch (p.kind) {
    case "contact_request": {
      const plain = plaintext as ContactRequestPlaintext;
      return { type: "request", name: plain.name, text: plain.text, keys, at };
    }
    case "contact_accept":
      return { type: "accept", name: (plaintext as ContactAcceptPlaintext).name, at };
    case "message":
      return { type: "message" };
    case "contact_removed":
      return { type: "removed", at };
  }
}

/** Carries out what the contact machine said of a request or an accept, in order. */
async function apply(deps: HandleDeps, p: EnvelopePayload, step: ContactStep): Promise<void> {
  const { node } = deps;
  const contact = contactOf(step.state);
  for (const effect of step.effects) {
    switch (effect.type) {
      case "log_in":
        await logIn(deps, p, effect.text);
        break;
      case "save":
        await node.state.saveContact(contact!);
        break;
      case "tell_owner":
        await tellOwner(deps, p.from, effect.name, effect.text);
        break;
      case "note_accepted":
        node.logger.info(`network: ${p.from} accepted the contact request`);
        break;
      case "note_removed":
        node.logger.info(
          `network: ${p.from} removed this agent as a contact; 'agent net add ${p.from}' asks again`,
        );
        break;
      case "send_accept":
        await sendAccept(deps, contact!, p);
        break;
      default:
        throw new Error(`Cannot handle ${p.kind} ${p.id}: no handling for ${effect.type}`);
    }
  }
}

/** Drops an envelope for the reason the contact machine gave. */
async function dropAs(
  deps: HandleDeps,
  p: EnvelopePayload,
  effects: ContactEffect[],
  unverified = "",
): Promise<Handled> {
  const effect = effects.find((e) => e.type === "drop");
  if (effect === undefined) {
    throw new Error(
      `Cannot handle ${p.kind} ${p.id}: the contact machine neither verifies nor drops it`,
    );
  }
  const reason = {
    blocked: `blocked sender ${p.from} (${p.kind})`,
    stranger: `${p.kind} from a stranger ${p.from}`,
    not_accepted: `${p.kind} from ${p.from} before the contact was accepted`,
    key_changed: `key changed (${p.from})`,
    unverified: `${unverified} ${p.kind} ${p.id} from ${p.from}`,
  }[effect.why];
  if (effect.warn) {
    deps.node.logger.warn(`network: key changed for ${p.from}; ${p.kind} ${p.id} dropped`);
  }
  return await dropSeen(deps, p, reason, effect.warn);
}

/** What {@linkcode onMessage} returns for a message to an unknown or private sub-agent. */
const NO_PUBLIC_SUB = Symbol("no public sub-agent");

async function onMessage(
  deps: HandleDeps,
  p: EnvelopePayload,
  plain: MessagePlaintext,
  contact: Contact,
): Promise<string | undefined | typeof NO_PUBLIC_SUB> {
  const { node } = deps;
  // Handled before a crash: its reply is in the outbox. Send that (or nothing, when it
  // went out), never a second answer from the model.
  const roles = subRole(p.hops, plain.sub);
  const prior = await replyFor(node, p.from, p.id);
  if (prior !== undefined) {
    // The log line and the count may not have been written before the crash.
    await countIn(deps, p, plain.text, roles);
    if (prior.state === "pending") await sendReply(deps, p, prior);
    return prior.id;
  }
  const history = (await node.state.log()).filter((e) => e.address === p.from);
  let outcome;
  try {
    outcome = await deps.answer({
      ownAddress: await node.address(),
      contact: { address: contact.address, name: contact.name },
      envelope: { id: p.id, thread: p.thread, hops: p.hops, from: p.from },
      text: plain.text,
      sub: plain.sub,
      history,
      sessionId: (key) => node.state.sessionFor(key),
    }, {
      autoRepliesLastHour: (address) => node.state.autoRepliesLastHour(address, node.nowSec()),
    });
  } catch (error) {
    await countIn(deps, p, plain.text, roles);
    node.logger.error(
      `network: no answer to ${p.from} (${p.id}): ${errorMessage(error)}`,
    );
    return undefined;
  }
  if (outcome.kind === "skip" && outcome.reason === "no_public_sub") {
    // Document 2, sub-agent turns, rule 2: dropped and logged at the level of a
    // stranger's message (info); not in the network log, not counted, and never
    // answered: no envelope goes back, so the sender learns nothing of which
    // sub-agents exist here, public or private.
    const sub = outcome.sub ?? plain.sub ?? "";
    node.logger.info(`network: dropped ${noPublicSubLine(sub)} (from ${p.from})`);
    return NO_PUBLIC_SUB;
  }
  if (outcome.kind === "skip") {
    await countIn(deps, p, plain.text, roles);
    node.logger.info(`network: no reply to ${p.from} (${p.id}): ${outcome.reason}`);
    return undefined;
  }
  // Written down the moment the model answered, before anything else is written, and
  // posted after: a crash from here on sends this reply, never a second answer.
  const reply = await enqueue(node, {
    id: outcome.replyId,
    to: contact.address,
    box_key: contact.box_key,
    kind: "message",
    plaintext: outcome.sub === undefined
      ? { text: outcome.text }
      : { text: outcome.text, sub: outcome.sub },
    thread: outcome.thread,
    reply_to: outcome.reply_to,
    hops: outcome.hops,
    answers: p.id,
    auto_reply: true,
    log: {
      text: outcome.text,
      ...(outcome.own_sub === undefined ? {} : { own_sub: outcome.own_sub }),
      ...(outcome.peer_sub === undefined ? {} : { peer_sub: outcome.peer_sub }),
    },
  });
  await countIn(deps, p, plain.text, roles);
  await sendReply(deps, p, reply);
  await tellAnswered(deps, {
    address: p.from,
    name: contact.name,
    thread: p.thread,
    asked: plain.text,
    answered: outcome.text,
  });
  return outcome.replyId;
}

/** The owner's digest hears of the answer; a failure there is logged, never thrown. */
async function tellAnswered(deps: HandleDeps, message: AnsweredMessage): Promise<void> {
  try {
    await deps.onAnswered?.(message);
  } catch (error) {
    deps.node.logger.warn(`network: the digest could not record: ${errorMessage(error)}`);
  }
}

async function sendReply(
  deps: HandleDeps,
  p: EnvelopePayload,
  entry: Parameters<typeof sendThroughOutbox>[1],
): Promise<void> {
  const { node } = deps;
  try {
    const result = await sendThroughOutbox(node, entry);
    if (result === "pending") {
      node.logger.warn(`network: reply to ${p.from} not delivered yet; the outbox retries it`);
    }
  } catch (error) {
    node.logger.error(`network: reply to ${p.from} refused: ${errorMessage(error)}`);
  }
}

async function sendAccept(deps: HandleDeps, contact: Contact, p: EnvelopePayload) {
  const { node } = deps;
  try {
    // A deterministic id: a re-handled request cannot send a second accept.
    const id = await deriveEnvelopeId(["accept", await node.address(), p.from, p.id]);
    const sent = await node.deliver("contact_accept", contact, { name: await node.cardName() }, {
      id,
      thread: p.thread,
      reply_to: p.id,
    });
    await node.logOut(contact.address, "contact_accept", sent.id, sent.thread, "");
  } catch (error) {
    node.logger.error(
      `network: contact_accept to ${p.from} not delivered: ${errorMessage(error)}`,
    );
  }
}

async function tellOwner(deps: HandleDeps, address: string, name: string, text: string) {
  const { node } = deps;
  // The log is read in a terminal: another agent's text never carries an escape there.
  node.logger.warn(
    `network: contact request from ${printable(name)} (${address})${
      text ? `: ${printable(oneLine(text, { max: 200 }))}` : ""
    }; accept with 'agent net accept ${address}'`,
  );
  try {
    await node.events.publish({
      ts: node.nowSec(),
      type: "net.contact_request",
      address,
      name,
      text: oneLine(text, { max: 1000 }),
    });
  } catch (error) {
    node.logger.warn(`network: cannot record the event: ${errorMessage(error)}`);
  }
}

/**
 * Counts a message in and logs it, once: a message handled again after a crash finds
 * its log entry and is not counted twice.
 */
async function countIn(
  deps: HandleDeps,
  p: EnvelopePayload,
  text: string,
  subs: { own_sub?: string; peer_sub?: string },
): Promise<void> {
  const { node } = deps;
  const logged = (await node.state.log()).some((e) =>
    e.direction === "in" && e.id === p.id && e.address === p.from
  );
  if (logged) return;
  await node.state.count({ received: 1 }, { peer: p.from, direction: "in" });
  await logIn(deps, p, text, subs);
}

async function logIn(
  deps: HandleDeps,
  p: EnvelopePayload,
  text: string,
  subs: { own_sub?: string; peer_sub?: string } = {},
): Promise<void> {
  await deps.node.state.appendLog({
    ts: p.ts,
    direction: "in",
    address: p.from,
    kind: p.kind,
    id: p.id,
    thread: p.thread,
    text,
    ...subs,
  });
}

async function drop(deps: HandleDeps, reason: string, from?: string): Promise<Handled> {
  deps.node.logger.info(`network: dropped ${reason}`);
  await deps.node.state.count({ dropped: 1 });
  return from === undefined ? { outcome: "dropped", reason } : { outcome: "dropped", reason, from };
}

async function dropSeen(
  deps: HandleDeps,
  p: EnvelopePayload,
  reason: string,
  warned = false,
): Promise<Handled> {
  if (!warned) deps.node.logger.info(`network: dropped ${reason}`);
  await deps.node.state.count({ dropped: 1 });
  await deps.node.state.markSeen(p.from, p.id);
  return { outcome: "dropped", reason, from: p.from };
}
