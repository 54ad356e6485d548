import assert from "node:assert/strict";
import { plainOptions } from "./_plain_args.ts";

const spend = { plainFlags: ["--json", "--forecast"], plainOptions: ["--by", "--role"] };

Deno.test("plainOptions() reads plain flags and valued options without commander", () => {
  assert.deepEqual(plainOptions([], spend), {});
  assert.deepEqual(plainOptions(["--json", "--by", "day"], spend), { json: true, by: "day" });
  assert.deepEqual(plainOptions(["--by=contact", "--role", "brain"], spend), {
    by: "contact",
    role: "brain",
  });
});

Deno.test("plainOptions() leaves anything else to commander", () => {
  for (
    const words of [
      ["--by"], // no value
      ["--by", "--json"], // a flag where the value goes
      ["--by="],
      ["--by", "day", "--by", "week"], // repeated
      ["--json", "--json"],
      ["--json=1"],
      ["--period", "day"], // not plain
      ["extra"],
    ]
  ) {
    assert.equal(plainOptions(words, spend), undefined, words.join(" "));
  }
  assert.equal(plainOptions(["--by", "day"], { plainOptions: ["--by"] }), undefined);
});
