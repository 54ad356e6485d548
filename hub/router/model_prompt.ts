/**
 * What the provider interface takes from a turn: the session's messages as its prompt,
 * and each tool's definition with the JSON schema of its input. The tool loop
 * (`tool_loop.ts`) builds every step's request from these.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import { toJSONSchema } from "zod";
import type { CallOptions } from "../models/mod.ts";
import type { ModelTool, ModelTools } from "../tools/mod.ts";

type Prompt = CallOptions["prompt"];
type PromptMessage = Prompt[number];
/** A tool's definition as a provider takes it. */
export type FunctionTool = Extract<NonNullable<CallOptions["tools"]>[number], { type: "function" }>;
type Meta = Record<string, Record<string, unknown>>;

/**
 * The session's messages as the provider interface takes them, after the system
 * prompt; a tool message right after another joins it.
 */
export function toPrompt(
  system: string | readonly string[] | undefined,
  messages: readonly ModelMessage[],
): Prompt {
  const prompt: Prompt = [];
  const systems = system === undefined ? [] : typeof system === "string" ? [system] : system;
  for (const content of systems) prompt.push({ role: "system", content });
  for (const message of messages) {
    const converted = toPromptMessage(message);
    const last = prompt.at(-1);
    if (converted.role === "tool" && last?.role === "tool") last.content.push(...converted.content);
    else prompt.push(converted);
  }
  return prompt.filter((m) => m.role !== "tool" || m.content.length > 0);
}

function toPromptMessage(message: ModelMessage): PromptMessage {
  const options = message.providerOptions !== undefined
    ? { providerOptions: message.providerOptions }
    : {};
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content, ...options };
    case "user": {
      if (typeof message.content === "string") {
        return { role: "user", content: [{ type: "text", text: message.content }], ...options };
      }
      const content: Extract<PromptMessage, { role: "user" }>["content"] = [];
      for (const part of message.content) {
        if (part.type !== "text") throw unsupported(part.type, "user");
        if (part.text !== "") content.push(withOptions({ type: "text", text: part.text }, part));
      }
      return { role: "user", content, ...options };
    }
    case "assistant": {
      if (typeof message.content === "string") {
        return {
          role: "assistant",
          content: [{ type: "text", text: message.content }],
          ...options,
        };
      }
      const content: Extract<PromptMessage, { role: "assistant" }>["content"] = [];
      for (const part of message.content) {
        switch (part.type) {
          case "text":
          case "reasoning":
            if (part.text === "" && part.providerOptions === undefined) break;
            content.push(withOptions({ type: part.type, text: part.text }, part));
            break;
          case "tool-call":
            content.push(withOptions({
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            }, part));
            break;
          case "custom":
            content.push(withOptions({ type: "custom", kind: part.kind }, part));
            break;
          default:
            // Approval requests are the SDK's bookkeeping; files and a provider's own tool
            // results are never asked for. None is the model's to read again.
            break;
        }
      }
      return { role: "assistant", content, ...options };
    }
    case "tool": {
      const content: Extract<PromptMessage, { role: "tool" }>["content"] = [];
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        content.push(withOptions({
          type: "tool-result",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: part.output as Extract<typeof content[number], { type: "tool-result" }>["output"],
        }, part));
      }
      return { role: "tool", content, ...options };
    }
  }
}

function withOptions<T extends object>(
  part: T,
  from: { providerOptions?: Meta | undefined },
): T {
  return from.providerOptions !== undefined
    ? { ...part, providerOptions: from.providerOptions }
    : part;
}

function unsupported(type: string, role: string): Error {
  return new Error(`A ${type} part in a ${role} message cannot be sent to the model.`);
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
