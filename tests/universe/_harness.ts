/**
 * A universe on workerd (Miniflare) for tests, and agents that can sign requests to it:
 * each agent is an identity with a card server on loopback.
 *
 * @module
 */
import type { Miniflare } from "miniflare";
import { runUniverse, runUniverseCron, stopMiniflare } from "@agent/kit";
import { b64uEncode, signUniverseRequest, type UniversePayload } from "@agent/net";
import { type Peer, startPeer } from "../spine/_fixtures.ts";
import { onFreePort } from "../_port.ts";
import { universeBundle } from "../_worker_bundle.ts";

/** A running universe. */
export interface RunningUniverse {
  url: string;
  /** The universe's host (what requests name as `universe`). */
  host: string;
  mf: Miniflare;
  /** Runs the hourly cron as if scheduled at `ms`. */
  cron(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/** Options for {@linkcode startUniverse}. */
export interface StartUniverseOptions {
  /** `UNIVERSE`. @default "" (the request host) */
  universe?: string;
  persistDir?: string;
  port?: number;
  /** `SNAPSHOT_REBUILD_SECONDS`: how often the alarm may rebuild. @default 60 */
  rebuildSeconds?: number;
  /** Also serve the Worker on this port, past Miniflare's proxy (benchmarks). */
  directPort?: number;
}

/** Starts a universe with `ALLOW_INSECURE_PEERS=1`. */
export async function startUniverse(options: StartUniverseOptions = {}): Promise<RunningUniverse> {
  return await onFreePort(options.port, (port) => startUniverseOn(port, options));
}

async function startUniverseOn(
  port: number,
  options: StartUniverseOptions,
): Promise<RunningUniverse> {
  const { mf, url } = await runUniverse({
    script: await universeBundle(),
    port,
    vars: {
      UNIVERSE: options.universe ?? "",
      ALLOW_INSECURE_PEERS: "1",
      ...(options.rebuildSeconds
        ? { SNAPSHOT_REBUILD_SECONDS: String(options.rebuildSeconds) }
        : {}),
    },
    ...(options.persistDir ? { persistDir: options.persistDir } : {}),
    ...(options.directPort ? { directPort: options.directPort } : {}),
  });
  return {
    url,
    host: options.universe || `127.0.0.1:${port}`,
    mf,
    cron: (ms) => runUniverseCron(mf, ms),
    stop: () => stopMiniflare(mf),
  };
}

/**
 * One universe shared by a file's tests, started on first use and stopped after the
 * isolate's last test (the file's, or its shard's): a start costs ~0.7 CPU-seconds. For tests whose agents (each its own
 * address, so its own replay, rate and joined rows) meet nothing the others leave: the
 * POST checks, pages that read nothing stored. A test that counts what the directory
 * holds, or runs the cron that expires agents, takes a universe of its own. Call it at
 * the top of a module (it registers the file's `Deno.test.afterAll`).
 */
export function fileUniverse(options: StartUniverseOptions = {}): () => Promise<RunningUniverse> {
  let running: Promise<RunningUniverse> | undefined;
  Deno.test.afterAll(async () => {
    const universe = running;
    running = undefined;
    if (universe !== undefined) await (await universe).stop();
  });
  return () => running ??= startUniverse(options);
}

/** An agent: a peer with a card server, posting signed requests. */
export interface UniverseAgent extends Peer {
  /** Posts a signed request built from `fields` to `/api/<path>`. */
  post(
    universe: RunningUniverse,
    fields: Partial<UniversePayload> & Record<string, unknown>,
    path?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The next `ts` (strictly increasing, near now). */
  nextTs(): number;
}

let made = 0;

/** Starts an agent whose card carries `name`. */
export async function startAgent(name = "Agent"): Promise<UniverseAgent> {
  const peer = await startPeer(name) as UniverseAgent;
  // Each agent's own clock: strictly increasing, starting a little in the past (later
  // agents a second later, so they join in the order they were made) so that a burst of
  // requests stays inside the universe's 300-second window.
  let clock = Math.floor(Date.now() / 1000) - 280 + (made++ % 60);
  peer.nextTs = () => {
    clock = Math.max(clock + 1, Math.floor(Date.now() / 1000) - 280);
    return clock;
  };
  peer.post = async (universe, fields, path) => {
    const payload = {
      v: 1,
      kind: "join",
      universe: universe.host,
      address: peer.address,
      ts: peer.nextTs(),
      ...(fields.kind === "join" || fields.kind === undefined ? { owner: "", about: "" } : {}),
      ...(fields.kind === "report" ? { links: [] } : {}),
      ...fields,
    } as UniversePayload;
    // Malformed payloads are signed as they are: the universe must refuse them itself.
    let wire;
    try {
      wire = await signUniverseRequest(payload, peer.identity);
    } catch {
      wire = await signUniverseBytes(new TextEncoder().encode(JSON.stringify(payload)), peer);
    }
    const res = await fetch(`${universe.url}/api/${path ?? payload.kind}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(wire),
    });
    return { status: res.status, body: await res.json() };
  };
  return peer;
}

/** Signs arbitrary payload bytes under the universe prefix. */
export async function signUniverseBytes(
  bytes: Uint8Array,
  agent: Pick<Peer, "identity">,
): Promise<{ payload: string; sig: string }> {
  const prefix = new TextEncoder().encode("agent-universe/1\n");
  const message = new Uint8Array([...prefix, ...bytes]);
  const sig = new Uint8Array(
    await crypto.subtle.sign("Ed25519", agent.identity.signPrivateKey, message),
  );
  return { payload: b64uEncode(bytes), sig: b64uEncode(sig) };
}

/** The directory object's internal stub (past the web layer). */
export async function directoryStub(
  universe: RunningUniverse,
): Promise<{ fetch(url: string, init?: RequestInit): Promise<Response> }> {
  // Miniflare's typings do not resolve under Deno; this is the part the tests use.
  const ns = await universe.mf.getDurableObjectNamespace("DIRECTORY") as unknown as {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(url: string, init?: RequestInit): Promise<Response> };
  };
  return ns.get(ns.idFromName("directory"));
}

/** What a snapshot build reports. */
export interface BuildFigures {
  generated_at: number;
  taus: number;
  links: number;
  bytes: number;
  stored: number;
  etag: string;
}

/**
 * Builds the stored snapshot now, as the directory's alarm would (at `now`, Unix
 * seconds, default the clock).
 */
export async function buildSnapshot(
  universe: RunningUniverse,
  now?: number,
): Promise<BuildFigures> {
  const stub = await directoryStub(universe);
  const query = new URLSearchParams({
    host: universe.host,
    ...(now !== undefined ? { now: String(now) } : {}),
  });
  const res = await stub.fetch(`https://directory.internal/build?${query}`, { method: "POST" });
  const body = await res.json() as BuildFigures;
  if (res.status !== 200) throw new Error(`build failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Builds the stored snapshot, then fetches `/api/universe`. */
// deno-lint-ignore no-explicit-any
export async function snapshot(universe: RunningUniverse): Promise<any> {
  await buildSnapshot(universe);
  return await (await fetch(`${universe.url}/api/universe`)).json();
}

/** One agent put straight into the directory (for seeding pages and benchmarks). */
export interface SeedAgent {
  address: string;
  name: string;
  owner?: string;
  about?: string;
  links?: { peer: string; messages: number }[];
  subs?: { name: string; about: string }[];
}

/**
 * Seeds the directory through the Durable Object itself, past the web layer's checks
 * (which need a card server per agent): a join for each agent, then a report for each
 * that has links or sub-agents. `ts` values sit in the last minute.
 */
export async function seed(universe: RunningUniverse, agents: SeedAgent[]): Promise<void> {
  const stub = await directoryStub(universe);
  const now = Math.floor(Date.now() / 1000);
  const pending: Record<string, unknown>[] = [];
  const flush = async () => {
    const res = await stub.fetch("https://directory.internal/apply-batch", {
      method: "POST",
      body: JSON.stringify(pending.splice(0)),
    });
    const text = await res.text();
    if (res.status !== 200 || JSON.parse(text).statuses.some((s: number) => s !== 200)) {
      throw new Error(`seed failed: ${res.status} ${text.slice(0, 200)}`);
    }
  };
  const apply = async (body: Record<string, unknown>) => {
    pending.push(body);
    if (pending.length >= 500) await flush();
  };
  for (const a of agents) {
    await apply({
      kind: "join",
      address: a.address,
      ts: now - 60,
      name: a.name,
      sign_key: "AAAA",
      owner: a.owner ?? "",
      about: a.about ?? "",
      now,
    });
  }
  for (const a of agents) {
    if (!a.links?.length && !a.subs?.length) continue;
    await apply({
      kind: "report",
      address: a.address,
      ts: now - 30,
      name: a.name,
      sign_key: "AAAA",
      links: a.links ?? [],
      subs: a.subs ?? [],
      now,
    });
  }
  if (pending.length > 0) await flush();
}
