-- The pauses both hubs on one identity share (issue 28): a job paused on one hub (by the
-- owner, `agent jobs pause NAME` or `/jobs pause`, or at a ceiling) is paused on the other
-- too, and `*` pauses every job (`pause --all`). A claim (POST /hub/jobs/claim) reads this
-- table in the same statement that writes the slot, so a paused job's slot is refused
-- atomically; resuming (POST /hub/jobs/resume) deletes the row (`*`: every row).
-- reason: owner, day, run or budget; hub: the hub that paused it; ts: when (epoch ms).

CREATE TABLE IF NOT EXISTS job_pauses (
  job TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  hub TEXT NOT NULL,
  ts INTEGER NOT NULL
);
