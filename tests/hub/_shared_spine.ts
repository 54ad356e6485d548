/**
 * One spine that the tests of a file take turns on, for the side of a two-agent test whose
 * spine the test does not look at (the agent that starts the conversation). Starting a
 * spine costs ~0.6 CPU-seconds (Miniflare serialising its configuration, workerd), and a
 * file of such tests started one per agent per test.
 *
 * Each test's agent is a fresh identity with a home of its own and publishes its own
 * card over the last one's; {@linkcode SharedSpine.take} first empties the mailbox, so no
 * envelope of an earlier test reaches it. What does carry over is what the Worker keeps
 * by sender or by client: senders' cached cards (keyed by address, and every spine of a
 * run gets a port no other had, `tests/_port.ts`) and the inbox's rate limits (60
 * envelopes a minute from one IP address: a file must stay well under it across its
 * tests). The file's tests end, then the spine stops (`fileSpines()`).
 *
 * @module
 */
import { fileSpines, type RunningSpine } from "../spine/_harness.ts";
import { SpineClient } from "@agent/hub";

/** A spine shared by a file's tests, and the hub token that reaches it. */
export interface SharedSpine {
  /** The hub token (`AGENT_SPINE_TOKEN` for the agent that takes it). */
  token: string;
  /** Starts the spine on first use; later, empties its mailbox first. */
  take(): Promise<RunningSpine>;
}

/**
 * A spine for the tests of the calling file, stopped after its last test. Call it at the
 * top of the test module.
 */
export function sharedSpine(): SharedSpine {
  const token = `tok-${crypto.randomUUID()}`;
  const spines = fileSpines();
  let taken = false;
  return {
    token,
    async take() {
      const spine = await spines({ hubToken: token });
      if (taken) await emptyMailbox(new SpineClient(spine.url, token));
      taken = true;
      return spine;
    },
  };
}

/** Acknowledges whatever an earlier test's agent left unfetched. */
async function emptyMailbox(client: SpineClient): Promise<void> {
  for (;;) {
    const left = await client.updates(0, { limit: 100 });
    if (left.length === 0) return;
    await client.ack(left.map((update) => update.seq));
  }
}
