/**
 * Test peers for spine tests: a real identity and a card server on loopback that
 * speaks the card JSON, plus helpers to sign and post envelopes.
 *
 * @module
 */
import {
  b64uEncode,
  type EnvelopeKind,
  type EnvelopePayload,
  generateIdentity,
  type Identity,
  newEnvelopeId,
  signEnvelope,
  type WireEnvelope,
} from "@agent/net";

/** How a test card server misbehaves. */
export type CardMode =
  | "ok"
  | "redirect"
  | "slow"
  | "large"
  | "wrong_address"
  | "v2"
  | "short_key"
  | "not_json"
  | "missing";

/** A peer agent: identity plus a running card server. */
export interface Peer {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** The peer's keys. */
  identity: Identity;
  /** Card requests served so far. */
  cardRequests: number;
  /** What the card server does now. */
  mode: CardMode;
  /** Stops the card server. */
  stop(): Promise<void>;
}

/** Starts a peer whose card server answers `GET /.well-known/agent.json`. */
export async function startPeer(name = "Peer"): Promise<Peer> {
  const identity = await generateIdentity();
  const controller = new AbortController();
  const peer: Peer = {
    address: "",
    identity,
    cardRequests: 0,
    mode: "ok",
    stop: async () => {
      controller.abort();
      await server.finished;
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (request) => {
      if (new URL(request.url).pathname !== "/.well-known/agent.json") {
        return Response.json({ error: "not_found" }, { status: 404 });
      }
      peer.cardRequests++;
      const card = {
        v: 1,
        address: peer.address,
        name,
        sign_key: identity.signKey,
        box_key: identity.boxKey,
        inbox: `http://${peer.address}/net/inbox`,
        software: "agent-spine/0.1.0",
      };
      switch (peer.mode) {
        case "ok":
          return Response.json(card);
        case "redirect":
          return new Response(null, {
            status: 302,
            headers: { location: `http://${peer.address}/elsewhere.json` },
          });
        case "slow":
          await new Promise((r) => setTimeout(r, 6_000));
          return Response.json(card);
        case "large":
          return Response.json({ ...card, padding: "x".repeat(9_000) });
        case "wrong_address":
          return Response.json({ ...card, address: "someone.example" });
        case "v2":
          return Response.json({ ...card, v: 2 });
        case "short_key":
          return Response.json({
            ...card,
            sign_key: b64uEncode(identity.signKeyBytes.slice(0, 31)),
          });
        case "not_json":
          return new Response("<html>hello</html>", { headers: { "content-type": "text/html" } });
        case "missing":
          return Response.json({ error: "no_card" }, { status: 404 });
      }
    },
  );
  peer.address = `127.0.0.1:${server.addr.port}`;
  return peer;
}

/** Options for {@linkcode envelopeFor}. */
export interface EnvelopeOptions {
  /** @default "message" */
  kind?: EnvelopeKind;
  /** @default a fresh id */
  id?: string;
  /** @default now */
  ts?: number;
  /** @default the peer's address */
  from?: string;
}

/** A signed wire envelope from `peer` to `to`. */
export async function envelopeFor(
  peer: { address: string; identity: Identity },
  to: string,
  options: EnvelopeOptions = {},
): Promise<WireEnvelope & { id: string }> {
  const id = options.id ?? newEnvelopeId();
  const payload: EnvelopePayload = {
    v: 1,
    id,
    kind: options.kind ?? "message",
    from: options.from ?? peer.address,
    to,
    ts: options.ts ?? Math.floor(Date.now() / 1000),
    thread: id,
    reply_to: null,
    hops: 0,
    box: {
      epk: b64uEncode(crypto.getRandomValues(new Uint8Array(32))),
      nonce: b64uEncode(crypto.getRandomValues(new Uint8Array(12))),
      ct: b64uEncode(crypto.getRandomValues(new Uint8Array(40))),
    },
  };
  return { ...(await signEnvelope(payload, peer.identity)), id };
}

/** Signs arbitrary payload bytes the way envelopes are signed (for malformed cases). */
export async function signRaw(bytes: Uint8Array, identity: Identity): Promise<WireEnvelope> {
  const prefix = new TextEncoder().encode("agent-net/1\n");
  const message = new Uint8Array(prefix.length + bytes.length);
  message.set(prefix);
  message.set(bytes, prefix.length);
  const sig = new Uint8Array(await crypto.subtle.sign("Ed25519", identity.signPrivateKey, message));
  return { payload: b64uEncode(bytes), sig: b64uEncode(sig) };
}

/** Posts a body to `<url>/net/inbox` and returns status and parsed JSON. */
export async function postInbox(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/net/inbox`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Calls a hub route with the bearer token and returns status, headers and JSON. */
export async function hub(
  url: string,
  token: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

/** Now in Unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A well-shaped payload object for cases the spine rejects before the signature. */
export function payloadObject(from: string, to: string, extra: Record<string, unknown> = {}) {
  return {
    v: 1,
    id: "abcdefghijklmnop1234",
    kind: "message",
    from,
    to,
    ts: nowSeconds(),
    thread: "abcdefghijklmnop1234",
    reply_to: null,
    hops: 0,
    box: { epk: "AAAA", nonce: "AAAA", ct: "AAAA" },
    ...extra,
  };
}

/** A wire envelope around `payload` with an all-zero signature. */
export function unsigned(payload: unknown): { payload: string; sig: string } {
  return {
    payload: b64uEncode(new TextEncoder().encode(JSON.stringify(payload))),
    sig: b64uEncode(new Uint8Array(64)),
  };
}

/**
 * Miniflare's rate limiter counts in fixed windows (`floor(now / period)`), so a test
 * that fills a per-minute limit must not straddle the edge of one: when fewer than
 * `seconds` are left in the current minute, this waits for the next.
 */
export async function inOneLimitWindow(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((r) => setTimeout(r, left + 50));
}
