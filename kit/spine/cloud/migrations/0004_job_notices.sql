-- The ceiling notices of both hubs on one identity (issue 28): a hub that pauses a job at
-- a ceiling (its day, one run's cap, a spent budget) asks here before it tells the owner
-- (POST /hub/jobs/notice), so the owner hears "job X is paused" once per job, day and
-- reason however many hubs pause their copy. told_at: when the notice was told (epoch ms);
-- a hub whose job was resumed after that tells again (the owner acted since).

CREATE TABLE IF NOT EXISTS job_notices (
  job TEXT NOT NULL,
  day_ms INTEGER NOT NULL,
  reason TEXT NOT NULL,
  hub TEXT NOT NULL,
  told_at INTEGER NOT NULL,
  PRIMARY KEY (job, day_ms, reason)
);
