/**
 * What a job run needs from the process that runs it ({@linkcode JobRunContext}) and how
 * a run ends ({@linkcode RunOutcome}): the one shape the CLI (`agent jobs run`), the
 * hub's scheduler, the dashboard's Run now and the cloud brain hand to a run's life.
 *
 * @module
 */
import type { AgentConfig } from "../../config/types.ts";
import type { Desk } from "../../desk/mod.ts";
import type { OwnerEventSink } from "../../events/mod.ts";
import type { Lang } from "../../i18n.ts";
import type { Logger } from "../../log.ts";
import type { Ledger } from "../../ledger/mod.ts";
import type { JobTools } from "../definition.ts";
import type { JobStore, RunState } from "../store.ts";
import type { SharedSlots } from "../spine_slots.ts";

/** What a run needs from the hub. */
export interface JobRunContext {
  config: AgentConfig;
  lang: Lang;
  logger: Logger;
  /**
   * The spend ledger: a run holds its share of the job's day there before its first call.
   * Absent or read-only, the day counts the runs this job log finished.
   */
  ledger: Ledger | undefined;
  store: JobStore;
  /**
   * The desk a job's turns run on (its tools: none, or tier 1 only, plus the tier-1 MCP
   * tools its file lists in `mcp`).
   */
  desk(tools: JobTools, mcp?: readonly string[]): Desk;
  /** Where notices go (answers go through the delivery worker); absent: the log only. */
  events: OwnerEventSink | undefined;
  /** The messenger chats an answer with `deliver: messenger` goes to (none: no messenger). */
  chats: readonly string[];
  /** Told when an answer was written pending (the delivery worker sends it now). */
  delivered?: () => void;
  /** The slots shared with the identity's other hub (on a cloud spine), if any. */
  slots?: SharedSlots;
  /** The characters of the persona files (for the day ceiling's estimate). */
  systemChars: number;
  /** The clock a run's times come from (the scheduler's: a test drives it). */
  now(): number;
}

/** How a slot ended. */
export type RunOutcome =
  | { kind: RunState; usd: number; text?: string | undefined; sessionId?: string | undefined }
  /** Another hub claimed the slot first. */
  | { kind: "taken" }
  /**
   * The job (`reason` says why), or every job (`*`), is paused; `text` says so, and when
   * the job can run again.
   */
  | { kind: "paused"; job?: string; reason?: string; text?: string };
