/**
 * Shared setup for the spine's workerd tests.
 *
 * @module
 */
import { fileSpines, type RunningSpine, startSpine, type StartSpineOptions } from "./_harness.ts";
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
  register(name, async () => {
    const spine = await startSpine({ hubToken: TOKEN, ...options });
    try {
      await withPeers(spine, body);
    } finally {
      await spine.stop();
    }
  });
}

// The spines of sharedSpineTest, one set per test file. A shard of the end-to-end layer
// (`_tools/test_shards.ts`) imports several test files into one module, and this module
// with them: a set for the whole shard let one file's test meet another's envelopes
// (mailbox_test's empty long poll read inbox_test's messages in CI).
const shared = new Map<string, ReturnType<typeof fileSpines>>();

/** The test file that registers a test: the first caller outside this module. */
function registeringFile(): string {
  const here = import.meta.url;
  const frames = (new Error().stack ?? "").split("\n").slice(1);
  for (const frame of frames) {
    const url = /(file:\/\/[^\s)]+?):\d+:\d+\)?$/.exec(frame.trim())?.[1];
    if (url !== undefined && url !== here) return url;
  }
  throw new Error("sharedSpineTest() is called from a test file's top level");
}

/**
 * Registers a test that runs against one spine shared by the file's such tests with the
 * same options ({@linkcode fileSpines}; never by another file's, even in one shard): for
 * a test whose requests change nothing the others read (an answer to a bad request, a
 * method or a route, a token check). A test that counts what the mailbox holds, reads the
 * card or leans on a rate limit takes {@linkcode spineTest}'s fresh spine.
 */
export function sharedSpineTest(
  name: string,
  options: StartSpineOptions,
  body: SpineTestBody,
): void {
  const file = registeringFile();
  let spines = shared.get(file);
  if (spines === undefined) shared.set(file, spines = fileSpines());
  register(name, async () => {
    await withPeers(await spines({ hubToken: TOKEN, ...options }), body);
  });
}

// Miniflare's child process and sockets outlive a test's own ops by design.
function register(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, sanitizeOps: false, sanitizeResources: false, fn });
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
