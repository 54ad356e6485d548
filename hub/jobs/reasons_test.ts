import assert from "node:assert/strict";
import { t } from "./_messages.ts";
import { reasonIn } from "./reasons.ts";

Deno.test("reasonIn() says every stored reason again in the other language, with its values", () => {
  const vars = {
    name: "news",
    spent: "$0.0140",
    cap: "$0.02",
    role: "fast",
    detail: "connection refused (127.0.0.1:9)",
  };
  const keys = [
    "still_running",
    "interrupted",
    "taken",
    "spine_unreachable",
    "run_cancelled",
    "run_closed",
    "ceiling_day",
    "ceiling_run",
    "budget_spent",
    "paused_day",
  ] as const;
  for (const key of keys) {
    const en = t("en", key, vars);
    const tr = t("tr", key, vars);
    assert.notEqual(en, tr, key);
    assert.equal(reasonIn(en, "tr"), tr, key);
    assert.equal(reasonIn(tr, "en"), en, key);
    assert.equal(reasonIn(en, "en"), en, key);
  }
});

Deno.test("reasonIn() reads the outcome words older hubs stored; other text stays as written", () => {
  assert.equal(reasonIn("cancelled", "tr"), "iptal edildi: çalışma yanıt vermeden durduruldu");
  assert.equal(reasonIn("closed", "en"), "not run: the hub closed before its turn came");
  assert.equal(reasonIn("HTTP 500", "tr"), "HTTP 500");
  assert.equal(reasonIn("", "tr"), "");
});
