/**
 * What the Directory takes and gives: accepted requests, changes, answers and the
 * public snapshot's shape.
 *
 * @module
 */
import type { UniverseLink, UniverseSub } from "@agent/net";

/** A request that passed the web layer's checks, for the directory to apply. */
export interface AcceptedRequest {
  kind: "join" | "report" | "leave";
  address: string;
  ts: number;
  /** The card's name (cleaned here; the address when nothing is left). */
  name: string;
  sign_key: string;
  owner?: string;
  about?: string;
  links?: UniverseLink[];
  subs?: UniverseSub[];
  /** The directory's clock, Unix seconds. */
  now: number;
}

/**
 * A change to agents and links: what {@linkcode Directory} applies in its one write
 * path. `expire` is the cron's removal of an agent not seen for 30 days.
 */
export type DirectoryChange =
  | { kind: "join"; request: AcceptedRequest; joined: boolean }
  | { kind: "report"; request: AcceptedRequest }
  | { kind: "leave" | "expire"; address: string };

/** What applying a request gives: the answer's status and body. */
export interface ApplyResult {
  status: number;
  body: Record<string, unknown>;
}

/** One agent of the public snapshot. */
export interface SnapshotTau {
  address: string;
  name: string;
  owner: string;
  about: string;
  joined_at: number;
  last_seen: number;
  online: boolean;
  subs: UniverseSub[];
}

/** The public snapshot (`GET /api/universe`). */
export interface Snapshot {
  universe: string;
  generated_at: number;
  stats: { taus: number; online: number; messages: number };
  taus: SnapshotTau[];
  links: { a: string; b: string; messages: number }[];
}
