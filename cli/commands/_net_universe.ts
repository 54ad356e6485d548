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
import {
  joinUniverse,
  leaveUniverse,
  loadSubAgentDirectory,
  type NetNode,
  UniverseClient,
  universeFailure,
  universeFieldsProblem,
  universeSentence,
  universeStanding,
} from "@agent/hub/network";
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
  if (host === "") throw new UserError(universeSentence(ctx.lang, "off"));
  const fields = {
    ...(typeof opts.owner === "string" ? { owner: opts.owner } : {}),
    ...(typeof opts.about === "string" ? { about: opts.about } : {}),
    // commander reads --links as true and --no-links as false (the last one given wins).
    ...(typeof opts.links === "boolean" ? { links: opts.links } : {}),
  };
  if (action === "join") {
    const problem = universeFieldsProblem(ctx.lang, fields);
    if (problem !== undefined) throw new UsageError(problem);
  }
  const node = await needNode(ctx);
  try {
    const client = new UniverseClient(node, host);
    if (action === "join") {
      const subs = loadSubAgentDirectory(config, ctx.paths);
      const joined = await joinUniverse(node, client, subs, fields);
      ctx.out(universeSentence(ctx.lang, "joined", { ...joined, links: joined.visibleLinks }));
      return 0;
    }
    if (action === "leave") {
      ctx.out(universeSentence(ctx.lang, "left", await leaveUniverse(node, client)));
      return 0;
    }
    return await status(ctx, node, client);
  } catch (error) {
    const sentence = universeFailure(ctx.lang, host, error);
    if (sentence !== undefined) throw new UserError(sentence);
    throw error;
  }
}

async function status(ctx: CommandContext, node: NetNode, client: UniverseClient): Promise<number> {
  const lang = ctx.lang;
  const standing = await universeStanding(node, client, lang);
  ctx.out(t(lang, "s_setting", {
    host: standing.host,
    minutes: standing.reportMinutes,
    links: standing.links ? "on" : "off",
  }));
  ctx.out(t(lang, "s_profile", { state: t(lang, standing.joined ? "s_in" : "s_out") }));
  if (standing.failure !== undefined) {
    ctx.out(standing.failure);
    return 1;
  }
  const listing = standing.listing;
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
