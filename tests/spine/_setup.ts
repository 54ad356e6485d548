/**
 * Shared setup for the spine's workerd tests.
 *
 * @module
 */
import { type RunningSpine, startSpine, type StartSpineOptions } from "./_harness.ts";
import { type Peer, startPeer } from "./_fixtures.ts";

/** The hub token the tests use. */
export const TOKEN = "test-token-0123456789";

/** A test body given a fresh spine and a way to make peers that are cleaned up. */
export type SpineTestBody = (
  spine: RunningSpine,
  peers: (name?: string) => Promise<Peer>,
) => Promise<void>;

/** Registers a test that runs against a fresh spine on workerd. */
export function spineTest(
  name: string,
  options: StartSpineOptions,
  body: SpineTestBody,
): void {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const spine = await startSpine({ hubToken: TOKEN, ...options });
      try {
        await withPeers(spine, body);
      } finally {
        await spine.stop();
      }
    },
  });
}

/** The file's spine for {@linkcode sharedSpineTest}, started by its first test. */
let shared: Promise<RunningSpine> | undefined;
let stopsAfterAll = false;

/**
 * Registers a test that runs against one spine (the default options) shared by such
 * tests of its file: for a test whose requests change nothing the file's other such tests
 * read (an answer to a bad request, a method or a route, a token check). A start costs ~0.6
 * CPU-seconds; a test that counts what the mailbox holds, reads the card or leans on a
 * rate limit takes {@linkcode spineTest}'s fresh spine.
 */
export function sharedSpineTest(name: string, body: SpineTestBody): void {
  if (!stopsAfterAll) {
    stopsAfterAll = true;
    Deno.test.afterAll(async () => {
      const running = shared;
      shared = undefined;
      if (running !== undefined) await (await running).stop();
    });
  }
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      shared ??= startSpine({ hubToken: TOKEN });
      await withPeers(await shared, body);
    },
  });
}

async function withPeers(spine: RunningSpine, body: SpineTestBody): Promise<void> {
  const started: Peer[] = [];
  try {
    await body(spine, async (peerName) => {
      const peer = await startPeer(peerName);
      started.push(peer);
      return peer;
    });
  } finally {
    await Promise.all(started.map((p) => p.stop()));
  }
}
