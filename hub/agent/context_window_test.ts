import assert from "node:assert/strict";
import type { SessionMessage } from "../sessions/mod.ts";
import { foldOf, nextFoldStart, oneLine, trimOldToolResults } from "./context_window.ts";

const user = (text: string): SessionMessage => ({ role: "user", content: text });
const answer = (text: string): SessionMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
});
const call = (id: string): SessionMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: "read_note", input: { name: id } }],
});
const result = (id: string, text: string): SessionMessage => ({
  role: "tool",
  content: [{
    type: "tool-result",
    toolCallId: id,
    toolName: "read_note",
    output: { type: "text", value: text },
  }],
});

Deno.test("nextFoldStart() keeps a tool call with its result and the newest turn whole", () => {
  const big = "z".repeat(2000);
  const messages = [user("a"), call("1"), result("1", big), answer("b"), user("c"), answer("d")];
  // The first turn alone is ~520 tokens: folding it leaves the second.
  assert.equal(nextFoldStart(messages, { budget: 300, summaryTokens: 0, incomingTokens: 0 }), 4);
  // The newest turn is kept even when it alone passes the budget.
  assert.equal(
    nextFoldStart([user(big), answer("x")], { budget: 100, summaryTokens: 0, incomingTokens: 0 }),
    undefined,
  );
  // The summary and the incoming message count against the budget too.
  const small = [user("a".repeat(100)), answer("b"), user("c".repeat(100)), answer("d")];
  assert.equal(
    nextFoldStart(small, { budget: 200, summaryTokens: 0, incomingTokens: 0 }),
    undefined,
  );
  assert.equal(nextFoldStart(small, { budget: 200, summaryTokens: 150, incomingTokens: 0 }), 2);
});

Deno.test("trimOldToolResults() cuts results older than the last two user turns to a line", () => {
  const long = `first line\n${"word ".repeat(100)}`;
  const messages = [
    user("1"),
    call("a"),
    result("a", long),
    answer("x"),
    user("2"),
    call("b"),
    result("b", long),
    answer("y"),
    user("3"),
  ];
  const out = trimOldToolResults(messages);
  const text = (
    m: SessionMessage,
  ) => ((m.content as { output: { value: string } }[])[0]!.output.value);
  assert.equal(text(out[2]!), oneLine(long));
  assert.equal(text(out[2]!).length, 160);
  assert.ok(text(out[2]!).endsWith("…"));
  assert.equal(text(out[6]!), long);
  // The stored messages are not changed.
  assert.equal(text(messages[2]!), long);
});

Deno.test("foldOf() reads only a well-formed fold", () => {
  assert.deepEqual(foldOf({ upto: 12, summary: "s" }), { upto: 12, summary: "s" });
  assert.equal(foldOf({ upto: -1, summary: "s" }), undefined);
  assert.equal(foldOf({ upto: 1.5, summary: "s" }), undefined);
  assert.equal(foldOf({ upto: 3 }), undefined);
  assert.equal(foldOf("x"), undefined);
  assert.equal(foldOf(undefined), undefined);
});
