/**
 * An MCP server's tools as the agent's tools: named `<server>__<tool>`, tier 2 unless
 * the owner lowered that tool by name in `tiers`, the server's own description and
 * input schema sent to the model as they were pinned, and the server's description
 * shown to the owner at every approval. What a call returns is untrusted text, cut at
 * {@linkcode MAX_RESULT_CHARS}.
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
import { estimateTokens, jsonChars } from "../ledger/estimate.ts";

/** What a tool result keeps of an MCP server's answer, in characters. */
export const MAX_RESULT_CHARS = 20_000;

/** Runs one of a server's tools (the server's own name), or throws its sentence. */
export type McpCaller = (
  tool: string,
  args: unknown,
  signal?: AbortSignal,
) => Promise<McpCallResult>;

/**
 * The model's name of `tool` of `server`: `<server>__<tool>`, with any character a
 * provider refuses in a tool name made `_`, at most 64 characters.
 *
 * @example
 * ```ts
 * import { modelToolName } from "./tools.ts";
 * if (modelToolName("fs", "read.file") !== "fs__read_file") throw new Error();
 * ```
 */
export function modelToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/**
 * What `tool` of `server` costs in every request that carries its definition, in
 * estimated tokens (its name, description and schema as JSON, the call chain's rule).
 */
export function definitionTokens(server: string, tool: ListedTool): number {
  const { $schema: _, ...schema } = tool.inputSchema;
  return estimateTokens(jsonChars({
    name: modelToolName(server, tool.name),
    description: tool.description,
    inputSchema: schema,
  }));
}

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

/**
 * A call's answer as text: text parts as they are, other parts named (an image, a
 * resource, a link), the structured content as JSON when there is nothing else.
 *
 * @example
 * ```ts
 * import { resultText } from "./tools.ts";
 * const text = resultText({ content: [
 *   { type: "text", text: "hi" }, { type: "image", mimeType: "image/png", data: "AAAA" },
 * ] });
 * if (text !== "hi\n[image image/png, 3 bytes]") throw new Error(text);
 * ```
 */
export function resultText(result: McpCallResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (typeof item !== "object" || item === null) continue;
    const part = item as Record<string, unknown>;
    switch (part.type) {
      case "text":
        parts.push(String(part.text ?? ""));
        break;
      case "image":
      case "audio": {
        const bytes = Math.floor(String(part.data ?? "").length * 3 / 4);
        parts.push(`[${part.type} ${String(part.mimeType ?? "")}, ${bytes} bytes]`);
        break;
      }
      case "resource": {
        const resource = (part.resource ?? {}) as Record<string, unknown>;
        parts.push(
          typeof resource.text === "string"
            ? resource.text
            : `[resource ${String(resource.uri ?? "")}]`,
        );
        break;
      }
      case "resource_link":
        parts.push(`[link ${String(part.name ?? "")} ${String(part.uri ?? "")}]`);
        break;
      default:
        parts.push(`[${String(part.type)}]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join("\n");
}

/** A value from a server or the model, fit for the owner's sentence: one printable line. */
function shown(text: string, max: number): string {
  return printable(oneLine(text, { max, ellipsis: true }));
}
