/**
 * The agent network protocol (v1): addresses, base64url, identities, cards, signed
 * envelopes, sealed boxes and universe requests. Web APIs only, so the spine and
 * universe Workers import it too.
 *
 * @example
 * ```ts
 * import { generateIdentity, openBox, sealBox, signEnvelope, verifyEnvelope } from "./mod.ts";
 * const alice = await generateIdentity();
 * const bob = await generateIdentity();
 * const header = {
 *   id: "AAAAAAAAAAAAAAAA", kind: "message", from: "a.example", to: "b.example",
 * } as const;
 * const box = await sealBox({ text: "hello" }, header, bob.boxKey);
 * const wire = await signEnvelope({ v: 1, ...header, ts: 1700000000, thread: header.id,
 *   reply_to: null, hops: 0, box }, alice);
 * if (!await verifyEnvelope(wire, alice.signKey)) throw new Error("signature");
 * const plain = await openBox(box, header, bob);
 * if (plain.text !== "hello") throw new Error("box");
 * ```
 *
 * The door names every export: what the spine, the universe, the hub, the kit and the
 * CLI use, and the types their signatures name. The catalogues and the address rules
 * without cryptography are on the light door `@agent/net/common`.
 *
 * @module
 */

// Encoding, addresses and text: base64url without padding, `name@host` addresses and
// their base URL, text from another agent cleaned of control characters, and a
// comparison in constant time for tokens and MACs.
export { b64uDecode, b64uEncode } from "./b64u.ts";
export { baseUrlFor, isAddress, splitTarget } from "./address.ts";
export { cleanText } from "./text.ts";
export { timingSafeEqual } from "./timing_safe.ts";

// Identities and cards: an agent's signing and box keys, how they are kept (`.env`,
// JSON), and the public card other agents download to reach it.
export {
  generateIdentity,
  type Identity,
  identityFromEnv,
  identityFromJson,
  type IdentityJson,
  identityToEnv,
  identityToJson,
} from "./identity.ts";
export {
  type Card,
  type CardInput,
  isCardName,
  parseCard,
  parseCardInput,
  senderSignKey,
} from "./card.ts";
export { canonicalKey, isSmallOrderEd25519, isSmallOrderX25519, sameKey } from "./key_check.ts";
export {
  CARD_MAX_BYTES,
  CARD_TIMEOUT_MS,
  downloadCard,
  type DownloadCardOptions,
} from "./card_download.ts";

// Envelopes and boxes: a signed envelope on the wire, its sealed box, the plaintexts
// inside it, and opening what an inbox received (verify, then open). The types their
// signatures name are here too, for another implementation of the protocol.
export {
  type Box,
  deriveEnvelopeId,
  type EnvelopeKind,
  type EnvelopePayload,
  newEnvelopeId,
  type ParsedEnvelope,
  type ParsedWireEnvelope,
  parseWireEnvelope,
  signEnvelope,
  verifyEnvelope,
  verifyParsedEnvelope,
  type WireEnvelope,
} from "./envelope.ts";
export {
  type ContactAcceptPlaintext,
  type ContactRemovedPlaintext,
  type ContactRequestPlaintext,
  MESSAGE_TEXT_MAX,
  type MessagePlaintext,
  type Plaintext,
  type PlaintextFor,
} from "./plaintext.ts";
export { type BoxHeader, openBox, OpenError, sealBox, type SealOptions } from "./box.ts";
export {
  type EnvelopeToOpen,
  type OpenedEnvelope,
  verifyAndOpen,
  verifyAndOpenAll,
} from "./receive.ts";

// Universe requests: the signed join, report and leave an agent sends to the universe.
export {
  type ParsedUniverseRequest,
  parseUniverseRequest,
  signUniverseRequest,
  type UniverseJoin,
  type UniverseLeave,
  type UniverseLink,
  type UniversePayload,
  type UniverseReport,
  type UniverseRequestBase,
  type UniverseRequestKind,
  type UniverseSub,
  verifyUniverseRequest,
} from "./universe_request.ts";

// HTTP: the error model of every HTTP surface (`HttpError` thrown, `errorResponse()`
// its one body) and reading a request body within a limit.
export {
  errorResponse,
  HttpError,
  isJsonContentType,
  json,
  parseJsonBody,
  readLimited,
  type ReadLimitedOptions,
  readRequestBody,
  withHeaders,
} from "./http.ts";
export { errorLine, errorMessage } from "./error_message.ts";

// The HTTP kit every surface shares: a route table with the one method guard, and the
// one server-sent-events writer (ids, `Last-Event-ID`, back-pressure).
export {
  type RouteEntry,
  type RouteHandler,
  type RouteInput,
  type RouteMatch,
  type RouteOptions,
  Router,
} from "./router.ts";
export {
  EventReplay,
  type EventReplayOptions,
  frame as sseFrame,
  lastEventId,
  type ReplayedEvent,
  SSE_HEARTBEAT_MS,
  type SseEvent,
  type SseOptions,
  sseResponse,
  type SseWriter,
} from "./sse.ts";

// Cloud names: which file, session, message and state names the spine's cloud routes
// accept, shared by the spine and the hub's file sync.
export {
  CLOUD_FOLDERS,
  compareCloudFiles,
  DASHBOARD_ORIGIN_HEADER,
  DASHBOARD_SECURITY_HEADERS,
  DASHBOARD_SESSION_HEADER,
  FIXED_CLOUD_FILES,
  isCloudFileName,
  isMessageId,
  isSessionId,
  isStateKey,
  JOBS_PREFIX,
  messengerWebhookSecret,
  SESSION_ID_PATTERN,
  SUB_FILE_PATTERN,
  SUBS_PREFIX,
} from "./cloud_names.ts";
