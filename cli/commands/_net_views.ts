/**
 * The `agent net` subcommands that show state: `status`, `contacts` and `log`.
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UsageError } from "../command.ts";
import { formatTime, oneLine, printable } from "@agent/hub/base";
import { errorMessage } from "@agent/net/common";
import {
  type Contact,
  describeMissing,
  loadIdentity,
  type NetLogEntry,
  type NetState,
  openNetwork,
  openState,
  SpineError,
  UNREADABLE_SUFFIX,
} from "@agent/hub/network";
import { t } from "./_net_messages.ts";

/** `agent net status`. */
export async function status(ctx: CommandContext): Promise<number> {
  const lang = ctx.lang;
  const config = await ctx.config();
  let identityError: string | undefined;
  const loaded = await loadIdentity(ctx.paths, ctx.env).catch((error: Error) => {
    identityError = error.message;
    return undefined;
  });
  ctx.out(
    identityError !== undefined
      ? t(lang, "s_identity_bad", { detail: identityError })
      : loaded === undefined
      ? t(lang, "s_identity_none")
      : t(lang, "s_identity", {
        source: loaded.source === "env" ? "AGENT_NET_IDENTITY" : "file",
        file: loaded.file,
        key: loaded.identity.signKey,
      }),
  );
  const opened = identityError !== undefined ? undefined : await openNetwork({
    config,
    env: ctx.env,
    paths: ctx.paths,
    logger: ctx.logger,
  }).catch(() => undefined);
  const state = await stateOf(ctx);
  if (opened?.ok) {
    const node = opened.node;
    try {
      const health = await node.health(AbortSignal.timeout(10_000));
      ctx.out(t(lang, "s_spine", {
        url: node.spine.url,
        address: health.address,
        mode: health.mode,
        mailbox: health.mailbox,
        version: health.version,
      }));
      // A spine that answers without a card (404, or any refusal) shows none.
      const card = await node.spine.publishedCard({ timeoutMs: 10_000 }).catch((error) => {
        if (error instanceof SpineError && error.status >= 300) return undefined;
        throw error;
      });
      if (card === undefined) {
        ctx.out(t(lang, "s_card_none"));
      } else {
        const want = await node.cardInput();
        const differs = (["name", "sign_key", "box_key"] as const).filter((k) =>
          card[k] !== want[k]
        );
        ctx.out(
          differs.length === 0
            ? t(lang, "s_card_ok", { name: want.name })
            : t(lang, "s_card_differs", { what: differs.join(", ") }),
        );
      }
    } catch (error) {
      ctx.out(
        error instanceof SpineError && error.status === 401
          ? t(lang, "s_spine_401", { url: node.spine.url })
          : t(lang, "s_spine_down", { url: node.spine.url, detail: errorMessage(error) }),
      );
    }
  } else if (opened !== undefined && opened.missing !== "identity") {
    ctx.out(t(lang, "s_spine_none", { missing: describeMissing(opened.missing, lang) }));
  } else if (!ctx.env.AGENT_SPINE_URL || !ctx.env.AGENT_SPINE_TOKEN) {
    const missing = ["AGENT_SPINE_URL", "AGENT_SPINE_TOKEN"].filter((k) => !ctx.env[k]);
    ctx.out(t(lang, "s_spine_none", { missing: missing.join(", ") }));
  } else {
    ctx.out(t(lang, "s_spine_set", { url: ctx.env.AGENT_SPINE_URL }));
  }
  const all = await state.contacts();
  const n = (s: Contact["state"]) => all.filter((c) => c.state === s).length;
  ctx.out(t(lang, "s_contacts", {
    accepted: n("accepted"),
    pending_in: n("pending_in"),
    pending_out: n("pending_out"),
    removed: n("removed"),
    blocked: n("blocked"),
  }));
  ctx.out(t(lang, "s_store", { where: state.where, store: config.net.store }));
  const waiting = (await state.outbox()).filter((e) => e.state === "pending").length;
  ctx.out(t(lang, "s_outbox", { n: waiting }));
  for (const file of await unreadableFiles(state.where)) {
    ctx.out(t(lang, "s_unreadable", { file }));
  }
  return 0;
}

/** Documents the store moved aside because they were not JSON. */
async function unreadableFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.includes(UNREADABLE_SUFFIX)) files.push(`${dir}/${e.name}`);
    }
  } catch { /* no folder yet (or spine store) */ }
  return files.sort();
}

/** `agent net contacts`. */
export async function contacts(ctx: CommandContext): Promise<number> {
  const all = await (await stateOf(ctx)).contacts();
  if (all.length === 0) {
    ctx.out(t(ctx.lang, "no_contacts"));
    return 0;
  }
  const order = ["pending_in", "accepted", "pending_out", "removed", "blocked"];
  all.sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
  for (const c of all) {
    // Names and notes are other agents' text: escapes and bidi controls are shown, not run.
    const note = c.note ? ` · ${printable(oneLine(c.note, { max: 80, ellipsis: true }))}` : "";
    ctx.out(`${c.state.padEnd(11)} ${c.address}  ${printable(c.name)}${note}`);
    // Where the other side stands, as far as this side knows it.
    ctx.out(t(ctx.lang, `side_${c.state}`, { address: c.address }));
    if (c.state === "pending_in") ctx.out(t(ctx.lang, "pending_hint", { address: c.address }));
  }
  return 0;
}

/** `agent net log [--address ADDRESS] [-n N]`. */
export async function log(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<number> {
  let n = 20;
  if (opts.n !== undefined) {
    n = Number(opts.n);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(t(ctx.lang, "bad_n"));
  }
  let entries = await (await stateOf(ctx)).log();
  if (typeof opts.address === "string") {
    entries = entries.filter((e) => e.address === opts.address);
  }
  entries = entries.slice(-n);
  if (entries.length === 0) {
    ctx.out(t(ctx.lang, "log_empty"));
    return 0;
  }
  for (const e of entries) ctx.out(logLine(e));
  return 0;
}

/**
 * One log line: `<time> <in|out> <who> <kind>: <text>`, where `<who>` is
 * `<address> (/<name>)` for one of this agent's sub-agents and `<address>/<name>` for
 * one of the other agent's.
 */
export function logLine(e: NetLogEntry): string {
  const who = e.own_sub !== undefined
    ? `${e.address} (/${e.own_sub})`
    : e.peer_sub !== undefined
    ? `${e.address}/${e.peer_sub}`
    : e.address;
  const ms = e.ts > 1e12 ? e.ts : e.ts * 1000;
  const arrow = e.direction === "in" ? "in " : "out";
  return `${formatTime(ms)} ${arrow} ${who} ${e.kind}${
    e.text ? `: ${printable(oneLine(e.text, { max: 300, ellipsis: true }))}` : ""
  }`;
}

/** The network state, where `[net] store` keeps it. */
export async function stateOf(ctx: CommandContext): Promise<NetState> {
  return openState(await ctx.config(), ctx.env, ctx.paths);
}
