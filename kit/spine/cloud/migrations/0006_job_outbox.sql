-- The brain's job answers and job log, kept off its container's disk (issue 28): in cloud
-- mode the brain's data folder is lost whenever its container stops, so each answer still
-- on its way to the owner is written here too (POST /hub/jobs/deliveries) and a brain that
-- starts in an empty container reads the pending ones back (GET /hub/jobs/deliveries) and
-- sends them. A write is idempotent by slot id, target and part: parts_sent only grows and
-- a row that is sent or dropped stays so, however often (and in whatever order) a write
-- arrives, so the per-part marks here say which parts a new brain must not send again.
-- The spine's cron wakes a sleeping brain while a pending row's next try is due (next_ms).
-- job_log: the brain's job log (run outcome, cost, slot), one row per slot, the newest
-- write of a slot winning, for a fresh brain and `agent jobs log --cloud`.

CREATE TABLE IF NOT EXISTS job_deliveries (
  slot_id TEXT NOT NULL,
  target TEXT NOT NULL,
  job TEXT NOT NULL,
  text TEXT NOT NULL,
  usd REAL NOT NULL,
  deliver TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  parts_sent INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_ms INTEGER NOT NULL,
  last_error TEXT,
  done_ms INTEGER,
  PRIMARY KEY (slot_id, target)
);

CREATE INDEX IF NOT EXISTS job_deliveries_due ON job_deliveries (state, next_ms);

CREATE TABLE IF NOT EXISTS job_log (
  slot_id TEXT PRIMARY KEY,
  job TEXT NOT NULL,
  slot_ms INTEGER NOT NULL,
  claimed_ms INTEGER NOT NULL,
  state TEXT NOT NULL,
  missed INTEGER NOT NULL DEFAULT 0,
  usd REAL NOT NULL DEFAULT 0,
  finished_ms INTEGER,
  detail TEXT,
  session_id TEXT
);

CREATE INDEX IF NOT EXISTS job_log_by_slot ON job_log (slot_ms);
