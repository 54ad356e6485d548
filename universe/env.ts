import type { DurableObjectNamespace, R2Bucket } from "@cloudflare/workers-types/index.ts";

/** The universe's software version. */
export const UNIVERSE_VERSION = "0.1.0";

/** The bindings and variables the universe Worker receives. */
export interface Env {
  /** The directory: one SQLite-backed Durable Object instance named `directory`. */
  DIRECTORY: DurableObjectNamespace;
  /** The stored snapshot (`snapshot/universe.json.gz`), rebuilt by the directory's alarm. */
  SNAPSHOTS: R2Bucket;
  /**
   * Seconds between snapshot builds (development and tests only; the edge uses the
   * spec's 60). @default "60"
   */
  SNAPSHOT_REBUILD_SECONDS?: string;
  /** The universe's own host; empty means the request host. */
  UNIVERSE?: string;
  /** `1` lets `localhost` and `127.0.0.1` agents serve their cards over http (development). */
  ALLOW_INSECURE_PEERS?: string;
}

/** The universe's host: `UNIVERSE` when set and non-empty, else the request host. */
export function universeHost(env: Pick<Env, "UNIVERSE">, url: URL): string {
  return configuredHost(env) || url.host.toLowerCase();
}

/**
 * `UNIVERSE`, trimmed and in lower case; `""` when it is not set. What is stored for
 * everyone (the snapshot's head) takes its host from here, never from a request.
 */
export function configuredHost(env: Pick<Env, "UNIVERSE">): string {
  return env.UNIVERSE?.trim().toLowerCase() ?? "";
}
