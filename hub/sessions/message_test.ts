import assert from "node:assert/strict";
import { MESSAGE_VERSION, readMessage, readStoredMessage, type StoredMessage } from "./message.ts";

const at = "2026-11-20T10:00:00.000Z";

Deno.test("readStoredMessage() reads a version 1 record (the AI SDK's ModelMessage) without its bookkeeping", () => {
  const v1 = {
    message_id: 3,
    created_at: at,
    role: "brain",
    message: {
      role: "assistant",
      content: [
        {
          type: "custom",
          kind: "anthropic.message_start",
          providerOptions: { anthropic: { id: "msg_1", usage: { input_tokens: 10 } } },
        },
        { type: "reasoning", text: "Hm.", providerOptions: { anthropic: { signature: "s1" } } },
        { type: "text", text: "On it." },
        { type: "file", data: "AAAA", mediaType: "image/png" },
        { type: "tool-call", toolCallId: "c1", toolName: "write_note", input: { name: "a" } },
        { type: "tool-call", toolCallId: "s1", toolName: "web_search", providerExecuted: true },
        { type: "tool-result", toolCallId: "s1", toolName: "web_search", output: { type: "json" } },
        { type: "tool-approval-request", approvalId: "a1", toolCallId: "c1" },
      ],
    },
  };
  assert.deepEqual(
    readStoredMessage(v1),
    {
      version: MESSAGE_VERSION,
      message_id: 3,
      created_at: at,
      role: "brain",
      message: {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Hm.", providerOptions: { anthropic: { signature: "s1" } } },
          { type: "text", text: "On it." },
          { type: "tool-call", toolCallId: "c1", toolName: "write_note", input: { name: "a" } },
        ],
      },
    } satisfies StoredMessage,
  );
});

Deno.test("readMessage() turns version 1's tool outputs and contents into this version's", () => {
  const tool = (output: unknown) =>
    readMessage({
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: "a1", approved: false },
        { type: "tool-result", toolCallId: "c1", toolName: "t", output },
      ],
    });
  assert.deepEqual(tool({ type: "error-json", value: { code: 1 } })?.content, [{
    type: "tool-result",
    toolCallId: "c1",
    toolName: "t",
    output: { type: "error-text", value: '{"code":1}' },
  }]);
  assert.deepEqual(tool({ type: "execution-denied" })?.content, [{
    type: "tool-result",
    toolCallId: "c1",
    toolName: "t",
    output: { type: "error-text", value: "The owner denied this call; it did not run." },
    notRun: "denied",
  }]);
  assert.deepEqual(
    tool({ type: "content", value: [{ type: "text", text: "a" }, { type: "media" }] })?.content,
    [{
      type: "tool-result",
      toolCallId: "c1",
      toolName: "t",
      output: { type: "text", value: "a" },
    }],
  );
  assert.deepEqual(readMessage({ role: "user", content: [{ type: "text", text: "Hi" }] }), {
    role: "user",
    content: "Hi",
  });
  assert.deepEqual(readMessage({ role: "assistant", content: "Hello." }), {
    role: "assistant",
    content: [{ type: "text", text: "Hello." }],
  });
  assert.equal(readMessage({ role: "system", content: "x" }), undefined);
  assert.equal(readMessage({ role: "assistant", content: 5 }), undefined);
});

Deno.test("readStoredMessage() keeps a version 2 record and its turn mark, and refuses what is no record", () => {
  const v2: StoredMessage = {
    version: 2,
    message_id: 0,
    created_at: at,
    role: "brain",
    message: {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "write_note",
        output: { type: "error-text", value: "write_note did NOT run: …" },
        notRun: "no_one_to_ask",
      }],
    },
    turn: { key: "env-1", part: 1, of: 2, answer: "Hi." },
  };
  assert.deepEqual(readStoredMessage(JSON.parse(JSON.stringify(v2))), v2);
  assert.equal(readStoredMessage({ message_id: 1, created_at: at }), undefined);
  assert.equal(readStoredMessage({ event: "x" }), undefined);
  assert.equal(readStoredMessage(null), undefined);
});
