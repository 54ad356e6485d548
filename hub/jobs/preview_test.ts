import assert from "node:assert/strict";
import { answerPreview } from "./preview.ts";

Deno.test("answerPreview() shows an answer's words, not its Markdown marks, on one line", () => {
  const answer = "## Plan\n\n- **bold** item\n- *italic* item\n\n> a quote\n\n```\ncode here\n```";
  const preview = answerPreview(answer, 200);
  assert.equal(preview, "Plan • bold item • italic item │ a quote code here");
  for (const mark of ["**", "##", "```", "\n"]) assert.ok(!preview.includes(mark), mark);
  assert.equal(
    answerPreview("1. Write the *report*\n2. Call `Ali`", 200),
    "1. Write the report 2. Call Ali",
  );
  assert.equal(answerPreview("word ".repeat(40), 20), "word word word word…");
  assert.equal(answerPreview("", 20), "");
});
