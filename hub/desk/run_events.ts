/**
 * What a turn tells, as AG-UI's events: the callbacks a conversation gives its agent's
 * turn open a text message at the first streamed text (and close it before a tool call
 * and at the end), report each tool call with its arguments and its result (`{error}`
 * for one that failed), and a tier-2 call that did not run as `tool.refused` plus its
 * (declined) result.
 *
 * @module
 */
import type { TurnOptions } from "../agent/mod.ts";
import type { DeskEvent, WithoutTimestamp } from "./events.ts";

/** The turn callbacks that emit a run's events, and the close of its open text. */
export interface RunEvents {
  callbacks: Pick<
    TurnOptions,
    "onText" | "onTextEnd" | "onToolCall" | "onToolResult" | "onToolError" | "onToolRefused"
  >;
  /** Closes the text message open now, if any (before the run's end). */
  closeText(): void;
}

/** Callbacks that turn a run's stream into events for `emit`. */
export function runEvents(emit: (event: WithoutTimestamp<DeskEvent>) => void): RunEvents {
  let open: string | undefined;
  const closeText = () => {
    if (open === undefined) return;
    emit({ type: "TEXT_MESSAGE_END", messageId: open });
    open = undefined;
  };
  const result = (toolCallId: string, content: string) =>
    emit({ type: "TOOL_CALL_RESULT", messageId: crypto.randomUUID(), toolCallId, content });
  return {
    closeText,
    callbacks: {
      onText(delta) {
        if (open === undefined) {
          open = crypto.randomUUID();
          emit({ type: "TEXT_MESSAGE_START", messageId: open, role: "assistant" });
        }
        emit({ type: "TEXT_MESSAGE_CONTENT", messageId: open, delta });
      },
      // The text is whole when the model's step ends, before the turn is stored.
      onTextEnd: closeText,
      onToolCall(name, input, toolCallId) {
        closeText();
        emit({ type: "TOOL_CALL_START", toolCallId, toolCallName: name });
        emit({ type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(input) ?? "" });
        emit({ type: "TOOL_CALL_END", toolCallId });
      },
      onToolResult(_name, output, toolCallId) {
        result(toolCallId, JSON.stringify(output) ?? "null");
      },
      // A call that failed: its result is `{error}`, as a resumed session shows it.
      onToolError(_name, error, toolCallId) {
        result(toolCallId, JSON.stringify({ error }));
      },
      // A call that did not run: told (a pipe prints it), and its result says so.
      onToolRefused({ toolName, toolCallId, reason }) {
        emit({
          type: "CUSTOM",
          name: "tool.refused",
          value: { toolCallId, tool: toolName, reason },
        });
        result(toolCallId, JSON.stringify({ declined: true, reason }));
      },
    },
  };
}
