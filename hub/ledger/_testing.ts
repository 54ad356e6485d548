// Shared helpers for this folder's tests.
import type { AgentConfig, RoleConfig } from "../config/types.ts";
import { DEFAULT_HUB_PORT, MEMORY_DEFAULTS } from "../config/defaults.ts";
import { type CallRecord, Ledger } from "./ledger.ts";
import { tempDir } from "../../tests/_temp_dir.ts";

/** An Istanbul wall-clock time as epoch ms. */
export function ist(text: string): number {
  return Temporal.ZonedDateTime.from(`${text}[Europe/Istanbul]`).epochMilliseconds;
}

/** A ledger in a fresh temporary directory, which closing the ledger removes. */
export function tempLedger(): Ledger {
  const dir = tempDir("money_test_");
  const ledger = Ledger.open(`${dir.path}/spend.sqlite3`);
  const close = ledger.close.bind(ledger);
  ledger.close = () => {
    close();
    dir[Symbol.dispose]();
  };
  return ledger;
}

/** One call of `role` costing `usd` at `ts`. */
export function spend(role: string, ts: number, usd: number | null): CallRecord {
  return {
    ts,
    role,
    provider: "vendor-a",
    model_id: "model-1",
    input_tokens: 10,
    output_tokens: 10,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd,
    channel: "cli",
    session_id: null,
    peer: null,
  };
}

/** A configuration with just these roles, the way the loader would return it. */
export function configWith(roles: Record<string, RoleConfig>): AgentConfig {
  return {
    models: { roles, prices: {} },
    ui: {},
    sessions: { backend: "file" },
    messenger: { allowed_chat_ids: [], mode: "polling", approval_timeout_seconds: 600 },
    hub: { port: DEFAULT_HUB_PORT },
    net: {
      auto_reply: true,
      max_hops: 3,
      answer_replies: "questions",
      max_auto_replies_per_hour: 20,
      public_note: "",
      store: "file",
      link: "auto",
      poll_timeout_seconds: 25,
      universe: "",
      universe_links: false,
      universe_report_minutes: 60,
      digest: "batched",
    },
    memory: { ...MEMORY_DEFAULTS },
    tools: {
      fetch_private: false,
      shell: { enabled: false, timeout_seconds: 60, max_output_kb: 64 },
    },
    mcp: { servers: {} },
    components: { modules: [], disabled: [] },
  };
}

/** The shipped roles: brain degrades to fast, local fails over to fast. */
export function shippedRoles(): Record<string, RoleConfig> {
  return {
    brain: {
      provider: "vendor-a",
      model_id: "brain-model",
      max_tokens: 4096,
      params: {},
      budget: { usd: 15, period: "month", degrade_to: "fast" },
    },
    fast: {
      provider: "vendor-a",
      model_id: "fast-model",
      max_tokens: 1024,
      params: {},
      budget: { usd: 1, period: "day" },
    },
    local: {
      provider: "local-runtime",
      model_id: "local-model",
      max_tokens: 1024,
      params: { reasoning_effort: "none" },
      failover: "fast",
    },
  };
}
