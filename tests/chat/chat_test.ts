import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { agent, fakeConfig, makeHome } from "./_run.ts";
import { freePort } from "../_port.ts";

function sessionsOf(home: string): string[] {
  try {
    return [...Deno.readDirSync(`${home}/data/sessions`)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

function ledgerRows(home: string): Record<string, unknown>[] {
  const db = new DatabaseSync(`${home}/data/spend.sqlite3`, { readOnly: true });
  try {
    return db.prepare("SELECT * FROM calls ORDER BY id").all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

Deno.test("agent chat reads one message per line from a pipe, prints each answer, exits 0", async () => {
  const home = makeHome(fakeConfig(["First answer.", "Second answer."]));
  try {
    const r = await agent(["chat"], { home, stdin: "Hello\n\n/status\nAnd again\n" });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines[0], "First answer.");
    assert.match(
      lines[1]!,
      /^Session chat-\d{8}-\d{6}-[0-9a-f]{4} · 2 messages · role brain \(fake fake-brain\)/,
    );
    assert.match(
      lines[2]!,
      /^Budget: brain \$0\.00 of \$15\.00 this month \(resets \d\d\.\d\d\.\d{4} 00:00\)$/,
    );
    assert.match(
      lines[3]!,
      /^Forecast: brain not this period \(\$0\.00 of \$15\.00 by \d\d\.\d\d\.\d{4} 00:00 at \$0\.00\/day\)$/,
    );
    assert.equal(lines[4], "Second answer.");
    assert.equal(lines.length, 5);
    const [session] = sessionsOf(home);
    assert.ok(session);
    const rows = ledgerRows(home);
    assert.deepEqual(rows.map((x) => [x.role, x.provider, x.usd, x.channel, x.session_id]), [
      ["brain", "fake", 0, "chat", session],
      ["brain", "fake", 0, "chat", session],
    ]);
    // --resume (bare) picks that session up again and remembers its history.
    const again = await agent(["chat", "--resume"], { home, stdin: "/status\n" });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^Session ${session} · 4 messages · role brain`));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat --session opens or creates a named session; --role and /model pick the role", async () => {
  const home = makeHome(fakeConfig());
  try {
    const r = await agent(["chat", "--session", "work.1", "--role", "fast"], {
      home,
      stdin: "Hi\n/model\n/model brain\nHi again\n/model nope\n/quit\nnever sent\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        "Fast here.",
        "Roles (current: fast):",
        "    brain: fake fake-brain",
        "  * fast: fake fake-fast",
        "Role brain (fake fake-brain) answers from now on.",
        "Okay.",
        "There is no role 'nope' in agent.toml.",
        "",
      ].join("\n"),
    );
    assert.deepEqual(sessionsOf(home), ["work.1"]);
    const meta = JSON.parse(Deno.readTextFileSync(`${home}/data/sessions/work.1/meta.json`));
    assert.equal(meta.role, "brain");
    assert.equal(meta.title, "Hi");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat exits 2 before anything opens: missing key, unknown or invalid session, bad config", async () => {
  const home = makeHome(`[models.roles.brain]
provider = "vendor-b"
model_id = "gpt-x"
`);
  try {
    const missing = await agent(["chat"], { home, stdin: "Hello\n" });
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr.trim(),
      "fail role brain: provider 'vendor-b' is missing VENDOR_B_API_KEY (names are in .env.example)",
    );
    const turkish = await agent(["--lang", "tr", "chat"], { home, stdin: "Hello\n" });
    assert.equal(turkish.code, 2);
    assert.equal(
      turkish.stderr.trim(),
      "fail role brain: 'vendor-b' sağlayıcısında VENDOR_B_API_KEY eksik (adlar .env.example içinde)",
    );
    assert.equal(missing.stdout, "");
    assert.throws(() => Deno.statSync(`${home}/data/spend.sqlite3`), "the ledger was not opened");

    const unknown = await agent(["chat", "--resume", "nope"], {
      home,
      env: { VENDOR_B_API_KEY: "k" },
    });
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr.trim(), "Unknown session: nope.");

    const invalid = await agent(["chat", "--session", "../etc"], {
      home,
      env: { VENDOR_B_API_KEY: "k" },
    });
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /^Invalid session id '\.\.\/etc'/);

    const role = await agent(["chat", "--role", "ghost"], { home, env: { VENDOR_B_API_KEY: "k" } });
    assert.equal(role.code, 2);
    assert.equal(role.stderr.trim(), "There is no role 'ghost' in agent.toml.");
    // A member of every plain object is no role either.
    const inherited = await agent(["chat", "--role", "toString"], {
      home,
      env: { VENDOR_B_API_KEY: "k" },
    });
    assert.equal(inherited.code, 2);
    assert.equal(inherited.stderr.trim(), "There is no role 'toString' in agent.toml.");

    Deno.writeTextFileSync(
      `${home}/agent.toml`,
      `[models.roles.brain]
provider = "fake"
model_id = "m"
budget = { usd = 5, period = "1mo" }
`,
    );
    const bad = await agent(["chat"], { home, stdin: "Hello\n" });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /'budget' needs 'period', one of day, week, month\./);
    assert.deepEqual(sessionsOf(home), []);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat without a terminal answers no to tier-2 tools and /settings set refuses, writing nothing", async () => {
  const home = makeHome(fakeConfig([
    '/tool write_note {"name":"plan","text":"secret plan"}',
    "I could not save it.",
    "/tool current_time {}",
    "It is late.",
  ]));
  try {
    const r = await agent(["chat"], {
      home,
      stdin: "Save my plan\nWhat time is it?\n/settings set VENDOR_B_API_KEY\n/quit\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith("I could not save it.\nIt is late.\n"), r.stdout);
    assert.throws(() => Deno.statSync(`${home}/notes/plan.md`), "the tier-2 tool did not run");
    // The refusal is one line on stderr; stdout keeps the answers alone.
    assert.equal(r.stderr, "✗ write_note did not run: no one could approve it\n");
    // Piped input would take the next line (here `/quit`) as the key: refused instead.
    assert.match(
      r.stdout,
      /\/settings set needs a terminal to take VENDOR_B_API_KEY unseen; nothing was written\. Run chat in a terminal, or edit .*\.env\.\n$/,
    );
    assert.throws(() => Deno.statSync(`${home}/.env`), "nothing was written");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent --lang tr chat from a pipe: a refused tier-2 call is one Turkish line on stderr, the model's answer on stdout", async () => {
  const home = makeHome(fakeConfig([
    '/tool write_note {"name":"plan","text":"x"}',
    "Notu kaydettim.",
  ]));
  try {
    const r = await agent(["--lang", "tr", "chat"], { home, stdin: "Planımı kaydet\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Notu kaydettim.\n");
    assert.equal(r.stderr, "✗ write_note çalışmadı: onaylayabilecek kimse yoktu\n");
    assert.throws(() => Deno.statSync(`${home}/notes/plan.md`));
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat shows the failover notice and logs the warning when the local server is down", async () => {
  const port = freePort();
  const home = makeHome(`${fakeConfig()}
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
failover = "fast"
[models.roles.local.params]
base_url = "http://127.0.0.1:${port}"
`);
  try {
    const r = await agent(["chat", "--role", "local"], { home, stdin: "Hi\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "Fast here.\n\nlocal is not reachable right now; fast answered instead.\n",
    );
    assert.match(
      Deno.readTextFileSync(`${home}/data/logs/agent.log`),
      /WARNING role local: local-runtime llama3\.2 is not reachable \(connection refused\); fast answers instead/,
    );
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat /resume lists sessions and reopens one with the role it remembers", async () => {
  const home = makeHome(fakeConfig());
  try {
    const first = await agent(["chat", "--session", "talk-a", "--role", "fast"], {
      home,
      stdin: "Remember me\n",
    });
    assert.equal(first.code, 0, first.stderr);
    const r = await agent(["chat"], {
      home,
      stdin: "/resume\n/resume talk-a\n/status\n/resume ghost\n",
    });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n");
    assert.equal(lines[0], "Recent sessions:");
    assert.match(
      lines[1]!,
      /^ {2}talk-a · \d\d\.\d\d\.\d{4} \d\d:\d\d · 2 messages · Remember me$/,
    );
    assert.equal(lines[2], "Session talk-a (2 messages).");
    assert.match(lines[3]!, /^Session talk-a · 2 messages · role fast \(fake fake-fast\)/);
    assert.match(lines[5]!, /^Forecast: /);
    assert.equal(lines[6], "Unknown session: ghost.");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent chat ends with the ledger's sentence and exit 1 when the ledger cannot be opened", async () => {
  const home = makeHome(fakeConfig(["Never shown."]));
  try {
    // A directory where the ledger file should be: SQLite cannot open it.
    Deno.mkdirSync(`${home}/data/spend.sqlite3`, { recursive: true });
    const r = await agent(["chat"], { home, stdin: "Hello\n" });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      // SQLite's own words for a directory in the ledger's place (they vary with how it is opened).
      /^Cannot open the spend ledger \S+\/data\/spend\.sqlite3: (unable to open database file|disk I\/O error)[^\n]*\n$/,
    );
    assert.equal(r.stdout, "");
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("agent --lang tr chat: a failover is one Turkish sentence; the English warning goes only to the log", async () => {
  const port = freePort();
  const home = makeHome(`${fakeConfig()}
[models.roles.local]
provider = "local-runtime"
model_id = "llama3.2"
failover = "fast"
[models.roles.local.params]
base_url = "http://127.0.0.1:${port}"
`);
  try {
    const r = await agent(["--lang", "tr", "chat", "--role", "local"], {
      home,
      stdin: "Merhaba\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, /local şu an ulaşılamıyor; onun yerine fast yanıtladı\.\n$/);
    assert.match(Deno.readTextFileSync(`${home}/data/logs/agent.log`), /WARNING role local: /);
    // With -v the log line comes to stderr as well.
    const verbose = await agent(["-v", "--lang", "tr", "chat", "--role", "local"], {
      home,
      stdin: "Merhaba\n",
    });
    assert.match(verbose.stderr, /warning: role local: /);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
