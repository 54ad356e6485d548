/**
 * What each `agent net` subcommand does, one handler per subcommand in
 * {@linkcode NET_ACTIONS} (loaded only when `agent net` runs), and how the network's
 * errors reach the user ({@linkcode netFailure}).
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UsageError, UserError } from "../command.ts";
import { isAddress, isCardName, MESSAGE_TEXT_MAX, splitTarget } from "@agent/net";
import {
  blockContact,
  IdentityFileError,
  initIdentity,
  NetUsageError,
  openNetwork,
  OwnSpineError,
  type SendOutcome,
  SpineError,
} from "@agent/hub/network";
import { formatCount, type Lang } from "@agent/hub/base";
import { contacts, log, stateOf, status } from "./_net_views.ts";
import { t } from "./_net_messages.ts";
import { spineAction } from "./_net_spine.ts";
import { universeAction } from "./_net_universe.ts";
import { needNode, netOptions } from "./_net_node.ts";

/** A subcommand of `agent net`: the words after it and its options, to an exit code. */
export type NetAction = (
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
) => Promise<number>;

/** Every `agent net` subcommand, by its word (commander declares them in `net.ts`). */
export const NET_ACTIONS: Readonly<Record<string, NetAction>> = {
  init,
  name,
  status,
  card,
  publish,
  contacts,
  add,
  accept,
  block,
  remove,
  send,
  log,
  poll,
  spine: spineAction,
  universe: universeAction,
};

/**
 * The error to throw for what a subcommand threw: the network's refusals and spine
 * failures become the sentence the user reads (exit 1); anything else is left as it is.
 */
export function netFailure(ctx: CommandContext, error: unknown): unknown {
  if (error instanceof NetUsageError) return new UserError(error.sentence(ctx.lang), 1);
  if (error instanceof OwnSpineError) {
    return new UserError(t(ctx.lang, "own_spine_down", { url: error.url, detail: error.detail }));
  }
  if (error instanceof SpineError) {
    return new UserError(
      error.status === 401
        ? t(ctx.lang, "unauthorized")
        : t(ctx.lang, "spine_failed", { detail: error.message }),
    );
  }
  if (error instanceof IdentityFileError) return new UserError(error.message);
  return error;
}

async function init(ctx: CommandContext, _args: string[], opts: Record<string, unknown>) {
  let name: string | undefined;
  if (typeof opts.name === "string") name = checkName(ctx, opts.name);
  const result = await initIdentity(ctx.paths, ctx.env);
  ctx.out(
    result.created
      ? t(ctx.lang, "created", { file: result.file })
      : t(ctx.lang, "exists", { source: result.source, file: result.file }),
  );
  if (name !== undefined) await setName(ctx, name);
  return 0;
}

async function name(ctx: CommandContext, args: string[]) {
  await setName(ctx, checkName(ctx, args.join(" ")));
  return 0;
}

async function setName(ctx: CommandContext, name: string): Promise<void> {
  const state = await stateOf(ctx);
  await state.setProfile({ ...await state.profile(), name });
  ctx.out(t(ctx.lang, "name_set", { name }));
}

async function card(ctx: CommandContext) {
  const node = await needNode(ctx);
  const card = await node.spine.publishedCard({ timeoutMs: 10_000 });
  if (card === undefined) throw new UserError(t(ctx.lang, "no_card"));
  ctx.out(JSON.stringify(card, null, 2));
  return 0;
}

async function publish(ctx: CommandContext) {
  const card = await (await needNode(ctx)).publish();
  ctx.out(t(ctx.lang, "published", { address: card.address, name: card.name }));
  return 0;
}

async function add(ctx: CommandContext, args: string[], opts: Record<string, unknown>) {
  const address = checkAddress(ctx, args[0]);
  const node = await needNode(ctx);
  const contact = await node.add(address, typeof opts.note === "string" ? opts.note : "");
  const key = contact.state === "accepted" ? "accepted" : "requested";
  ctx.out(t(ctx.lang, key, { address, name: contact.name }));
  return 0;
}

async function accept(ctx: CommandContext, args: string[]) {
  const address = checkAddress(ctx, args[0]);
  const contact = await (await needNode(ctx)).accept(address);
  ctx.out(t(ctx.lang, "accepted", { address, name: contact.name }));
  return 0;
}

async function block(ctx: CommandContext, args: string[]) {
  const address = checkAddress(ctx, args[0]);
  await blockContact(await stateOf(ctx), address, Math.floor(Date.now() / 1000));
  ctx.out(t(ctx.lang, "blocked", { address }));
  return 0;
}

async function remove(ctx: CommandContext, args: string[]) {
  const address = checkAddress(ctx, args[0]);
  const opened = await openNetwork(await netOptions(ctx));
  // Offline (no spine or identity here) the contact is only forgotten.
  const outcome = opened.ok
    ? await opened.node.removeAndTell(address)
    : { removed: await (await stateOf(ctx)).removeContact(address) };
  if (!outcome.removed) throw new UserError(t(ctx.lang, "not_known", { address }));
  const key = "told" in outcome && outcome.told !== undefined
    ? outcome.told ? "removed_told" : "later" in outcome ? "removed_later" : "removed_untold"
    : "removed";
  ctx.out(t(ctx.lang, key, { address }));
  return 0;
}

async function send(ctx: CommandContext, args: string[]) {
  const target = splitTarget(args[0] ?? "");
  if (target === undefined) {
    throw new UsageError(t(ctx.lang, "bad_target", { value: args[0] ?? "" }));
  }
  const text = args.slice(1).join(" ");
  if (Array.from(text).length > MESSAGE_TEXT_MAX) {
    throw new UsageError(t(ctx.lang, "too_long", { max: formatCount(MESSAGE_TEXT_MAX, ctx.lang) }));
  }
  const node = await needNode(ctx);
  let sent: SendOutcome;
  try {
    sent = await node.send(target.address, text, target.sub);
  } catch (error) {
    // Our request is pending: the answer may be waiting at the spine (the other side
    // accepted a moment ago). Without a hub to hear it, one poll learns it first.
    if (!(error instanceof NetUsageError) || error.key !== "not_accepted_yet") throw error;
    if (await pollWith(ctx, node) === undefined) throw error;
    sent = await node.send(target.address, text, target.sub);
  }
  ctx.out(sentLine(ctx.lang, args[0]!, sent, Math.floor(Date.now() / 1000)));
  return 0;
}

/**
 * What `agent net send` says: sent, or not yet and why, naming the culprit (the peer's
 * rate limit with the retry time, the peer's error, or no answer).
 */
export function sentLine(lang: Lang, target: string, sent: SendOutcome, nowSec: number): string {
  const later = sent.later;
  if (sent.delivery !== "pending" || later === undefined) {
    return t(lang, sent.delivery === "pending" ? "sent_later" : "sent", { target, id: sent.id });
  }
  const when = {
    target,
    id: sent.id,
    wait: Math.max(0, later.retry_at - nowSec),
    at: new Date(later.retry_at * 1000).toISOString().slice(11, 19),
  };
  switch (later.why) {
    case "rate_limited":
      return t(lang, "sent_rate_limited", when);
    case "peer_error":
      return t(lang, "sent_peer_error", {
        ...when,
        status: later.status,
        code: later.code ? ` ${later.code}` : "",
      });
    default:
      return t(lang, "sent_later", when);
  }
}

function poll(ctx: CommandContext, _args: string[], opts: Record<string, unknown>) {
  if (opts.once !== true) throw new UsageError(t(ctx.lang, "poll_once"));
  return pollOnce(ctx);
}

async function pollOnce(ctx: CommandContext): Promise<number> {
  const { liveLock } = await import("@agent/hub/daemon");
  const running = liveLock(ctx.paths.hubLockFile);
  if (running !== undefined) {
    // Two pollers would handle the same envelopes side by side.
    throw new UserError(t(ctx.lang, "hub_polls", { pid: running.pid }));
  }
  const polled = await pollWith(ctx, await needNode(ctx));
  ctx.out(t(ctx.lang, "polled", polled!));
  return 0;
}

/**
 * Fetches and handles what waits at the spine once, as a hub would, and sends what the
 * outbox holds; `undefined` (nothing done) while a hub runs: it polls itself.
 */
async function pollWith(
  ctx: CommandContext,
  node: Awaited<ReturnType<typeof needNode>>,
): Promise<{ handled: number; dropped: number } | undefined> {
  const { liveLock } = await import("@agent/hub/daemon");
  if (liveLock(ctx.paths.hubLockFile) !== undefined) return undefined;
  const { startHub } = await import("@agent/hub/run");
  const hub = await startHub({
    config: await ctx.config(),
    env: ctx.env,
    paths: ctx.paths,
    lang: ctx.lang,
    logger: ctx.logger,
    services: [],
    node,
  });
  let handled: number;
  let dropped: number;
  try {
    ({ handled, dropped } = await hub.context.network.pollOnce());
    // Without a hub, nobody else retries what the outbox holds.
    await hub.context.network.flushOutbox();
  } finally {
    await hub.close();
  }
  return { handled, dropped };
}

function checkName(ctx: CommandContext, name: string): string {
  const clean = name.trim();
  if (!isCardName(clean)) throw new UsageError(t(ctx.lang, "bad_name"));
  return clean;
}

function checkAddress(ctx: CommandContext, value: string | undefined): string {
  if (value === undefined || !isAddress(value)) {
    throw new UsageError(t(ctx.lang, "bad_address", { value: value ?? "" }));
  }
  return value;
}
