import type {
  D1Database,
  DurableObjectNamespace,
  KVNamespace,
  RateLimit,
} from "@cloudflare/workers-types/index.ts";

/** The spine's software version, reported in cards and `GET /hub/health`. */
export const SPINE_VERSION = "0.1.0";

/** The card's `software` field. */
export const SPINE_SOFTWARE = `agent-spine/${SPINE_VERSION}`;

/** The bindings, variables and secrets the spine Worker receives. */
export interface Env {
  /** The Mailbox Durable Object namespace; the one instance is named `hub`. */
  MAILBOX: DurableObjectNamespace;
  /** Key-value store caching peer cards under `peer:<address>`. */
  PEER_CARDS?: KVNamespace;
  /** 60 envelopes per 60 s per client IP (namespace 10501); optional. */
  INBOX_IP_LIMIT?: RateLimit;
  /** 30 envelopes per 60 s per sender address (namespace 10502); optional. */
  INBOX_SENDER_LIMIT?: RateLimit;
  /** `local` (default) or `cloud`. */
  AGENT_MODE?: string;
  /** The agent's address; empty means the request host. */
  ADDRESS?: string;
  /** `1` lets `localhost` and `127.0.0.1` peers use http (development only). */
  ALLOW_INSECURE_PEERS?: string;
  /** `1` keeps the brain container running (cloud mode). */
  KEEP_AWAKE?: string;
  /** The spine's public URL, given to the brain container (cloud mode). */
  SPINE_URL?: string;
  /** The hub's bearer token (a secret). */
  HUB_TOKEN?: string;
  /** The relational store of cloud mode (state, sessions, messenger updates). */
  DB?: D1Database;
  /** The brain container's Durable Object namespace (cloud mode); one instance, `brain`. */
  BRAIN?: DurableObjectNamespace;
  /**
   * Development only: the base URL of a brain process (`agent cloud run` on this
   * machine) used instead of the container.
   */
  BRAIN_URL?: string;
}

/** The spine's mode: `cloud` only when `AGENT_MODE` says exactly that. */
export type SpineMode = "local" | "cloud";

/** Reads the mode from the environment; anything but `cloud` is local. */
export function spineMode(env: Pick<Env, "AGENT_MODE">): SpineMode {
  return env.AGENT_MODE?.trim() === "cloud" ? "cloud" : "local";
}

/** The spine's own address: `ADDRESS` when set and non-empty, else the request host. */
export function ownAddress(env: Pick<Env, "ADDRESS">, url: URL): string {
  const configured = env.ADDRESS?.trim().toLowerCase();
  return configured ? configured : url.host.toLowerCase();
}

/** Whether `ALLOW_INSECURE_PEERS=1`. */
export function insecurePeersAllowed(env: Pick<Env, "ALLOW_INSECURE_PEERS">): boolean {
  return env.ALLOW_INSECURE_PEERS?.trim() === "1";
}
