/**
 * The spine's cloud-only routes on workerd (document 3): state, files and sessions,
 * each row of the tables, their ids, limits, orderings, merges and errors.
 *
 * A test that writes only keys and sessions of its own (state `net.contacts` and `k`,
 * sessions `m`, `s` and `e`) takes turns on one cloud spine with the tests that write
 * nothing (`sharedSpineTest`); a test that lists or counts what a store holds (the files,
 * the sessions, local mode's empty tables) gets a fresh one (`spineTest`).
 */
import assert from "node:assert/strict";
import { hub } from "./_fixtures.ts";
import { sharedSpineTest, spineTest, TOKEN } from "./_setup.ts";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function put(body: unknown): RequestInit {
  return { method: "PUT", body: JSON.stringify(body) };
}

function post(body: unknown): RequestInit {
  return { method: "POST", body: JSON.stringify(body) };
}

async function text(url: string, path: string, init: RequestInit = {}) {
  const r = await fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) },
  });
  return { status: r.status, type: r.headers.get("content-type"), text: await r.text() };
}

spineTest("cloud: local mode answers cloud_mode_off and touches neither store", {
  relationalStore: true,
}, async (spine) => {
  for (
    const [method, path, body] of [
      ["PUT", "/hub/state/net.contacts", JSON.stringify({ value: 1 })],
      ["PUT", "/hub/files/agent.toml", "x = 1"],
      ["POST", "/hub/sessions", JSON.stringify({ session_id: "s", data: {} })],
      ["POST", "/hub/sessions/s/events", JSON.stringify({ data: {} })],
    ] as const
  ) {
    const r = await hub(spine.url, TOKEN, path, { method, body });
    assert.deepEqual([r.status, r.body], [404, { error: "cloud_mode_off" }], path);
  }
  const db = await spine.mf.getD1Database("DB");
  for (const table of ["state", "sessions", "session_events"]) {
    const row = await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
    assert.equal(row?.n, 0, table);
  }
  const kv = (await spine.mf.getKVNamespace("PEER_CARDS")) as unknown as {
    list(options: { prefix: string }): Promise<{ keys: unknown[] }>;
  };
  assert.deepEqual((await kv.list({ prefix: "file:" })).keys, []);
});

sharedSpineTest("cloud: the bearer token comes before cloud_mode_off and every cloud route", {
  mode: "cloud",
}, async (spine) => {
  for (const path of ["/hub/state/a", "/hub/files", "/hub/sessions", "/hub/brain"]) {
    const r = await hub(spine.url, "wrong-token", path);
    assert.deepEqual([r.status, r.body], [401, { error: "unauthorized" }], path);
  }
});

sharedSpineTest("cloud: state PUT, GET and DELETE with integer updated_at", {
  mode: "cloud",
}, async (spine) => {
  const before = Math.floor(Date.now() / 1000);
  const value = { contacts: [{ address: "bob.example", note: "ünï 😀" }], n: null };
  const saved = await hub(spine.url, TOKEN, "/hub/state/net.contacts", put({ value }));
  assert.equal(saved.status, 200);
  assert.equal(saved.body.key, "net.contacts");
  assert.ok(Number.isInteger(saved.body.updated_at) && Number(saved.body.updated_at) >= before);
  const got = await hub(spine.url, TOKEN, "/hub/state/net.contacts");
  assert.deepEqual(got.body, { key: "net.contacts", value, updated_at: saved.body.updated_at });
  // Any JSON value: a string, null, a number.
  for (const v of ["text", null, 42, [1, 2]]) {
    await hub(spine.url, TOKEN, "/hub/state/k", put({ value: v }));
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/state/k")).body.value, v);
  }
  assert.deepEqual(
    (await hub(spine.url, TOKEN, "/hub/state/net.contacts", { method: "DELETE" })).body,
    {
      deleted: true,
    },
  );
  assert.deepEqual(
    (await hub(spine.url, TOKEN, "/hub/state/net.contacts", { method: "DELETE" })).body,
    {
      deleted: false,
    },
  );
  const gone = await hub(spine.url, TOKEN, "/hub/state/net.contacts");
  assert.deepEqual([gone.status, gone.body], [404, { error: "not_found" }]);
});

sharedSpineTest("cloud: state keys, bodies and limits", { mode: "cloud" }, async (spine) => {
  for (const key of ["Upper", "_x", ".x", "a/b", "a%20b", "x".repeat(129), "é"]) {
    const r = await hub(spine.url, TOKEN, `/hub/state/${key}`, put({ value: 1 }));
    assert.equal(r.status, 400, key);
    assert.equal(r.body.error, "bad_request", key);
  }
  for (const key of ["a", "0", "net.log", "a:b-c_d.e", "x".repeat(128)]) {
    assert.equal((await hub(spine.url, TOKEN, `/hub/state/${key}`, put({ value: 1 }))).status, 200);
  }
  for (const body of ["{}", "[]", "1", "not json", '{"val":1}']) {
    const r = await hub(spine.url, TOKEN, "/hub/state/a", { method: "PUT", body });
    assert.deepEqual([r.status, r.body.error], [400, "bad_request"], body);
  }
  // 1 MiB in all: a value just inside fits, one past it is 413.
  const room = 1024 * 1024 - JSON.stringify({ value: "" }).length;
  const fits = await hub(spine.url, TOKEN, "/hub/state/big", put({ value: "x".repeat(room) }));
  assert.equal(fits.status, 200);
  const over = await hub(spine.url, TOKEN, "/hub/state/big", put({ value: "x".repeat(room + 1) }));
  assert.deepEqual([over.status, over.body], [413, { error: "too_large" }]);
  const r = await hub(spine.url, TOKEN, "/hub/state/a", { method: "POST", body: "{}" });
  assert.equal(r.status, 405);
  assert.equal(r.headers.get("allow"), "GET, PUT, DELETE");
});

spineTest("cloud: files are text in the key-value store, listed in the fixed order", {
  mode: "cloud",
}, async (spine) => {
  const names = [
    "persona/subs/writer.md",
    "persona/net.md",
    "persona/subs/Alpha-1.md",
    "agent.toml",
    "persona/persona.md",
    "persona/user.md",
  ];
  for (const name of names) {
    const r = await hub(spine.url, TOKEN, `/hub/files/${name}`, {
      method: "PUT",
      body: `# ${name}\nçğış 😀\n`,
    });
    assert.equal(r.status, 200, name);
    assert.equal(r.body.name, name);
    assert.equal(r.body.size, new TextEncoder().encode(`# ${name}\nçğış 😀\n`).length);
    assert.ok(Number.isInteger(r.body.updated_at));
  }
  const list = await hub(spine.url, TOKEN, "/hub/files");
  assert.deepEqual((list.body.files as { name: string }[]).map((f) => f.name), [
    "agent.toml",
    "persona/persona.md",
    "persona/user.md",
    "persona/net.md",
    "persona/subs/Alpha-1.md",
    "persona/subs/writer.md",
  ]);
  const got = await text(spine.url, "/hub/files/persona/net.md");
  assert.deepEqual([got.status, got.type, got.text], [
    200,
    "text/plain; charset=utf-8",
    "# persona/net.md\nçğış 😀\n",
  ]);
  // The name is checked after URL decoding: %2F is a slash.
  assert.equal((await text(spine.url, "/hub/files/persona%2Fnet.md")).status, 200);
  assert.deepEqual(
    (await hub(spine.url, TOKEN, "/hub/files/persona/net.md", { method: "DELETE" })).body,
    {
      deleted: true,
    },
  );
  assert.deepEqual(
    (await hub(spine.url, TOKEN, "/hub/files/persona/net.md", { method: "DELETE" })).body,
    {
      deleted: false,
    },
  );
  assert.equal((await text(spine.url, "/hub/files/persona/net.md")).status, 404);
});

sharedSpineTest("cloud: disallowed file names are 404, oversize and non-UTF-8 bodies refused", {
  mode: "cloud",
}, async (spine) => {
  for (
    const name of [
      ".env",
      "persona/other.md",
      "persona/subs/.hidden.md",
      "persona/subs/a.txt",
      "persona/subs/x/y.md",
      "persona%2Fsubs%2F..%2F..%2F.env",
      "persona/subs/" + "a".repeat(82) + ".md",
      "%E0%A4%A",
      "",
    ]
  ) {
    const r = await hub(spine.url, TOKEN, `/hub/files/${name}`, { method: "PUT", body: "x" });
    assert.deepEqual([r.status, r.body], [404, { error: "not_found" }], name);
  }
  const room = 512 * 1024;
  assert.equal(
    (await hub(spine.url, TOKEN, "/hub/files/agent.toml", {
      method: "PUT",
      body: "x".repeat(room),
    }))
      .status,
    200,
  );
  const over = await hub(spine.url, TOKEN, "/hub/files/agent.toml", {
    method: "PUT",
    body: "x".repeat(room + 1),
  });
  assert.deepEqual([over.status, over.body], [413, { error: "too_large" }]);
  const bad = await hub(spine.url, TOKEN, "/hub/files/agent.toml", {
    method: "PUT",
    body: new Uint8Array([0x61, 0xff, 0x62]),
  });
  assert.equal(bad.status, 400);
  // A refused write leaves the old file.
  assert.equal((await text(spine.url, "/hub/files/agent.toml")).text.length, room);
});

spineTest("cloud: sessions are created once, listed newest first with counts", {
  mode: "cloud",
}, async (spine) => {
  const made = await hub(
    spine.url,
    TOKEN,
    "/hub/sessions",
    post({
      session_id: "s1",
      data: { kind: "first", deep: { a: [1] } },
    }),
  );
  assert.equal(made.status, 201);
  const again = await hub(spine.url, TOKEN, "/hub/sessions", post({ session_id: "s1", data: {} }));
  assert.deepEqual([again.status, again.body], [409, { error: "exists" }]);
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/s1")).body, {
    data: { kind: "first", deep: { a: [1] } },
  });
  await hub(spine.url, TOKEN, "/hub/sessions", post({ session_id: "s2", data: null }));
  await hub(spine.url, TOKEN, "/hub/sessions/s1/agents", post({ agent_id: "a", data: {} }));
  await hub(spine.url, TOKEN, "/hub/sessions/s1/agents", post({ agent_id: "b", data: {} }));
  for (const [agent, mid] of [["a", 0], ["a", 1], ["b", 0]] as const) {
    const r = await hub(
      spine.url,
      TOKEN,
      `/hub/sessions/s1/agents/${agent}/messages`,
      post({ message_id: mid, data: { mid } }),
    );
    assert.equal(r.status, 201);
  }
  const list = await hub(spine.url, TOKEN, "/hub/sessions");
  const sessions = list.body.sessions as Record<string, unknown>[];
  // s1 was written last, so it comes first; its count covers both agents.
  assert.deepEqual(sessions.map((s) => [s.session_id, s.message_count]), [["s1", 3], ["s2", 0]]);
  for (const s of sessions) {
    assert.match(String(s.created_at), ISO);
    assert.match(String(s.updated_at), ISO);
    assert.deepEqual(s.meta, {});
  }
  assert.ok(String(sessions[0]!.updated_at) > String(sessions[0]!.created_at));
  assert.equal(
    ((await hub(spine.url, TOKEN, "/hub/sessions?limit=1")).body.sessions as unknown[]).length,
    1,
  );
  for (const limit of ["0", "201", "x", "-1", "1.5"]) {
    const r = await hub(spine.url, TOKEN, `/hub/sessions?limit=${limit}`);
    assert.deepEqual([r.status, r.body.error], [400, "bad_request"], limit);
  }
  const missing = await hub(spine.url, TOKEN, "/hub/sessions/nope");
  assert.deepEqual([missing.status, missing.body], [404, { error: "not_found" }]);
});

spineTest("cloud: the default listing holds 20 sessions, the limit at most 200", {
  mode: "cloud",
}, async (spine) => {
  for (let i = 0; i < 25; i++) {
    await hub(spine.url, TOKEN, "/hub/sessions", post({ session_id: `s${i}`, data: {} }));
  }
  assert.equal(
    ((await hub(spine.url, TOKEN, "/hub/sessions")).body.sessions as unknown[]).length,
    20,
  );
  assert.equal(
    ((await hub(spine.url, TOKEN, "/hub/sessions?limit=200")).body.sessions as unknown[]).length,
    25,
  );
});

sharedSpineTest("cloud: meta is a shallow merge that keeps nulls and creates the session", {
  mode: "cloud",
}, async (spine) => {
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/m/meta")).body, { meta: {} });
  const first = await hub(spine.url, TOKEN, "/hub/sessions/m/meta", {
    method: "PATCH",
    body: JSON.stringify({ meta: { role: "brain", title: "Hi", deep: { a: 1, b: 2 } } }),
  });
  assert.deepEqual(first.body, { meta: { role: "brain", title: "Hi", deep: { a: 1, b: 2 } } });
  const second = await hub(spine.url, TOKEN, "/hub/sessions/m/meta", {
    method: "PATCH",
    body: JSON.stringify({ meta: { title: null, deep: { c: 3 } } }),
  });
  assert.deepEqual(second.body, { meta: { role: "brain", title: null, deep: { c: 3 } } });
  assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/m/meta")).body, second.body);
  const data = (await hub(spine.url, TOKEN, "/hub/sessions/m")).body.data as Record<
    string,
    unknown
  >;
  assert.deepEqual(Object.keys(data), ["session_id", "session_type", "created_at", "updated_at"]);
  assert.equal(data.session_id, "m");
  assert.equal(data.session_type, "AGENT");
  assert.match(String(data.created_at), ISO);
  for (const body of ['{"meta":[]}', '{"meta":1}', "{}"]) {
    const r = await hub(spine.url, TOKEN, "/hub/sessions/m/meta", { method: "PATCH", body });
    assert.equal(r.status, 400, body);
  }
});

sharedSpineTest(
  "cloud: agents and messages need their parents, exist once, and are replaced by PUT",
  {
    mode: "cloud",
  },
  async (spine) => {
    const orphan = await hub(
      spine.url,
      TOKEN,
      "/hub/sessions/none/agents",
      post({ agent_id: "a", data: {} }),
    );
    assert.deepEqual([orphan.status, orphan.body], [404, { error: "not_found" }]);
    await hub(spine.url, TOKEN, "/hub/sessions", post({ session_id: "s", data: {} }));
    assert.equal(
      (await hub(
        spine.url,
        TOKEN,
        "/hub/sessions/s/agents",
        post({ agent_id: "a", data: { v: 1 } }),
      ))
        .status,
      201,
    );
    const dup = await hub(
      spine.url,
      TOKEN,
      "/hub/sessions/s/agents",
      post({ agent_id: "a", data: {} }),
    );
    assert.deepEqual([dup.status, dup.body], [409, { error: "exists" }]);
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a")).body, {
      data: { v: 1 },
    });
    assert.equal(
      (await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a", put({ data: { v: 2 } }))).status,
      200,
    );
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a")).body, {
      data: { v: 2 },
    });
    assert.equal(
      (await hub(spine.url, TOKEN, "/hub/sessions/s/agents/zz", put({ data: {} }))).status,
      404,
    );
    assert.equal((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/zz")).status, 404);

    const noAgent = await hub(
      spine.url,
      TOKEN,
      "/hub/sessions/s/agents/zz/messages",
      post({ message_id: 0, data: {} }),
    );
    assert.equal(noAgent.status, 404);
    assert.equal((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/zz/messages")).status, 404);
    for (const mid of [5, 0, 12, 3]) {
      const r = await hub(
        spine.url,
        TOKEN,
        "/hub/sessions/s/agents/a/messages",
        post({ message_id: mid, data: { mid } }),
      );
      assert.equal(r.status, 201);
    }
    const dupMessage = await hub(
      spine.url,
      TOKEN,
      "/hub/sessions/s/agents/a/messages",
      post({ message_id: 3, data: {} }),
    );
    assert.deepEqual([dupMessage.status, dupMessage.body], [409, { error: "exists" }]);
    const all = await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages");
    assert.deepEqual(all.body, { messages: [{ mid: 0 }, { mid: 3 }, { mid: 5 }, { mid: 12 }] });
    const page = await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages?offset=1&limit=2");
    assert.deepEqual(page.body, { messages: [{ mid: 3 }, { mid: 5 }] });
    const past = await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages?offset=10");
    assert.deepEqual(past.body, { messages: [] });
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages/12")).body, {
      data: { mid: 12 },
    });
    assert.equal(
      (await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages/12", put({ data: "new" })))
        .status,
      200,
    );
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages/12")).body, {
      data: "new",
    });
    assert.equal(
      (await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages/99", put({ data: 1 })))
        .status,
      404,
    );
    assert.equal((await hub(spine.url, TOKEN, "/hub/sessions/s/agents/a/messages/99")).status, 404);
    for (const query of ["limit=10001", "limit=-1", "offset=x", "offset=-2"]) {
      const r = await hub(spine.url, TOKEN, `/hub/sessions/s/agents/a/messages?${query}`);
      assert.equal(r.status, 400, query);
    }
  },
);

sharedSpineTest(
  "cloud: invalid ids get 400, oversize bodies 413",
  { mode: "cloud" },
  async (spine) => {
    const cases: [string, RequestInit][] = [
      ["/hub/sessions", post({ session_id: "-bad", data: {} })],
      ["/hub/sessions", post({ session_id: "a".repeat(129), data: {} })],
      ["/hub/sessions", post({ session_id: 7, data: {} })],
      ["/hub/sessions", post({ data: {} })],
      ["/hub/sessions/.x", {}],
      ["/hub/sessions/a b/meta", {}],
      ["/hub/sessions/s/agents", post({ agent_id: "a/b", data: {} })],
      ["/hub/sessions/s/agents/_a", {}],
      ["/hub/sessions/s/agents/a/messages", post({ message_id: -1, data: {} })],
      ["/hub/sessions/s/agents/a/messages", post({ message_id: 1.5, data: {} })],
      ["/hub/sessions/s/agents/a/messages", post({ message_id: "1", data: {} })],
      ["/hub/sessions/s/agents/a/messages/x", {}],
      ["/hub/sessions/s/agents/a/messages/-1", {}],
    ];
    for (const [path, init] of cases) {
      const r = await hub(spine.url, TOKEN, path, init);
      assert.deepEqual(
        [r.status, r.body.error],
        [400, "bad_request"],
        `${path} ${init.body ?? ""}`,
      );
    }
    const big = JSON.stringify({ session_id: "big", data: "x".repeat(1024 * 1024) });
    const r = await hub(spine.url, TOKEN, "/hub/sessions", { method: "POST", body: big });
    assert.deepEqual([r.status, r.body], [413, { error: "too_large" }]);
    assert.equal((await hub(spine.url, TOKEN, "/hub/sessions/big")).status, 404);
  },
);

sharedSpineTest(
  "cloud: events keep insertion order and create the session; every write refreshes updated_at",
  {
    mode: "cloud",
  },
  async (spine) => {
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/e/events")).body, { events: [] });
    for (const n of [3, 1, 2]) {
      assert.equal(
        (await hub(spine.url, TOKEN, "/hub/sessions/e/events", post({ data: { n } }))).status,
        201,
      );
    }
    assert.deepEqual((await hub(spine.url, TOKEN, "/hub/sessions/e/events")).body, {
      events: [{ n: 3 }, { n: 1 }, { n: 2 }],
    });
    assert.equal(
      ((await hub(spine.url, TOKEN, "/hub/sessions/e")).body.data as { session_type: string })
        .session_type,
      "AGENT",
    );

    const stamp = async () =>
      ((await hub(spine.url, TOKEN, "/hub/sessions?limit=200")).body.sessions as {
        session_id: string;
        updated_at: string;
      }[]).find((s) => s.session_id === "e")!.updated_at;
    let last = await stamp();
    const writes: [string, RequestInit][] = [
      ["/hub/sessions/e/meta", { method: "PATCH", body: JSON.stringify({ meta: { a: 1 } }) }],
      ["/hub/sessions/e/agents", post({ agent_id: "x", data: {} })],
      ["/hub/sessions/e/agents/x", put({ data: { y: 1 } })],
      ["/hub/sessions/e/agents/x/messages", post({ message_id: 0, data: {} })],
      ["/hub/sessions/e/agents/x/messages/0", put({ data: 2 })],
      ["/hub/sessions/e/events", post({ data: {} })],
    ];
    for (const [path, init] of writes) {
      await new Promise((r) => setTimeout(r, 5));
      assert.ok((await hub(spine.url, TOKEN, path, init)).status < 300, path);
      const now = await stamp();
      assert.ok(now > last, `${path} refreshes updated_at`);
      last = now;
    }
  },
);
