import assert from "node:assert/strict";
import { messengerLine } from "./status.ts";

Deno.test("messengerLine() says whether the messenger is connected, how, and since when", () => {
  const block = {
    state: "polling",
    mode: "polling",
    last_update_at: "2026-11-26T12:05:00.000Z",
    last_error: null,
  };
  assert.equal(
    messengerLine(block, "en"),
    "messenger: connected (polling); last update 26.11.2026 15:05; last error: none",
  );
  assert.equal(
    messengerLine(block, "tr"),
    "mesajlaşma: bağlı (polling); son güncelleme 26.11.2026 15:05; son hata: yok",
  );
  const conflict = {
    state: "conflict",
    mode: "polling",
    last_update_at: null,
    last_error: "another process polls this bot token (409 Conflict)",
  };
  assert.equal(
    messengerLine(conflict, "en"),
    "messenger: not connected: another process polls this bot (polling); last update none yet; last error: another process polls this bot token (409 Conflict)",
  );
  assert.equal(
    messengerLine({ state: "webhook", mode: "webhook", last_update_at: null }, "tr"),
    "mesajlaşma: bağlı (webhook); son güncelleme henüz yok; son hata: yok",
  );
});
