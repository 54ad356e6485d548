/**
 * `agent net universe join [--owner NAME] [--about TEXT] [--no-links | --links]`,
 * `status` and `leave`: this agent in the universe directory `[net] universe` names.
 * `agent net universe deploy DIR [--host HOST]`: a universe of one's own, deployed
 * from the kit (works from a package, the bundle or a binary).
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UsageError, UserError } from "../command.ts";
import { errorMessage } from "@agent/net/common";
import {
  joinAndReport,
  loadSubAgentDirectory,
  type NetNode,
  OwnSpineError,
  UniverseClient,
  UniverseError,
} from "@agent/hub";
import type { Lang } from "@agent/hub/base";
import { t } from "./_universe_messages.ts";
import { needNode } from "./_net_node.ts";

/** `agent net universe <join|status|leave>`. */
export async function universeAction(
  ctx: CommandContext,
  args: string[],
  opts: Record<string, unknown>,
): Promise<number> {
  const [action = ""] = args;
  if (action === "deploy") return await deployAction(ctx, args[1] ?? "", opts.host);
  if (!["join", "status", "leave"].includes(action)) {
    throw new UsageError(t(ctx.lang, "unknown", { action }));
  }
  const config = await ctx.config();
  const host = config.net.universe.trim();
  if (action === "status" && host === "") {
    ctx.out(t(ctx.lang, "s_off"));
    return 0;
  }
  if (host === "") throw new UserError(t(ctx.lang, "off"));
  if (action === "join") checkJoinOptions(ctx, opts);
  const node = await needNode(ctx);
  try {
    const client = new UniverseClient(node, host);
    if (action === "join") return await join(ctx, node, client, opts);
    if (action === "leave") return await leave(ctx, node, client);
    return await status(ctx, node, client);
  } catch (error) {
    const sentence = universeFailure(ctx.lang, host, error);
    if (sentence !== undefined) throw new UserError(sentence);
    throw error;
  }
}

/**
 * The sentence for a failure of a universe command, naming its culprit: the own
 * spine, the universe not answering, plain http where https was asked, a URL written
 * for a host, or the universe's refusal. `undefined` for anything else.
 */
export function universeFailure(lang: Lang, host: string, error: unknown): string | undefined {
  if (error instanceof OwnSpineError) {
    return t(lang, "own_spine", { url: error.url, host, detail: error.detail });
  }
  if (!(error instanceof UniverseError)) return undefined;
  switch (error.code) {
    case "scheme_in_host":
      return t(lang, "scheme_in_host", { bare: error.host ?? host });
    case "not_https":
      return t(lang, "not_https", { host });
    case "unreachable":
      return t(lang, "unreachable", { host, detail: error.reason ?? error.message });
    default:
      return t(lang, "failed", { host, detail: error.message });
  }
}

function checkJoinOptions(ctx: CommandContext, opts: Record<string, unknown>): void {
  for (const [option, max] of [["owner", 60], ["about", 200]] as const) {
    const value = opts[option];
    if (typeof value === "string" && Array.from(value).length > max) {
      throw new UsageError(t(ctx.lang, "too_long", { option, max }));
    }
  }
}

async function join(
  ctx: CommandContext,
  node: NetNode,
  client: UniverseClient,
  opts: Record<string, unknown>,
): Promise<number> {
  const profile = await node.state.profile();
  // commander reads --links as true and --no-links as false (the last one given wins).
  const links = typeof opts.links === "boolean" ? opts.links : profile.universe_links;
  await node.state.setProfile({
    ...profile,
    universe_join: true,
    universe_owner: typeof opts.owner === "string" ? opts.owner : profile.universe_owner ?? "",
    universe_about: typeof opts.about === "string" ? opts.about : profile.universe_about ?? "",
    ...(links === undefined ? {} : { universe_links: links }),
  });
  // The universe reads the card at the address: publish it first when it is not there
  // or not what this hub would publish.
  const want = await node.cardInput();
  const published = (await node.state.profile()).published;
  if (
    published === undefined || published.name !== want.name ||
    published.sign_key !== want.sign_key ||
    published.box_key !== want.box_key
  ) {
    await node.publish();
  }
  const subs = loadSubAgentDirectory(await ctx.config(), ctx.paths);
  const result = await joinAndReport(client, node, subs, { join: true });
  ctx.out(t(ctx.lang, "joined", {
    address: await node.address(),
    host: client.host,
    links: result.visibleLinks,
    url: result.url ?? await client.pageUrl(),
  }));
  return 0;
}

async function leave(ctx: CommandContext, node: NetNode, client: UniverseClient): Promise<number> {
  try {
    await client.leave();
  } catch (error) {
    // Already gone (expired, or left from another home): the profile still changes.
    if (!(error instanceof UniverseError) || error.code !== "not_joined") throw error;
  }
  await node.state.setProfile({ ...(await node.state.profile()), universe_join: false });
  ctx.out(t(ctx.lang, "left", { address: await node.address(), host: client.host }));
  return 0;
}

async function status(ctx: CommandContext, node: NetNode, client: UniverseClient): Promise<number> {
  const lang = ctx.lang;
  const profile = await node.state.profile();
  const links = profile.universe_links ?? node.config.net.universe_links;
  ctx.out(t(lang, "s_setting", {
    host: client.host,
    minutes: node.config.net.universe_report_minutes,
    links: links ? "on" : "off",
  }));
  ctx.out(t(lang, "s_profile", { state: t(lang, profile.universe_join ? "s_in" : "s_out") }));
  let listing;
  try {
    listing = await client.listing();
  } catch (error) {
    ctx.out(
      universeFailure(lang, client.host, error) ??
        t(lang, "failed", { host: client.host, detail: errorMessage(error) }),
    );
    return 1;
  }
  if (listing === undefined) {
    ctx.out(t(lang, "s_not_listed"));
    return 0;
  }
  ctx.out(t(lang, "s_listed", {
    name: listing.name,
    online: t(lang, listing.online ? "s_online" : "s_offline"),
  }));
  ctx.out(t(lang, "s_links", { n: listing.links.length }));
  for (const link of listing.links) ctx.out(t(lang, "s_link", link));
  return 0;
}

/** `agent net universe deploy DIR [--host HOST]`, each failure one sentence. */
async function deployAction(ctx: CommandContext, dir: string, host: unknown): Promise<number> {
  const { deployUniverse, UniverseDeployError, UNIVERSE_DEPLOY_STEPS } = await import(
    "@agent/kit/universe"
  );
  const hostName = typeof host === "string" ? host : undefined;
  try {
    const result = await deployUniverse(dir, {
      step: (step) => ctx.out(t(ctx.lang, `d_${step}`, { dir })),
      output: (line) => {
        if (line.trim() !== "") ctx.out(`      ${line}`);
      },
    }, { host: hostName });
    const urls = result.urls.length > 0 ? `: ${result.urls.join(", ")}` : "";
    ctx.out(t(ctx.lang, "d_done", { urls }));
    ctx.out(hostName ? t(ctx.lang, "d_host", { host: hostName }) : t(ctx.lang, "d_kept"));
    return 0;
  } catch (error) {
    if (!(error instanceof UniverseDeployError)) throw error;
    if (error.problem === "bad_host") {
      throw new UsageError(t(ctx.lang, "d_bad_host", { value: error.detail }));
    }
    if (error.problem === "not_project" || error.problem === "logged_out") {
      throw new UserError(t(ctx.lang, `d_${error.problem}`, { dir: error.detail }));
    }
    const n = String(UNIVERSE_DEPLOY_STEPS.indexOf(error.step) + 1);
    throw new UserError(
      t(ctx.lang, `d_${error.problem}`, { n, step: error.step, detail: error.detail }),
    );
  }
}
