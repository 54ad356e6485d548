-- Cloud mode's relational store (document 3): state documents, chat sessions and
-- messenger updates waiting for the brain. Applied by `wrangler d1 migrations apply`
-- on deploy and by `deno task spine:dev` with AGENT_MODE=cloud.

CREATE TABLE IF NOT EXISTS state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  meta TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions (updated_at DESC, session_id);

CREATE TABLE IF NOT EXISTS session_agents (
  session_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, agent_id)
);

CREATE TABLE IF NOT EXISTS session_messages (
  session_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  message_id INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (session_id, agent_id, message_id)
);

CREATE TABLE IF NOT EXISTS session_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  data TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS session_events_by_session ON session_events (session_id, seq);

-- Bot API updates taken by the webhook route, kept until the brain has them.
CREATE TABLE IF NOT EXISTS messenger_updates (
  update_id INTEGER PRIMARY KEY,
  data TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
