/**
 * A message to a sub-agent that is not public here (unknown and private look the same)
 * is refused rather than left to wait: the sender gets a `message` with `error:
 * no_public_sub`, and the sender's hub tells its owner (`net.peer_error`).
 *
 * @module
 */
import { deriveEnvelopeId, type EnvelopePayload, errorMessage } from "@agent/net";
import { peerErrorSentence } from "../events/mod.ts";
import type { NetNode } from "./node.ts";
import { enqueue } from "./outbox.ts";
import type { Contact, OutboxEntry } from "./store/mod.ts";

/**
 * The refusal to send for a message to `/<sub>`, written into the outbox (with a
 * deterministic id, so a re-handled message finds it); `undefined` past `max_hops` or
 * the hourly auto-reply limit.
 */
export async function refusalFor(
  node: NetNode,
  p: EnvelopePayload,
  contact: Contact,
  sub: string,
): Promise<OutboxEntry | undefined> {
  const net = node.config.net;
  if (p.hops + 1 > net.max_hops) return undefined;
  const sent = await node.state.autoRepliesLastHour(p.from, node.nowSec());
  if (sent >= net.max_auto_replies_per_hour) return undefined;
  const own = await node.address();
  // Read by another agent (and its owner's log): English, as the network frame is.
  const text =
    `There is no public sub-agent /${sub} at ${own}: the message was not read. Write to ${own} for the agent itself.`;
  return await enqueue(node, {
    id: await deriveEnvelopeId(["no_public_sub", own, p.from, p.id]),
    to: contact.address,
    box_key: contact.box_key,
    kind: "message",
    plaintext: { text, sub, error: "no_public_sub" },
    thread: p.thread,
    reply_to: p.id,
    hops: p.hops + 1,
    answers: p.id,
    auto_reply: true,
    log: { text },
  });
}

/** The owner hears that `address` refused their message to `/<sub>` (a log line and an event). */
export async function tellPeerError(
  node: NetNode,
  address: string,
  sub: string,
  code: string,
): Promise<void> {
  node.logger.warn(`network: ${address} refused the message to /${sub}: ${code}`);
  try {
    await node.events.publish({
      ts: node.nowSec(),
      type: "net.peer_error",
      address,
      sub,
      code,
      text: peerErrorSentence(node.lang, { address, sub, code }),
    });
  } catch (error) {
    node.logger.warn(`network: cannot record the event: ${errorMessage(error)}`);
  }
}
