import assert from "node:assert/strict";
import { type HubStatusReport, statusLines } from "./status.ts";

function report(net: Record<string, unknown>): HubStatusReport {
  return {
    running: true,
    pid: 42,
    started_at: null,
    uptime_seconds: 5,
    heartbeat_at: null,
    heartbeat_age_seconds: null,
    control: { port: 8790, answers: true },
    last_crash: null,
    launchd: { state: "not_applicable", label: "x" },
    net,
  };
}

Deno.test("statusLines() words what the network lacks in its own language, whatever the hub's", () => {
  // The hub runs in English; `agent hub status` asks in Turkish.
  const net = {
    configured: false,
    state: "idle",
    detail: "not configured: missing AGENT_SPINE_URL",
    missing: "spine_url",
  };
  assert.ok(
    statusLines(report(net), "tr").includes("ağ: yapılandırılmamış (AGENT_SPINE_URL eksik)"),
  );
  assert.ok(
    statusLines(report(net), "en").includes("network: not configured (missing AGENT_SPINE_URL)"),
  );
  // A hub of an older version, without the code: its own words.
  const { missing: _, ...older } = net;
  assert.ok(
    statusLines(report(older), "en").includes(
      "network: not configured (not configured: missing AGENT_SPINE_URL)",
    ),
  );
});
