/**
 * The contact state table row by row, with three running agents on their own spines:
 * every incoming row and every command row, plus the hub-side drops (wrong `to`, an
 * unopenable box, an id already handled) and what `remove` keeps.
 */
import assert from "node:assert/strict";
import { startAgent, type TestAgent } from "./_agents.ts";
import { b64uDecode, signEnvelope } from "@agent/net";
import { handleUpdate, turnAnswerer } from "@agent/hub";
import { until } from "../_poll.ts";

const state = async (a: TestAgent, of: TestAgent) =>
  (await a.node.state.contact(of.address))?.state;

/** Log entries of `a` with `of`, as `direction kind text`. */
async function logWith(a: TestAgent, of: TestAgent): Promise<string[]> {
  return (await a.node.state.log()).filter((e) => e.address === of.address)
    .map((e) => `${e.direction} ${e.kind} ${e.text}`.trim());
}

/** Waits until `a` handled `n` more envelopes than it had when `mark` was taken. */
function handledSince(a: TestAgent, mark: number, n = 1): Promise<void> {
  return a.waitHandled(mark + n);
}

Deno.test("contact table: every incoming and command row, key pinning, drops before card fetch", async () => {
  const [alice, bob] = await Promise.all([
    startAgent("alice", { replies: ["[no reply]"] }),
    startAgent("bob", { replies: ["Bob here."] }),
  ]);
  const carol = await startAgent("carol", { replies: ["[no reply]"] });
  // Card fetches bob's hub makes (strangers and blocked senders must cause none).
  let bobFetches = 0;
  const realFetch = bob.node.fetch;
  (bob.node as { fetch: typeof fetch }).fetch = (input, init) => {
    bobFetches++;
    return realFetch(input, init);
  };
  try {
    // none -> pending_out (command), none -> pending_in (incoming): note stored.
    let mark = bob.handled.length;
    assert.deepEqual((await alice.node.add(bob.address, "First note")).state, "pending_out");
    await handledSince(bob, mark);
    assert.deepEqual(await state(bob, alice), "pending_in");

    // pending_in + repeated contact_request: one request, note refreshed, nothing sent.
    const sentBefore = (await bob.node.state.counts()).sent;
    mark = bob.handled.length;
    await alice.node.add(bob.address, "Second note");
    await handledSince(bob, mark);
    const contacts = await bob.node.state.contacts();
    assert.deepEqual(contacts.filter((c) => c.address === alice.address).length, 1);
    assert.deepEqual(contacts.find((c) => c.address === alice.address)?.note, "Second note");
    assert.deepEqual((await bob.node.state.counts()).sent, sentBefore);
    assert.deepEqual(await state(alice, bob), "pending_out");

    // pending_in / pending_out + incoming message: dropped, never answered.
    const bobCard = await alice.node.fetchCard(bob.address);
    mark = bob.handled.length;
    await alice.node.deliver("message", bobCard, { text: "too early" });
    await handledSince(bob, mark);
    const early = bob.handled.at(-1)!.result;
    assert.ok(
      early.outcome === "dropped" && early.reason.includes("before the contact was accepted"),
    );
    assert.ok(!(await logWith(bob, alice)).some((l) => l.includes("too early")));

    // `agent net add` when the other side already asked: accepted at once, keys pinned.
    mark = alice.handled.length;
    const added = await bob.node.add(alice.address);
    assert.deepEqual(added.state, "accepted");
    assert.deepEqual(added.sign_key, alice.node.identity.signKey);
    // pending_out + incoming contact_accept: accepted.
    await handledSince(alice, mark);
    assert.deepEqual(await state(alice, bob), "accepted");
    const acceptedAt = (await alice.node.state.contact(bob.address))?.accepted_at;

    // accepted + incoming contact_request: a contact_accept goes back again;
    // accepted + incoming contact_accept: no-op.
    mark = alice.handled.length;
    const bobMark = bob.handled.length;
    await alice.node.deliver("contact_request", bobCard, { name: "alice", text: "again?" });
    await handledSince(bob, bobMark);
    await handledSince(alice, mark);
    assert.deepEqual(await state(bob, alice), "accepted");
    assert.deepEqual(await state(alice, bob), "accepted");
    assert.deepEqual((await alice.node.state.contact(bob.address))?.accepted_at, acceptedAt);
    assert.deepEqual(
      (await logWith(bob, alice)).filter((l) => l === "out contact_accept").length,
      2,
    );

    // accepted + message: a network turn, answered in the contact's session.
    mark = alice.handled.length;
    await alice.node.send(bob.address, "Hello Bob");
    await handledSince(alice, mark);
    assert.ok((await logWith(alice, bob)).includes("in message Bob here."));

    // pending_out + incoming contact_request (both asked): accepted, accept sent back.
    await carol.stopService();
    mark = alice.handled.length;
    await alice.node.add(carol.address, "alice asks"); // alice: pending_out
    await carol.node.add(alice.address, "carol asks"); // carol: pending_out, alice's unread
    await handledSince(alice, mark);
    assert.deepEqual(await state(alice, carol), "accepted");
    assert.ok((await logWith(alice, carol)).includes("out contact_accept"));
    await carol.restartService();
    await until("carol accepted too", async () => await state(carol, alice) === "accepted");

    // Hub-side error 3: an unopenable box (sealed to carol's key) from an accepted
    // contact is dropped, remembered and acknowledged.
    const carolCard = await alice.node.fetchCard(carol.address);
    mark = bob.handled.length;
    const wrongBox = await alice.node.deliver("message", {
      address: bob.address,
      box_key: carolCard.box_key,
    }, { text: "sealed for carol" });
    await handledSince(bob, mark);
    const unopened = bob.handled.at(-1)!.result;
    assert.ok(
      unopened.outcome === "dropped" && /unopenable|open/.test(unopened.reason),
      JSON.stringify(unopened),
    );
    assert.ok(await bob.node.state.seen(alice.address, wrongBox.id));
    await until(
      "bob's mailbox is empty",
      async () => (await bob.node.spine.health()).mailbox === 0,
    );

    // Wrong `to` (the spine checks it too, so handed to the hub directly) and an id
    // already handled: logged and dropped.
    const payload = JSON.parse(new TextDecoder().decode(b64uDecode(wrongBox.wire.payload)));
    const misdirected = await signEnvelope(
      { ...payload, id: "wrong-to-envelope-0001", to: carol.address },
      alice.node.identity,
    );
    const deps = {
      node: bob.node,
      answer: turnAnswerer({
        config: bob.config,
        env: bob.env,
        paths: bob.paths,
        subs: undefined,
        logger: bob.logger,
      }),
    };
    const wrongTo = await handleUpdate(deps, { seq: 9001, received_at: 0, envelope: misdirected });
    assert.ok(wrongTo.outcome === "dropped" && wrongTo.reason.startsWith("wrong recipient"));
    const again = await handleUpdate(deps, { seq: 9002, received_at: 0, envelope: wrongBox.wire });
    assert.deepEqual(again, { outcome: "dropped", reason: "already handled", from: alice.address });
    const hubLog = await Deno.readTextFile(bob.paths.logFile);
    assert.ok(hubLog.includes(`wrong recipient ${carol.address}`), hubLog);
    assert.ok(hubLog.includes(`already handled: ${alice.address} ${wrongBox.id}`), hubLog);

    // Strangers (anything but a request) and blocked senders: dropped before any card fetch.
    await bob.node.block(carol.address);
    await carol.node.state.saveContact({
      address: bob.address,
      name: "bob",
      state: "accepted",
      sign_key: bobCard.sign_key,
      box_key: bobCard.box_key,
      note: "",
      created_at: 1,
      updated_at: 1,
      accepted_at: 1,
    });
    bobFetches = 0;
    mark = bob.handled.length;
    await carol.node.deliver("contact_request", bobCard, { name: "carol", text: "let me in" });
    await carol.node.send(bob.address, "hello?");
    await handledSince(bob, mark, 2);
    assert.deepEqual(bob.handled.slice(-2).map((h) => h.result.outcome), ["dropped", "dropped"]);
    await bob.node.remove(carol.address);
    await carol.node.send(bob.address, "stranger now");
    await handledSince(bob, mark, 3);
    assert.ok(/stranger/.test((bob.handled.at(-1)!.result as { reason: string }).reason));
    assert.deepEqual(bobFetches, 0);
    assert.deepEqual(await state(bob, carol), undefined);

    // `agent net remove`: the contact goes; the log and the session stay.
    const sessions = JSON.parse(await Deno.readTextFile(`${bob.paths.netDir}/sessions.json`));
    const session = sessions[alice.address];
    assert.ok(typeof session === "string");
    assert.ok(await bob.node.remove(alice.address));
    assert.deepEqual(await state(bob, alice), undefined);
    assert.ok((await logWith(bob, alice)).includes("in message Hello Bob"));
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(`${bob.paths.netDir}/sessions.json`))[alice.address],
      session,
    );
    await Deno.stat(`${bob.paths.sessionsDir}/${session}`);
  } finally {
    await alice.close();
    await bob.close();
    await carol.close();
  }
});
