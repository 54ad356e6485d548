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
      const started: Peer[] = [];
      try {
        await body(spine, async (peerName) => {
          const peer = await startPeer(peerName);
          started.push(peer);
          return peer;
        });
      } finally {
        await Promise.all(started.map((p) => p.stop()));
        await spine.stop();
      }
    },
  });
}
