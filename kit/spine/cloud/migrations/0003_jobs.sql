-- The job slots of both hubs on one identity (issue 28): the local hub and the cloud
-- brain claim each scheduled slot here before they run it (POST /hub/jobs/claim), so a
-- slot runs at most once across them, and the claim reserves the run's ceiling against
-- the job's daily total in the same statement, so two hubs never pass its
-- max_usd_per_day; the run is settled to its real cost after (POST /hub/jobs/settle).
-- day_ms: the Istanbul midnight the slot's day starts at (epoch ms); state running or
-- settled; a running slot counts reserved_usd, a settled one usd.

CREATE TABLE IF NOT EXISTS job_slots (
  slot_id TEXT PRIMARY KEY,
  job TEXT NOT NULL,
  day_ms INTEGER NOT NULL,
  hub TEXT NOT NULL,
  state TEXT NOT NULL,
  reserved_usd REAL NOT NULL,
  usd REAL NOT NULL DEFAULT 0,
  session_id TEXT,
  claimed_at INTEGER NOT NULL,
  settled_at INTEGER
);

CREATE INDEX IF NOT EXISTS job_slots_by_day ON job_slots (job, day_ms);
