/**
 * What each `agent net` subcommand does (loaded only when `agent net` runs).
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UsageError } from "../command.ts";
import { formatTime } from "@agent/hub/base";
import { errorMessage, isAddress, isCardName, MESSAGE_TEXT_MAX, splitTarget } from "@agent/net";
import {
  blockContact,
  type Contact,
  describeMissing,
  fetchAndHandle,
  initIdentity,
  loadIdentity,
  type NetLogEntry,
  type NetNode,
  type NetState,
  openNetwork,
  openState,
  SpineError,
  UNREADABLE_SUFFIX,
} from "@agent/hub";
import { t } from "./_net_messages.ts";

/** Runs `agent net <sub>`. */
export async function runNet(
  ctx: CommandContext,
  sub: string,
  args: string[],
  opts: Record<string, unknown>,
): Promise<number> {
  const lang = ctx.lang;
  switch (sub) {
    case "init": {
      let name: string | undefined;
      if (typeof opts.name === "string") name = checkName(ctx, opts.name);
      const result = await initIdentity(ctx.paths, ctx.env);
      ctx.out(
        result.created
          ? t(lang, "created", { file: result.file })
          : t(lang, "exists", { source: result.source, file: result.file }),
      );
      if (name !== undefined) {
        const state = await stateOf(ctx);
        await state.setProfile({ ...await state.profile(), name });
        ctx.out(t(lang, "name_set", { name }));
      }
      return 0;
    }
    case "name": {
      const name = checkName(ctx, args.join(" "));
      const state = await stateOf(ctx);
      await state.setProfile({ ...await state.profile(), name });
      ctx.out(t(lang, "name_set", { name }));
      return 0;
    }
    case "status":
      return await status(ctx);
    case "card": {
      const node = await needNode(ctx);
      let res: Response;
      try {
        res = await fetch(`${node.spine.url}/.well-known/agent.json`, {
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        const detail = `GET /.well-known/agent.json: ${errorMessage(error)}`;
        ctx.err(t(lang, "spine_failed", { detail }));
        return 1;
      }
      if (res.status === 404) {
        await res.body?.cancel();
        ctx.err(t(lang, "no_card"));
        return 1;
      }
      ctx.out(JSON.stringify(await res.json(), null, 2));
      return 0;
    }
    case "publish": {
      const node = await needNode(ctx);
      const card = await node.publish();
      ctx.out(t(lang, "published", { address: card.address, name: card.name }));
      return 0;
    }
    case "contacts":
      return await contacts(ctx);
    case "add": {
      const address = checkAddress(ctx, args[0]);
      const node = await needNode(ctx);
      const contact = await node.add(address, typeof opts.note === "string" ? opts.note : "");
      ctx.out(
        t(lang, contact.state === "accepted" ? "accepted" : "requested", {
          address,
          name: contact.name,
        }),
      );
      return 0;
    }
    case "accept": {
      const address = checkAddress(ctx, args[0]);
      const node = await needNode(ctx);
      const contact = await node.accept(address);
      ctx.out(t(lang, "accepted", { address, name: contact.name }));
      return 0;
    }
    case "block": {
      const address = checkAddress(ctx, args[0]);
      await blockContact(await stateOf(ctx), address, Math.floor(Date.now() / 1000));
      ctx.out(t(lang, "blocked", { address }));
      return 0;
    }
    case "remove": {
      const address = checkAddress(ctx, args[0]);
      const removed = await (await stateOf(ctx)).removeContact(address);
      if (!removed) {
        ctx.err(t(lang, "not_known", { address }));
        return 1;
      }
      ctx.out(t(lang, "removed", { address }));
      return 0;
    }
    case "send": {
      const target = splitTarget(args[0] ?? "");
      if (target === undefined) {
        throw new UsageError(t(lang, "bad_target", { value: args[0] ?? "" }));
      }
      const text = args.slice(1).join(" ");
      if (Array.from(text).length > MESSAGE_TEXT_MAX) throw new UsageError(t(lang, "too_long"));
      const node = await needNode(ctx);
      const sent = await node.send(target.address, text, target.sub);
      ctx.out(t(lang, "sent", { target: args[0]!, id: sent.id }));
      return 0;
    }
    case "log":
      return await log(ctx, opts);
    case "poll": {
      if (opts.once !== true) throw new UsageError(t(lang, "poll_once"));
      return await pollOnce(ctx);
    }
    default:
      throw new UsageError(`Unknown net command '${sub}'.`);
  }
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

async function needNode(ctx: CommandContext): Promise<NetNode> {
  const opened = await openNetwork({
    config: await ctx.config(),
    env: ctx.env,
    paths: ctx.paths,
    logger: ctx.logger,
  });
  if (!opened.ok) {
    ctx.err(t(ctx.lang, "not_configured", { missing: describeMissing(opened.missing, ctx.lang) }));
    throw new Exit(1);
  }
  return opened.node;
}

/** Ends a subcommand early with an exit code after its sentence was printed. */
export class Exit extends Error {
  override name = "Exit";
  /** The exit code. */
  code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

async function status(ctx: CommandContext): Promise<number> {
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
      const res = await fetch(`${node.spine.url}/.well-known/agent.json`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        ctx.out(t(lang, "s_card_none"));
      } else {
        const card = await res.json() as Record<string, unknown>;
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
    blocked: n("blocked"),
  }));
  ctx.out(t(lang, "s_store", { where: state.where, store: config.net.store }));
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

async function contacts(ctx: CommandContext): Promise<number> {
  const all = await (await stateOf(ctx)).contacts();
  if (all.length === 0) {
    ctx.out(t(ctx.lang, "no_contacts"));
    return 0;
  }
  const order = ["pending_in", "accepted", "pending_out", "blocked"];
  all.sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
  for (const c of all) {
    const note = c.note ? ` · ${oneLine(c.note, 80)}` : "";
    ctx.out(`${c.state.padEnd(11)} ${c.address}  ${c.name}${note}`);
    if (c.state === "pending_in") ctx.out(t(ctx.lang, "pending_hint", { address: c.address }));
  }
  return 0;
}

async function log(ctx: CommandContext, opts: Record<string, unknown>): Promise<number> {
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
  return `${formatTime(ms)} ${arrow} ${who} ${e.kind}${e.text ? `: ${oneLine(e.text, 300)}` : ""}`;
}

async function pollOnce(ctx: CommandContext): Promise<number> {
  const { liveLock } = await import("@agent/hub");
  const hub = liveLock(ctx.paths.hubLockFile);
  if (hub !== undefined) {
    // Two pollers would handle the same envelopes side by side.
    ctx.err(t(ctx.lang, "hub_polls", { pid: hub.pid }));
    return 1;
  }
  const node = await needNode(ctx);
  const config = await ctx.config();
  const [{ loadComponents }, subs, money] = await Promise.all([
    import("@agent/hub"),
    import("@agent/hub"),
    import("@agent/hub/money"),
  ]);
  const registry = await loadComponents(config, ctx.paths);
  const found = await subs.subAgentDirectoryFrom(registry, { config, paths: ctx.paths });
  let ledger: import("@agent/hub/money").Ledger | undefined;
  try {
    ledger = money.Ledger.open(ctx.paths.ledgerFile);
  } catch { /* budgets unchecked without it */ }
  let handled = 0;
  let dropped = 0;
  try {
    await node.address();
    while (true) {
      const n = await fetchAndHandle({
        node,
        answer: subs.turnAnswerer({
          config,
          env: ctx.env,
          paths: ctx.paths,
          subs: found.directory,
          logger: ctx.logger,
          ledger,
          lang: ctx.lang,
        }),
      }, {
        onHandled: (result) => result.outcome === "handled" ? handled++ : dropped++,
      });
      if (n < 50) break;
    }
  } finally {
    ledger?.close();
  }
  ctx.out(t(ctx.lang, "polled", { handled, dropped }));
  return 0;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : flat;
}

async function stateOf(ctx: CommandContext): Promise<NetState> {
  return openState(await ctx.config(), ctx.env, ctx.paths);
}
