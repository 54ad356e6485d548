/**
 * How an MCP server's tool reads to the model and to the owner: its name in a request
 * (`<server>__<tool>`), what its definition costs in every request, and what a call
 * returned as text. Without zod, so `agent mcp list|show` and `agent components` load
 * none of it.
 *
 * @module
 */
import type { ListedTool } from "./pins.ts";
import type { McpCallResult } from "./connection.ts";
import { estimateTokens, jsonChars } from "../ledger/estimate.ts";

/** What a tool result keeps of an MCP server's answer, in characters. */
export const MAX_RESULT_CHARS = 20_000;

/**
 * The model's name of `tool` of `server`: `<server>__<tool>`, with any character a
 * provider refuses in a tool name made `_`, at most 64 characters.
 *
 * @example
 * ```ts
 * import { modelToolName } from "./tool_text.ts";
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

/**
 * A call's answer as text: text parts as they are, other parts named (an image, a
 * resource, a link), the structured content as JSON when there is nothing else.
 *
 * @example
 * ```ts
 * import { resultText } from "./tool_text.ts";
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
