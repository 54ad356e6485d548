import assert from "node:assert/strict";
import { tempDir } from "../../../tests/_temp_dir.ts";
import { until } from "../../../tests/_poll.ts";
import { Outbox, OUTBOX_GIVE_UP_MS } from "./outbox.ts";
import type { EmailSettings } from "./settings.ts";
import { MailStore, type OutboxRow } from "./store.ts";

const SETTINGS = { smtp_host: "smtp.example.com", smtp_port: 465, password: "pw" } as EmailSettings;

/** Records an answer to a new mail `id` from `me@example.com`, at `now`. */
function taken(store: MailStore, id: string, now: number): void {
  answer(store, id, `<answer-${id}>`, "me@example.com", now);
}

Deno.test("Outbox: a failing send is tried again after the backoff, then given up after 24 h and told", async () => {
  using tmp = tempDir();
  const store = MailStore.open(`${tmp.path}/email.sqlite3`);
  let now = 1_000_000;
  const tries: number[] = [];
  const given: OutboxRow[] = [];
  const outbox = new Outbox({
    settings: SETTINGS,
    store,
    now: () => now,
    send: () => {
      tries.push(now);
      return Promise.reject(Object.assign(new Error("451 try later"), { responseCode: 451 }));
    },
    onGivenUp: (row) => {
      given.push(row);
      return Promise.resolve();
    },
    onError: () => {},
  });
  try {
    taken(store, "<q1@x>", now);
    const stop = new AbortController();
    const running = outbox.run(stop.signal);
    // The first try at once; each next one when the clock passes its due time.
    while (given.length === 0) {
      await new Promise((r) => setTimeout(r, 5));
      const due = store.nextDue();
      if (due !== undefined && due > now) now = due;
      outbox.poke();
    }
    stop.abort();
    await running;
    assert.ok(tries.length > 10, `${tries.length} tries`);
    // Waits grow, and none is past the cap of 10 minutes (with 20% jitter).
    const waits = tries.slice(1).map((at, i) => at - tries[i]!);
    assert.ok(waits[1]! > waits[0]!);
    assert.ok(waits.every((w) => w <= 600_000));
    assert.ok(tries.at(-1)! - tries[0]! <= OUTBOX_GIVE_UP_MS);
    assert.equal(given[0]!.id, "<answer-<q1@x>>");
    assert.equal(store.counts().undelivered, 1);
    assert.deepEqual(store.due(now + OUTBOX_GIVE_UP_MS), []);
  } finally {
    store.close();
  }
});

Deno.test("Outbox: a permanent refusal (5xx) is not tried again; a sent answer is sent once", async () => {
  using tmp = tempDir();
  const store = MailStore.open(`${tmp.path}/email.sqlite3`);
  const sent: string[] = [];
  const given: string[] = [];
  const outbox = new Outbox({
    settings: SETTINGS,
    store,
    send: (row) => {
      if (row.recipient === "me@example.com" && row.answers === "<q1@x>") {
        return Promise.reject(Object.assign(new Error("550 no such user"), { responseCode: 550 }));
      }
      sent.push(row.id);
      return Promise.resolve();
    },
    onGivenUp: (row) => {
      given.push(row.id);
      return Promise.resolve();
    },
    onError: () => {},
  });
  try {
    taken(store, "<q1@x>", Date.now());
    taken(store, "<q2@x>", Date.now());
    const stop = new AbortController();
    const running = outbox.run(stop.signal);
    while (given.length + sent.length < 2) await new Promise((r) => setTimeout(r, 5));
    outbox.poke();
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await running;
    assert.deepEqual(given, ["<answer-<q1@x>>"]);
    assert.deepEqual(sent, ["<answer-<q2@x>>"]);
    assert.deepEqual(store.counts(), { answered: 1, refused: 0, outbox: 0, undelivered: 1 });
  } finally {
    store.close();
  }
});

/** Records the answer `answerId` to a new mail `id` from `sender`, at `now`. */
function answer(store: MailStore, id: string, answerId: string, sender: string, now: number) {
  store.take({
    messageId: id,
    folder: "INBOX",
    uidvalidity: 1,
    uid: Number(id.replace(/\D/g, "")),
    sender,
    person: "owner",
    thread: id,
    subject: "s",
    state: "taken",
    reason: null,
    receivedMs: now,
    raw: new Uint8Array([1]),
  });
  store.answered(id, {
    id: answerId,
    answers: id,
    recipient: sender,
    raw: new TextEncoder().encode("Subject: Re: s\r\n\r\nhi\r\n"),
    firstMs: now,
  });
}

Deno.test("Outbox: answers recorded in the same millisecond go in the order recorded", () => {
  using tmp = tempDir();
  const store = MailStore.open(`${tmp.path}/email.sqlite3`);
  try {
    // Answer ids are hashes: the first answer's id may sort after the second's.
    answer(store, "<q1@x>", "<answer.ff@x>", "me@example.com", 5_000);
    answer(store, "<q2@x>", "<answer.00@x>", "me@example.com", 5_000);
    answer(store, "<q3@x>", "<answer.aa@x>", "bob@example.org", 5_000);
    assert.deepEqual(store.due(5_000).map((r) => r.answers), ["<q1@x>", "<q3@x>"]);
    store.sent("<answer.ff@x>", 5_001);
    assert.deepEqual(store.due(5_001).map((r) => r.answers), ["<q2@x>", "<q3@x>"]);
  } finally {
    store.close();
  }
});

Deno.test("Outbox: an answer waiting for a retry holds that recipient's later answers, not another's", async () => {
  using tmp = tempDir();
  const store = MailStore.open(`${tmp.path}/email.sqlite3`);
  let now = 1_000_000;
  let failNext = 1;
  const sent: string[] = [];
  const outbox = new Outbox({
    settings: SETTINGS,
    store,
    now: () => now,
    send: (row) => {
      if (row.answers === "<q1@x>" && failNext > 0) {
        failNext--;
        return Promise.reject(Object.assign(new Error("451 try later"), { responseCode: 451 }));
      }
      sent.push(row.answers);
      return Promise.resolve();
    },
    onGivenUp: () => Promise.resolve(),
    onError: () => {},
  });
  try {
    answer(store, "<q1@x>", "<answer.1@x>", "me@example.com", now);
    answer(store, "<q2@x>", "<answer.2@x>", "me@example.com", now);
    answer(store, "<q3@x>", "<answer.3@x>", "bob@example.org", now);
    const stop = new AbortController();
    const running = outbox.run(stop.signal);
    await until("the other recipient's answer", () => sent.length >= 1);
    // The first answer waits for its retry: the second to the same recipient waits too.
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(sent, ["<q3@x>"]);
    assert.ok(store.nextDue()! > now, "the retry is due later, nothing else is due now");
    now = store.nextDue()!;
    outbox.poke();
    await until("every answer", () => sent.length === 3);
    stop.abort();
    await running;
    assert.deepEqual(sent, ["<q3@x>", "<q1@x>", "<q2@x>"]);
  } finally {
    store.close();
  }
});
