/**
 * An MCP server's tools as the agent's tools: named `<server>__<tool>`, tier 2 unless
 * the owner lowered that tool by name in `tiers`, the server's own description and
 * input schema sent to the model as they were pinned, and the server's description
 * shown to the owner at every approval. What a call returns is untrusted text, cut at
 * `MAX_RESULT_CHARS`.
 *
 * It loads zod (the input check of every call), so it is on the hub's main door; what
 * the owner's commands need of a tool (its name, cost, result text) is in
 * `tool_text.ts`, on the light door.
 *
 * @module
 */
import { z } from "zod";
import type { McpServerConfig } from "../config/mod.ts";
import type { Lang } from "../i18n.ts";
import type { AgentTool } from "../tools/tool.ts";
import { untrustedText } from "../tools/untrusted.ts";
import { oneLine, printable } from "../text.ts";
import type { ListedTool } from "./pins.ts";
import type { McpCallResult } from "./connection.ts";
import { t } from "./_messages.ts";
import { MAX_RESULT_CHARS, modelToolName, resultText } from "./tool_text.ts";

/** Runs one of a server's tools (the server's own name), or throws its sentence. */
export type McpCaller = (
  tool: string,
  args: unknown,
  signal?: AbortSignal,
) => Promise<McpCallResult>;

/** The tools of `server` (named `name`) the owner lets through, as agent tools. */
export function serverTools(
  name: string,
  server: Pick<McpServerConfig, "tools" | "tiers">,
  listed: readonly ListedTool[],
  call: McpCaller,
): AgentTool[] {
  const chosen = server.tools === undefined
    ? listed
    : listed.filter((tool) => server.tools!.includes(tool.name));
  return chosen.map((tool) => agentTool(name, tool, server.tiers[tool.name] === 1 ? 1 : 2, call));
}

function agentTool(server: string, tool: ListedTool, tier: 1 | 2, call: McpCaller): AgentTool {
  const { $schema: _, ...schema } = tool.inputSchema;
  return {
    name: modelToolName(server, tool.name),
    tier,
    description: tool.description,
    inputSchema: zodOf(schema),
    jsonSchema: schema,
    origin: { server, tool: tool.name },
    // What a server answers is outside content, as its results say.
    untrusted: true,
    describe(input: unknown, lang: Lang) {
      return t(lang, "approve", {
        name: server,
        tool: shown(tool.name, 60),
        args: shown(JSON.stringify(input ?? {}), 200),
        description: shown(tool.description, 300),
      });
    },
    async execute(input: unknown, context) {
      const result = await call(tool.name, input, context.signal);
      return {
        ...untrustedText(`mcp:${server}/${tool.name}`, resultText(result), MAX_RESULT_CHARS),
        ...(result.isError === true ? { is_error: true } : {}),
      };
    },
  };
}

/** The input check the tool loop runs: the server's schema, or any object if it has none usable. */
function zodOf(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
}

/** A value from a server or the model, fit for the owner's sentence: one printable line. */
function shown(text: string, max: number): string {
  return printable(oneLine(text, { max, ellipsis: true }));
}
