-- The cloud ledger (issue 26): one row per model call of the brain, appended through
-- POST /hub/ledger and idempotent by call_id, so the budgets survive a container
-- restart. Columns as in the hub's local ledger; ts in epoch ms; usd NULL for an
-- unpriced model; estimated 1 when the provider's usage never came.

CREATE TABLE IF NOT EXISTS ledger (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  call_id TEXT NOT NULL UNIQUE,
  ts INTEGER NOT NULL,
  role TEXT NOT NULL,
  provider TEXT NOT NULL,
  model_id TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cache_read_tokens INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  usd REAL,
  estimated INTEGER NOT NULL DEFAULT 0,
  channel TEXT NOT NULL,
  session_id TEXT,
  peer TEXT
);

CREATE INDEX IF NOT EXISTS ledger_by_ts ON ledger (ts, seq);
