/**
 * Opening this home's network node for an `agent net` subcommand.
 *
 * @module
 */
import type { CommandContext } from "../context.ts";
import { UserError } from "../command.ts";
import {
  describeMissing,
  type NetNode,
  openNetwork,
  type OpenNetworkOptions,
  testNow,
} from "@agent/hub/network";
import { t } from "./_net_messages.ts";

/** The node of this home, or the sentence saying what the network still needs. */
export async function needNode(ctx: CommandContext): Promise<NetNode> {
  const opened = await openNetwork(await netOptions(ctx));
  if (!opened.ok) {
    const missing = describeMissing(opened.missing, ctx.lang);
    throw new UserError(t(ctx.lang, "not_configured", { missing }));
  }
  return opened.node;
}

/**
 * What `openNetwork()` gets from this run: its home, and the clock a test may name
 * (`AGENT_TEST_CLOCK`, honoured from a checkout only; the machine's otherwise).
 */
export async function netOptions(ctx: CommandContext): Promise<OpenNetworkOptions> {
  const now = testNow(ctx.env);
  return {
    config: await ctx.config(),
    env: ctx.env,
    paths: ctx.paths,
    logger: ctx.logger,
    ...(now === undefined ? {} : { now }),
  };
}
