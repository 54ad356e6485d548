/**
 * What the provider interface takes from a turn: the session's messages as its prompt,
 * and each tool's definition with the JSON schema of its input. The tool loop
 * (`tool_loop.ts`) builds every step's request from these.
 *
 * @module
 */
import { toJSONSchema } from "zod";
import type { CallOptions } from "../models/mod.ts";
import type { SessionMessage, ToolResultPart } from "../sessions/mod.ts";
import type { ModelTool, ModelTools } from "../tools/mod.ts";

type Prompt = CallOptions["prompt"];
type PromptMessage = Prompt[number];
type PromptToolResult = Extract<PromptMessage, { role: "tool" }>["content"][number];
/** A tool's definition as a provider takes it. */
export type FunctionTool = Extract<NonNullable<CallOptions["tools"]>[number], { type: "function" }>;

/** What a call whose result never reached the session tells the model. */
export const NO_RESULT =
  "No result: the turn ended (cancelled, or the hub stopped) before this call's result came; it may not have finished.";

/**
 * The session's messages as the provider interface takes them, after the system
 * prompt. The tool results after an assistant message become one tool message in the
 * order of its calls, and a call left without a result (a turn cut by a crash) gets
 * one that says so: every provider refuses a tool call that is not answered. A result
 * with no call before it, and an assistant message with nothing in it, are left out.
 */
export function toPrompt(
  system: string | readonly string[] | undefined,
  messages: readonly SessionMessage[],
): Prompt {
  const prompt: Prompt = [];
  const systems = system === undefined ? [] : typeof system === "string" ? [system] : system;
  for (const content of systems) prompt.push({ role: "system", content });
  // The calls of the last assistant message, in order, and the results found for them.
  let calls: { toolCallId: string; toolName: string }[] = [];
  let results = new Map<string, PromptToolResult>();
  const answer = () => {
    if (calls.length === 0) return;
    prompt.push({
      role: "tool",
      content: calls.map((call) =>
        results.get(call.toolCallId) ?? {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: "error-text", value: NO_RESULT },
        }
      ),
    });
    calls = [];
    results = new Map();
  };
  for (const message of messages) {
    switch (message.role) {
      case "tool":
        for (const part of message.content) {
          if (calls.some((c) => c.toolCallId === part.toolCallId)) {
            results.set(part.toolCallId, promptResult(part));
          }
        }
        break;
      case "user":
        answer();
        if (message.content !== "") {
          prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
        }
        break;
      case "assistant": {
        answer();
        const content: Extract<PromptMessage, { role: "assistant" }>["content"] = [];
        for (const part of message.content) {
          if (part.type === "tool-call") {
            calls.push({ toolCallId: part.toolCallId, toolName: part.toolName });
            content.push(withOptions({
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            }, part));
          } else if (part.text !== "" || part.providerOptions !== undefined) {
            content.push(withOptions({ type: part.type, text: part.text }, part));
          }
        }
        if (content.length > 0) prompt.push({ role: "assistant", content });
        break;
      }
    }
  }
  answer();
  return prompt;
}

function promptResult(part: ToolResultPart): PromptToolResult {
  const output: Extract<PromptToolResult, { type: "tool-result" }>["output"] =
    part.output.type === "json" ? { type: "json", value: part.output.value as never } : part.output;
  return withOptions({
    type: "tool-result",
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
  }, part);
}

function withOptions<T extends object>(
  part: T,
  from: { providerOptions?: Record<string, Record<string, unknown>> | undefined },
): T {
  return from.providerOptions !== undefined
    ? { ...part, providerOptions: from.providerOptions as never }
    : part;
}

/** Each tool's JSON schema, computed once per schema (the tools are the same every turn). */
const schemas = new WeakMap<object, FunctionTool["inputSchema"]>();

/** The tools' definitions, in the order of `tools`. */
export function toolDefinitions(tools: ModelTools): FunctionTool[] {
  return Object.entries(tools).map(([name, tool]) => ({
    type: "function",
    name,
    inputSchema: jsonSchemaOf(tool),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
  }));
}

function jsonSchemaOf(tool: ModelTool): FunctionTool["inputSchema"] {
  // A schema given as is (an MCP server's, as pinned) goes to the model unchanged.
  if (tool.jsonSchema !== undefined) return tool.jsonSchema as FunctionTool["inputSchema"];
  let schema = schemas.get(tool.inputSchema);
  if (schema === undefined) {
    const json = toJSONSchema(tool.inputSchema, {
      target: "draft-7",
      io: "input",
      reused: "inline",
    }) as FunctionTool["inputSchema"];
    schema = closeObjects(json);
    schemas.set(tool.inputSchema, schema);
  }
  return schema;
}

/**
 * Marks every object in a schema as taking no other properties, as the vendors' strict
 * tool modes want (the default `additionalProperties` would allow any).
 */
function closeObjects<S extends FunctionTool["inputSchema"]>(schema: S): S {
  const visit = (node: unknown): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const s = node as Record<string, unknown>;
    const type = s.type;
    if (type === "object" || (Array.isArray(type) && type.includes("object"))) {
      const extra = s.additionalProperties;
      s.additionalProperties = typeof extra === "object" && extra !== null ? visit(extra) : false;
      const props = s.properties as Record<string, unknown> | undefined;
      if (props) { for (const key of Object.keys(props)) props[key] = visit(props[key]); }
    }
    if (Array.isArray(s.items)) s.items = s.items.map(visit);
    else if (s.items !== undefined) s.items = visit(s.items);
    for (const key of ["anyOf", "allOf", "oneOf"]) {
      if (Array.isArray(s[key])) s[key] = (s[key] as unknown[]).map(visit);
    }
    const defs = s.definitions as Record<string, unknown> | undefined;
    if (defs) { for (const key of Object.keys(defs)) defs[key] = visit(defs[key]); }
    return s;
  };
  return visit(schema) as S;
}
