/**
 * Deterministic reply ids: the same incoming envelope always gets the same reply id,
 * so a hub that crashes after sending and handles the envelope again sends a
 * duplicate the recipient's spine answers `duplicate` instead of a second reply.
 *
 * @module
 */
import { b64uEncode } from "@agent/net";

/**
 * The reply id for envelope `incomingId` from `fromAddress` to `ownAddress`: 32
 * base64url characters (the first 24 bytes of a SHA-256 over the three values),
 * matching the envelope id pattern `^[A-Za-z0-9_-]{16,64}$`.
 *
 * @example
 * ```ts
 * import { replyId } from "./reply_id.ts";
 * const a = await replyId("a.example", "b.example", "AAAAAAAAAAAAAAAA");
 * const b = await replyId("a.example", "b.example", "AAAAAAAAAAAAAAAA");
 * if (a !== b || !/^[A-Za-z0-9_-]{16,64}$/.test(a)) throw new Error(a);
 * ```
 */
export async function replyId(
  ownAddress: string,
  fromAddress: string,
  incomingId: string,
): Promise<string> {
  const input = new TextEncoder().encode(
    `agent-net/1 reply\n${ownAddress}\n${fromAddress}\n${incomingId}`,
  );
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", input));
  return b64uEncode(digest.subarray(0, 24));
}
