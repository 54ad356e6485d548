/**
 * The `net_send` tool (tier 2: the owner approves every call): the chat agent sends a
 * message to an accepted contact, or to one of its public sub-agents with
 * `ADDRESS/NAME`.
 *
 * @module
 */
import { z } from "zod";
import type { AgentTool, ToolContext } from "./tool.ts";
import { shown, t } from "./_messages.ts";
import { MESSAGE_TEXT_MAX, splitTarget } from "@agent/net";
import { Logger } from "../log.ts";
import { errorMessage } from "@agent/net/common";

/** `net_send`: sends a network message to an accepted contact. */
export const netSend: AgentTool = {
  name: "net_send",
  tier: 2,
  description:
    "Send a message to another agent that is an accepted contact of the owner. 'to' is its address (host or host:port), or ADDRESS/NAME for one of its public sub-agents. The answer arrives later in the network log.",
  inputSchema: z.object({
    to: z.string().describe("ADDRESS or ADDRESS/NAME"),
    text: z.string().min(1).max(MESSAGE_TEXT_MAX),
  }),
  describe(input: { to: string; text: string }, lang) {
    return t(lang, "net_send", { to: shown(input.to, 80), text: shown(input.text, 120) });
  },
  async execute(input: { to: string; text: string }, context: ToolContext) {
    const target = splitTarget(input.to.trim());
    if (target === undefined) return { error: `'${input.to}' is not ADDRESS or ADDRESS/NAME` };
    const [{ loadConfig }, { openNetwork, describeMissing }] = await Promise.all([
      import("../config/read.ts"),
      import("../network/setup.ts"),
    ]);
    const config = await loadConfig(context.paths);
    const opened = await openNetwork({
      config,
      env: context.env,
      paths: context.paths,
      logger: new Logger({ file: context.paths.logFile, stderr: "off" }),
      ...(context.fetch ? { fetch: context.fetch } : {}),
      ...(context.now ? { now: context.now } : {}),
    });
    if (!opened.ok) {
      // Read by the model, which works in English whatever the owner's language.
      return {
        error: `the network is not configured: missing ${describeMissing(opened.missing, "en")}`,
      };
    }
    try {
      const sent = await opened.node.send(target.address, input.text, target.sub);
      // Not delivered yet: the model hears why (a peer's rate limit is no silence).
      return sent.later === undefined
        ? { sent: true, id: sent.id, to: input.to }
        : { sent: true, id: sent.id, to: input.to, delivered: false, later: sent.later };
    } catch (error) {
      return { error: errorMessage(error) };
    }
  },
};
