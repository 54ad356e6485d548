/**
 * The spine's shared job slots on workerd (`/hub/jobs/claim|settle|running`): a slot is
 * claimed once (asked again by its holder, it is claimed again; by the other hub,
 * taken); the day's ceiling counts settled runs at their cost and runs in flight at
 * their reservation, in one statement, so many claims at once never pass it; bad input
 * gets 400; a local-mode spine answers `cloud_mode_off`, which the hub's client reads
 * as "no shared slots". A pause's notice is told by the first hub that asks for its job,
 * day and reason (once, however many ask at once), again only by a hub that resumed the
 * job after it was told.
 */
import assert from "node:assert/strict";
import { SpineSlots } from "@agent/hub/jobs";
import { CLOUD_TOKEN, cloudSpine } from "../cloud/_cloud.ts";
import { hub } from "../spine/_fixtures.ts";
import { fileSpines } from "../spine/_harness.ts";

const DAY = Date.UTC(2026, 10, 25, 21);

/**
 * A local-mode spine keeps nothing for the job routes (it answers `cloud_mode_off`): the
 * two tests of it take turns on one (a spine start is ~0.6 CPU-s), stopped after the file.
 */
const spines = fileSpines();
const localSpine = () => spines({ hubToken: CLOUD_TOKEN });
const SHARED = { sanitizeOps: false, sanitizeResources: false };

const post = (url: string, path: string, body: unknown) =>
  hub(url, CLOUD_TOKEN, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const claim = (slot: string, hubId: string, extra: Record<string, unknown> = {}) => ({
  slot_id: slot,
  job: "news",
  hub: hubId,
  day_ms: DAY,
  max_run_usd: 0.005,
  day_cap_usd: 0.012,
  min_usd: 0.003,
  ...extra,
});

Deno.test("spine job slots: one holder per slot, and the day's ceiling held in one statement", async () => {
  const { spine } = await cloudSpine();
  try {
    const run = { session_id: "job-news-1" };
    const first = await post(spine.url, "/hub/jobs/claim", claim("news@1", "a", run));
    assert.deepEqual(first.body, { claimed: true, reserved_usd: 0.005 });
    // Its run asks again (an answer lost): claimed again; the other hub, or another run
    // of the same hub (a restarted container): taken.
    assert.deepEqual(
      (await post(spine.url, "/hub/jobs/claim", claim("news@1", "a", run))).body,
      { claimed: true, reserved_usd: 0.005 },
    );
    for (const other of [claim("news@1", "b", run), claim("news@1", "a")]) {
      assert.deepEqual((await post(spine.url, "/hub/jobs/claim", other)).body, {
        claimed: false,
        reason: "taken",
      });
    }
    // Ten slots claimed at once by two hubs: $0.012 leaves room for one more run
    // reserved at $0.005 and one at what is left ($0.002 is under min_usd: refused).
    const answers = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => post(spine.url, "/hub/jobs/claim", claim(`news@${i + 2}`, i % 2 ? "a" : "b")),
      ),
    );
    const won = answers.flatMap((r, i) => r.body.claimed === true ? [i] : []);
    assert.equal(won.length, 1, JSON.stringify(answers.map((r) => r.body)));
    const winner = { slot: `news@${won[0]! + 2}`, hub: won[0]! % 2 ? "a" : "b" };
    assert.ok(
      answers.filter((r) => r.body.claimed === false).every((r) =>
        r.body.reason === "day" && r.body.spent_usd === 0.01
      ),
    );
    // Settled to its cost, the first run frees its reservation's rest: room for one more.
    const settled = await post(spine.url, "/hub/jobs/settle", {
      slot_id: "news@1",
      hub: "a",
      usd: 0.002,
    });
    assert.deepEqual(settled.body, { settled: true });
    const another = await post(spine.url, "/hub/jobs/claim", claim("news@20", "b"));
    assert.equal(another.body.claimed, true);
    assert.equal((another.body.reserved_usd as number).toFixed(6), "0.005000");
    // Another day starts from nothing.
    const tomorrow = await post(
      spine.url,
      "/hub/jobs/claim",
      claim("news@21", "b", { day_ms: DAY + 86_400_000 }),
    );
    assert.equal(tomorrow.body.claimed, true);
    const running = await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/running?hub=b");
    assert.deepEqual(
      (running.body.slots as { slot_id: string }[]).map((s) => s.slot_id).sort(),
      ["news@20", "news@21", ...(winner.hub === "b" ? [winner.slot] : [])].sort(),
    );
    // Bad input: one sentence naming the field.
    const bad = await post(spine.url, "/hub/jobs/claim", claim("news@30", "a", { min_usd: -1 }));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, "'min_usd' must be a number of 0 or more");
    // The hub's client over the same routes.
    const client = new SpineSlots({ url: spine.url, token: CLOUD_TOKEN, hub: "c" });
    assert.deepEqual(
      await client.claim({
        slotId: "other@1",
        job: "other",
        dayMs: DAY,
        maxRunUsd: undefined,
        dayCapUsd: undefined,
        minUsd: 0,
      }),
      { kind: "claimed", reservedUsd: 0 },
    );
    await client.settle("other@1", 0.001);
    assert.deepEqual(await client.running(), []);
  } finally {
    await spine.stop();
  }
});

// The shared spine's child process and sockets outlive the test by design.
Deno.test({
  name: "spine job slots: a local-mode spine has none, and the client falls back",
  ...SHARED,
}, async () => {
  const spine = await localSpine();
  const client = new SpineSlots({ url: spine.url, token: CLOUD_TOKEN, hub: "a" });
  const slot = {
    slotId: "news@1",
    job: "news",
    dayMs: DAY,
    maxRunUsd: 0.005,
    dayCapUsd: 0.01,
    minUsd: 0.003,
  };
  assert.deepEqual(await client.claim(slot), { kind: "off" });
  assert.deepEqual(await client.claim(slot), { kind: "off" });
  // Without shared slots each hub tells its own pause.
  const n = { job: "news", dayMs: DAY, reason: "day", sinceMs: 0 };
  assert.equal(await client.notice(n), true);
});

Deno.test("spine job notices: a pause is told once per job, day and reason across hubs", async () => {
  const { spine } = await cloudSpine();
  try {
    const ask = (hubId: string, extra: Record<string, unknown> = {}) =>
      post(spine.url, "/hub/jobs/notice", {
        job: "news",
        day_ms: DAY,
        reason: "day",
        hub: hubId,
        since_ms: 0,
        ...extra,
      });
    // Many hubs (and retries) at once: exactly one is told to tell.
    const first = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(i % 2 ? "a" : "b")));
    assert.deepEqual(first.map((r) => r.status), Array(8).fill(200));
    assert.equal(first.filter((r) => r.body.tell === true).length, 1);
    // Another reason, job or day is news of its own.
    assert.deepEqual((await ask("b", { reason: "run" })).body, { tell: true });
    assert.deepEqual((await ask("b", { job: "other" })).body, { tell: true });
    assert.deepEqual((await ask("b", { day_ms: DAY + 86_400_000 })).body, { tell: true });
    // A hub whose job was resumed after the notice: the owner acted, a new pause is told.
    assert.deepEqual((await ask("a", { since_ms: Date.now() + 1 })).body, { tell: true });
    assert.deepEqual((await ask("b")).body, { tell: false });
    // Bad input: one sentence naming the field.
    const bad = await ask("a", { since_ms: -5 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, "'since_ms' must be a whole number of 0 or more");
    // The hub's client over the same route.
    const client = new SpineSlots({ url: spine.url, token: CLOUD_TOKEN, hub: "c" });
    const n = { job: "digest", dayMs: DAY, reason: "budget", sinceMs: 0 };
    assert.equal(await client.notice(n), true);
    assert.equal(await client.notice(n), false);
  } finally {
    await spine.stop();
  }
});

Deno.test("spine job notices: a spine that does not answer lets the hub tell", async () => {
  const lines: string[] = [];
  const client = new SpineSlots({
    url: "http://127.0.0.1:9",
    token: CLOUD_TOKEN,
    hub: "a",
    attempts: 1,
    warn: (line) => lines.push(line),
  });
  assert.equal(await client.notice({ job: "news", dayMs: DAY, reason: "day", sinceMs: 0 }), true);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /^jobs: cannot ask the spine whether the pause of news was told \(.+\); told here$/,
  );
  assert.ok(!lines[0]!.includes(CLOUD_TOKEN));
});

Deno.test("spine job pauses: a claim of a paused job is refused in its statement, for every hub", async () => {
  const { spine } = await cloudSpine();
  try {
    const pause = (job: string, hubId = "a", reason = "owner") =>
      post(spine.url, "/hub/jobs/pause", { job, reason, hub: hubId });
    const resume = (job: string) => post(spine.url, "/hub/jobs/resume", { job });
    assert.deepEqual((await pause("*")).body, { paused: true });
    // Paused once: asked again (by either hub), nothing changes.
    assert.deepEqual((await pause("*", "b", "day")).body, { paused: false });
    // Every job's claim is refused, by either hub, with the pause that holds it; no slot.
    for (const [slot, hubId] of [["news@1", "a"], ["news@2", "b"]] as const) {
      assert.deepEqual((await post(spine.url, "/hub/jobs/claim", claim(slot, hubId))).body, {
        claimed: false,
        reason: "paused",
        job: "*",
        by: "owner",
      });
    }
    const listed = await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/pauses");
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body.pauses as { job: string; reason: string; hub: string }[]).map((
        p,
      ) => [p.job, p.reason, p.hub]),
      [["*", "owner", "a"]],
    );
    // One job paused at a ceiling, every job resumed: the one job stays refused until
    // `resume --all` (`*` deletes every pause), as on one hub.
    assert.deepEqual((await pause("news", "b", "day")).body, { paused: true });
    assert.deepEqual((await resume("news")).body, { resumed: true });
    assert.deepEqual((await resume("news")).body, { resumed: false });
    assert.deepEqual((await pause("news", "b", "day")).body, { paused: true });
    assert.deepEqual((await resume("*")).body, { resumed: true });
    assert.equal(
      (await post(spine.url, "/hub/jobs/claim", claim("news@3", "b"))).body.claimed,
      true,
    );
    // Many claims at once, and a pause among them: a slot is either claimed before the
    // pause or refused after it, never written while paused.
    const [answers] = await Promise.all([
      Promise.all(
        Array.from(
          { length: 8 },
          (_, i) =>
            post(
              spine.url,
              "/hub/jobs/claim",
              claim(`other@${i}`, "a", { job: "other", day_cap_usd: null }),
            ),
        ),
      ),
      pause("other"),
    ]);
    for (const r of answers) {
      assert.ok(r.body.claimed === true || r.body.reason === "paused", JSON.stringify(r.body));
    }
    const written = await hub(spine.url, CLOUD_TOKEN, "/hub/jobs/running?hub=a");
    assert.equal(
      (written.body.slots as { job: string }[]).filter((x) => x.job === "other").length,
      answers.filter((r) => r.body.claimed === true).length,
    );
    assert.deepEqual(
      (await post(spine.url, "/hub/jobs/claim", claim("other@9", "b", { job: "other" }))).body
        .reason,
      "paused",
    );
    // Bad input: one sentence naming the field.
    const bad = await post(spine.url, "/hub/jobs/pause", { job: "", reason: "owner", hub: "a" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.detail, "'job' must be a string of 1 to 200 characters");
    // The hub's client over the same routes.
    const client = new SpineSlots({ url: spine.url, token: CLOUD_TOKEN, hub: "c" });
    assert.deepEqual(await client.pause("digest", "budget"), { kind: "ok", value: true });
    assert.deepEqual(
      await client.claim({
        slotId: "digest@1",
        job: "digest",
        dayMs: DAY,
        maxRunUsd: undefined,
        dayCapUsd: undefined,
        minUsd: 0,
      }),
      { kind: "paused", job: "digest", reason: "budget" },
    );
    const pauses = await client.pauses();
    assert.equal(pauses.kind, "ok");
    assert.deepEqual(
      pauses.kind === "ok" ? pauses.value.map((p) => [p.job, p.hub]) : [],
      [["digest", "c"], ["other", "a"]],
    );
    assert.deepEqual(await client.resume("*"), { kind: "ok", value: true });
  } finally {
    await spine.stop();
  }
});

// The shared spine's child process and sockets outlive the test by design.
Deno.test({
  name: "spine job pauses: a local-mode spine has none; a silent one is told apart",
  ...SHARED,
}, async () => {
  const spine = await localSpine();
  const client = new SpineSlots({ url: spine.url, token: CLOUD_TOKEN, hub: "a" });
  assert.deepEqual(await client.pause("news", "owner"), { kind: "off" });
  assert.deepEqual(await client.pauses(), { kind: "off" });
  const silent = new SpineSlots({
    url: "http://127.0.0.1:9",
    token: CLOUD_TOKEN,
    hub: "a",
    attempts: 1,
  });
  const answer = await silent.resume("news");
  assert.equal(answer.kind, "unreachable");
  assert.ok(!JSON.stringify(answer).includes(CLOUD_TOKEN));
});
