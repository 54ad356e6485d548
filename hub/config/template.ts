/**
 * The shipped `agent.toml` template. `agent init` writes it, rewriting only
 * `provider` and `model_id` of `brain` and `fast` (and `[ui] lang`) in the text so
 * every comment survives.
 *
 * @module
 */

/** The template's text, with the `vendor-a` models from the shipped model table. */
export const CONFIG_TEMPLATE = `# agent.toml: the agent's configuration.
# Keys (API keys, tokens) never go here: they live in .env next to this file
# (mode 0600); .env.example lists the variable names. 'agent doctor' checks this
# file, and 'agent spend' shows what each role has spent.

[ui]
# Language of every sentence the agent shows: "en" or "tr".
# --lang and AGENT_LANG win over this.
lang = "en"

# ---------------------------------------------------------------------------
# Model roles. Code never names a model; it asks for a role. Each role says which
# provider and model id serve it.
#   provider    vendor-a, vendor-b, vendor-c, vendor-d, local-runtime or fake
#   model_id    the model id at that provider (vendor-d: a "global." inference
#               profile id in converse form)
#   max_tokens  longest answer in tokens
#   context_tokens  the history a turn sends at most (estimated tokens); older
#               turns are folded into a summary written by the fast role, and
#               the whole conversation stays on disk and in /resume
#   params      optional: base_url (another API address), api_key_env (another
#               variable holding the key), reasoning_effort, region (vendor-d),
#               replies (fake: the answers, in turn), word_ms (fake: pause
#               between streamed words)
#   budget      usd per period (day, week or month; calendar periods in
#               Europe/Istanbul) and optionally degrade_to, a role that answers
#               once the budget is spent, until the reset, and warn_at, the
#               share of the cap at which you are warned once (default 0.8;
#               0 switches the warning off)
#   failover    a role that answers when this role's model cannot be reached
#   fallback    { provider, model_id, ... } used when this role's provider has
#               no credentials
#   cache       prompt caching (vendor-a, vendor-d): system, messages (true or
#               false) and ttl ("5m" or "1h")
# Stand-ins (degrade_to, failover) must not lead back to the role they start from.
# A changed cap is read by hub, chat and TUI when they start; it never resets spend.
# ---------------------------------------------------------------------------

# Conversation and planning; chat and the TUI start on it.
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-sonnet-5-5"
max_tokens = 4096
context_tokens = 32000

[models.roles.brain.budget]
usd = 15
period = "month"
degrade_to = "fast"

# Triage and summaries.
[models.roles.fast]
provider = "vendor-a"
model_id = "claude-haiku-5-5"
max_tokens = 1024
context_tokens = 16000

[models.roles.fast.budget]
usd = 1
period = "day"

# Memory: proposes what to remember once a conversation has been quiet (see the
# memory table below), on its own small budget. hard = true: a call that could pass
# the cap is not made, so memory never costs more than this.
[models.roles.memory]
provider = "vendor-a"
model_id = "claude-haiku-5-5"
max_tokens = 1024

[models.roles.memory.budget]
usd = 0.5
period = "day"
hard = true

# A model on a local model server (free). The server's address is params.base_url,
# else AGENT_LOCAL_RUNTIME_URL, else http://127.0.0.1:11434. When the server cannot
# be reached, fast answers instead.
[models.roles.local]
provider = "local-runtime"
model_id = "qwen3:4b"
max_tokens = 1024
context_tokens = 8000
failover = "fast"

[models.roles.local.params]
reasoning_effort = "none"

# ---------------------------------------------------------------------------
# Prices in dollars per million tokens. A shipped table covers the shipped models;
# a price here wins over it. cache_read and cache_write (the 5-minute write)
# default to input, cache_write_1h (the 1-hour write) to cache_write. A model
# with no price counts as $0, so a budget on it is never reached.
# ---------------------------------------------------------------------------
# [models.prices."my-model-id"]
# input = 1.0
# output = 5.0
# cache_read = 0.1
# cache_write = 1.25
# cache_write_1h = 2.0

[sessions]
# Where chat sessions are kept: "file" (under the data directory) or "spine"
# (cloud mode).
backend = "file"

[messenger]
# Chat ids allowed to talk to the agent; MESSENGER_ALLOWED_CHAT_IDS in .env wins
# when it is set. The channel runs when MESSENGER_BOT_TOKEN is in .env.
allowed_chat_ids = []
# "polling" (the hub asks the Bot API for updates) or "webhook" (cloud mode: the
# spine receives them; MESSENGER_WEBHOOK_SECRET checks each one).
mode = "polling"
# A tier-2 tool waits this long for Approve or Deny, then counts as denied.
approval_timeout_seconds = 600

# The e-mail channel: the agent reads its own mailbox over IMAP and answers over
# SMTP, only to you and the senders you allow, and only when your mail server
# vouches for the sender (Authentication-Results). EMAIL_USERNAME and
# EMAIL_PASSWORD go into .env; docs/email.md has worked examples.
# [email]
# address = "agent@example.com"
# imap_host = "imap.example.com"
# smtp_host = "smtp.example.com"
# tls = "implicit"
# owner = "you@example.com"
# allowed_senders = []
# authserv_id = "mx.example.com"

[hub]
# Loopback port of the hub's control API (GET /status, GET /spend).
port = 8790

[net]
# The agent network (agent net ...). name: display name on the card (the
# profile's name wins).
# name = "My agent"
# Answer messages from accepted contacts.
auto_reply = true
# A reply is not sent when hops + 1 exceeds this.
max_hops = 6
# Which replies of another agent are answered: "questions" (only one that asks
# something, so a conversation ends by itself) or "always" (up to max_hops).
answer_replies = "questions"
# Auto-replies per contact per hour.
max_auto_replies_per_hour = 20
# File under persona/ that replaces user.md in network turns.
public_note = "net.md"
# Where network state lives: "file" or "spine" (cloud mode).
store = "file"
# How the hub hears about new envelopes: "auto", "websocket" or "poll".
link = "auto"
# The long poll's wait in seconds.
poll_timeout_seconds = 25
# The universe directory's host; an empty string switches the universe off.
universe = ""
# Report mutual links with message counts to listed contacts.
universe_links = true
# Minutes between universe reports (5 to 1440).
universe_report_minutes = 60
# How you hear of conversations your agent had with other agents: "batched"
# (at most one message per 10 minutes), "daily" or "off".
digest = "batched"

[memory]
# What the agent keeps between conversations (agent memory list shows it all).
# Recall works without any key or network: before each turn, the best matches of
# the conversation's scope are added as quoted data, within these token caps.
recall_tokens = 600
pinned_tokens = 400
# Once a conversation has been quiet for quiet_minutes, the memory role proposes
# memories from it: "off", "ask" (they wait for your approval) or "auto" (kept at
# once, except what came from pages, tools or other people, which always waits).
extract = "ask"
quiet_minutes = 10

[tools]
# fetch_url reaches public addresses only; true lets it reach private, loopback
# and link-local ones too (your LAN, a service on this machine).
fetch_private = false

[components]
# Extra components: module specifiers (paths relative to this directory, file:
# or npm: specifiers), each exporting a manifest.
modules = []
# Names of installed components to switch off.
disabled = []
`;
