/**
 * Spend you can see, as a user meets it: `agent spend --by`, `--forecast`, the early
 * warning in chat, and the hub's `GET /spend?by=`, `spend.forecast` and `budget.warning`
 * event, each against a seeded ledger in a real home.
 */
import assert from "node:assert/strict";
import { agent, cleanup } from "../cli/_run.ts";
import { type CallRecord, Ledger } from "@agent/hub/money";
import { controlFetch } from "../_control.ts";
import { freePort } from "../_port.ts";
import { until } from "../_poll.ts";
import { startHomeHub } from "../_home_hub.ts";
import { initHome } from "../_init_home.ts";

async function fakeHome(port = freePort()): Promise<string> {
  const home = await initHome();
  const toml = await Deno.readTextFile(`${home}/agent.toml`);
  await Deno.writeTextFile(`${home}/agent.toml`, toml.replace(/^port = \d+$/m, `port = ${port}`));
  return home;
}

function call(fields: Partial<CallRecord>): CallRecord {
  return {
    ts: Date.now() - 60_000,
    role: "brain",
    provider: "fake",
    model_id: "fake-brain",
    input_tokens: 100,
    output_tokens: 10,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    usd: 1,
    channel: "chat",
    session_id: "s1",
    peer: null,
    ...fields,
  };
}

function seed(home: string, rows: Partial<CallRecord>[]): void {
  using ledger = Ledger.open(`${home}/data/spend.sqlite3`);
  ledger.recordMany(rows.map(call));
}

const SEED: Partial<CallRecord>[] = [
  { channel: "chat", session_id: "s1", usd: 2 },
  { channel: "net", session_id: "n1", peer: "alice.example", usd: 0.5 },
  { channel: "net", session_id: "n2", peer: "alice.example/chef", usd: 0.25 },
  { channel: "messenger", session_id: "m1", usd: 1 },
];

Deno.test("agent spend --by channel|contact|session|day: rows by dollars, totals, JSON", async () => {
  try {
    const home = await fakeHome();
    seed(home, SEED);
    let r = await agent(["--home", home, "spend", "--by", "channel"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^Spend by channel, this month \(\d\d\.\d\d\.\d{4} 00:00 to /);
    assert.deepEqual(lines.slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2)), [
      ["chat", "$2.00"],
      ["messenger", "$1.00"],
      ["net", "$0.75"],
      ["total", "$3.75"],
    ]);
    r = await agent(["--home", home, "spend", "--by", "contact", "--json"]);
    const contact = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(contact), [
      "by",
      "period",
      "role",
      "since",
      "until",
      "rows",
      "total",
    ]);
    assert.deepEqual(contact.rows.map((x: { key: string; usd: number }) => [x.key, x.usd]), [
      ["alice.example", 0.5],
      ["alice.example/chef", 0.25],
    ]);
    r = await agent([
      "--home",
      home,
      "spend",
      "--by",
      "session",
      "--role",
      "brain",
      "--period",
      "week",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Spend by session, this week .*, role brain:\n {2}chat s1 +\$2\.00 +1 call/,
    );
    r = await agent(["--home", home, "--lang", "tr", "spend", "--by", "day", "--json"]);
    const days = JSON.parse(r.stdout);
    assert.equal(days.rows.at(-1).usd, 3.75);
    assert.equal(days.total.calls, 4);
    assert.ok(days.rows.every((d: { key: string }) => /^\d{4}-\d\d-\d\d$/.test(d.key)));
    // Plain spend keeps the spec's lines and JSON.
    r = await agent(["--home", home, "spend", "--json"]);
    assert.deepEqual(Object.keys(JSON.parse(r.stdout)), ["brain", "fast", "memory", "local"]);
  } finally {
    await cleanup();
  }
});

Deno.test("agent spend --forecast adds one line; --json --forecast adds forecast beside the roles", async () => {
  try {
    const home = await fakeHome();
    seed(home, [{ usd: 3 }]);
    let r = await agent(["--home", home, "spend", "--forecast"]);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 5);
    assert.match(lines[4]!, /^Forecast: brain (reaches \$15\.00 around|not this period)/);
    assert.match(lines[4]!, /; fast not this period \(\$0\.00 of \$1\.00 by /);
    r = await agent(["--home", home, "spend", "--json", "--forecast"]);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(json.forecast), ["brain", "fast", "memory"]);
    assert.equal(json.forecast.brain.spent_usd, 3);
  } finally {
    await cleanup();
  }
});

const USAGE = [
  [["--by", "week"], "--by needs one of channel, contact, session, purpose, day, job, not 'week'."],
  [["--role", "brain"], "--role goes with --by."],
  [["--period", "day"], "--period goes with --by."],
  [["--by", "day", "--period", "year"], "--period needs day, week or month, not 'year'."],
  [
    ["--by", "day", "--role", "chef"],
    "There is no role 'chef' in agent.toml (roles: brain, fast, memory, local).",
  ],
  // A member of every plain object is no role either.
  [
    ["--by", "day", "--role", "constructor"],
    "There is no role 'constructor' in agent.toml (roles: brain, fast, memory, local).",
  ],
] as const;

for (const [args, sentence] of USAGE) {
  Deno.test(`agent spend ${args.join(" ")}: a usage error, exit 2`, async () => {
    try {
      const home = await fakeHome();
      const r = await agent(["--home", home, "spend", ...args]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `${sentence}\n`);
      assert.equal(r.stdout, "");
    } finally {
      await cleanup();
    }
  });
}

Deno.test("chat prints the budget warning once per period, in the UI language, before the answer", async () => {
  try {
    const home = await fakeHome();
    seed(home, [{ usd: 12.5 }]);
    let r = await agent(["--home", home, "--lang", "tr", "chat"], { stdin: "merhaba\n" });
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split("\n");
    const warning = out.findIndex((l) =>
      l.startsWith("Bütçe uyarısı: brain bu ay $15,00 sınırının $12,50")
    );
    assert.ok(warning >= 0, r.stdout);
    assert.ok(out.slice(warning + 1).some((l) => l.trim() !== ""), "the answer follows");
    r = await agent(["--home", home, "chat"], { stdin: "hello again\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("Budget warning"), r.stdout);
  } finally {
    await cleanup();
  }
});

Deno.test({
  name:
    "the hub: GET /spend?by=, spend.forecast in /status, and one budget.warning event per period",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const port = freePort();
    const home = await fakeHome(port);
    seed(home, [...SEED, { usd: 9 }]);
    const base = `http://127.0.0.1:${port}`;
    // deno-lint-ignore no-explicit-any
    const get = async (path: string): Promise<{ status: number; body: any }> => {
      const res = path === "/health"
        ? await fetch(`${base}${path}`)
        : await controlFetch(port, path);
      return { status: res.status, body: await res.json() };
    };
    // In the test's process, as `agent hub run` assembles it: its HTTP answers are the point.
    let hub = await startHomeHub(home);
    try {
      assert.equal((await get("/health")).body.ok, true);
      const byContact = await get("/spend?by=contact");
      assert.equal(byContact.status, 200);
      assert.deepEqual(byContact.body.rows.map((x: { key: string }) => x.key), [
        "alice.example",
        "alice.example/chef",
      ]);
      const cli = await agent(["--home", home, "spend", "--by", "contact", "--json"]);
      assert.deepEqual(JSON.parse(cli.stdout).rows, byContact.body.rows);
      assert.deepEqual((await get("/spend?by=hour")).status, 400);
      assert.deepEqual((await get("/spend?by=day&role=chef")).body, {
        error: "bad_request",
        detail: "role: no role 'chef'",
      });
      const status = await get("/status");
      assert.deepEqual(Object.keys(status.body.spend.forecast), ["brain", "fast", "memory"]);
      assert.equal(status.body.spend.forecast.brain.spent_usd, 12.75);

      const events = async () =>
        (await get("/net/events?after=0")).body.events.filter((e: { type: string }) =>
          e.type === "budget.warning"
        );
      await until("the warning event", async () => (await events()).length === 1, {
        timeoutMs: 10_000,
      });
      const [event] = await events();
      assert.equal(event.role, "brain");
      assert.match(
        event.text,
        /^Budget warning: brain has spent \$12\.75 of \$15\.00 this month \(85%\)/,
      );
      await hub.stop();
      // A restarted hub does not tell it again.
      hub = await startHomeHub(home);
      assert.equal((await get("/health")).body.ok, true);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await events()).length, 1);
      const log = await Deno.readTextFile(`${home}/data/logs/agent.log`);
      assert.equal(log.split("\n").filter((l) => l.includes("budget: brain passed 80%")).length, 1);
    } finally {
      await hub.stop();
      await cleanup();
    }
  },
});
