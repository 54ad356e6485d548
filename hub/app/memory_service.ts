/**
 * Proposals from quiet conversations: once a minute the hub looks for conversations
 * with memory that have had no message for `[memory] quiet_minutes` and something new
 * since the memory role last read them, and has the role read each (`extract = "ask"`:
 * its proposals wait for the owner; `"auto"`: kept where that is safe). Any process's
 * conversations count (terminal chat writes the same sessions). The owner hears how
 * many were proposed as a `memory.proposed` event, never their text. A spent budget
 * (the role's own, hard by default) stops the readings for an hour.
 *
 * @module
 */
import { errorMessage } from "@agent/net/common";
import type { HubContext, HubService } from "../channels/contract.ts";
import { extractSession, MEMORY_ROLE } from "../agent/mod.ts";
import { memorySentence } from "../memory/mod.ts";
import { type EventSaid, saidText } from "../events/mod.ts";
import { BudgetSpentError } from "../router/mod.ts";
import { openSessionStore } from "../sessions/mod.ts";

/** How often the hub looks for quiet conversations. */
export const MEMORY_SCAN_MS = 60_000;
/** How long a spent budget stops the readings. */
const SPENT_PAUSE_MS = 3_600_000;
/** The most sessions one look considers (the most recently updated). */
const SESSIONS_PER_SCAN = 200;

/** What one look did. */
export interface MemoryScan {
  sessions: number;
  kept: number;
  pending: number;
}

/** The proposals service, or `undefined` when proposals are off or there is no memory role. */
export function memoryService(hub: HubContext): Promise<HubService | undefined> {
  const settings = hub.config.memory;
  const store = hub.memory;
  if (!settings.enabled || settings.extract === "off" || store === undefined) {
    return Promise.resolve(undefined);
  }
  if (hub.config.models.roles[MEMORY_ROLE] === undefined) {
    hub.logger.info(`memory: no [models.roles.${MEMORY_ROLE}], so no proposals from conversations`);
    return Promise.resolve(undefined);
  }
  const mode = settings.extract;
  const sessions = openSessionStore(hub.config, hub.env, hub.paths);
  let cancel: (() => void) | undefined;
  let running: Promise<void> | undefined;
  let pausedUntil = 0;
  let last: (MemoryScan & { at: number }) | undefined;
  const controller = new AbortController();

  /** One look: reads every quiet conversation with something new. */
  async function scan(): Promise<MemoryScan> {
    const now = hub.clock.now();
    const done: MemoryScan = { sessions: 0, kept: 0, pending: 0 };
    if (now < pausedUntil) return done;
    const quietMs = settings.quiet_minutes * 60_000;
    for (const summary of await sessions.listSessions(SESSIONS_PER_SCAN)) {
      if (controller.signal.aborted) break;
      if (now - Date.parse(summary.updated_at) < quietMs) continue;
      if (typeof summary.meta.memory_scope !== "string") continue;
      if (summary.message_count <= await store!.extractedThrough(summary.session_id)) continue;
      try {
        const result = await extractSession({
          router: hub.router,
          store: store!,
          sessions,
          sessionId: summary.session_id,
          mode,
          signal: controller.signal,
        });
        if (result === undefined) continue;
        done.sessions++;
        done.kept += result.kept;
        done.pending += result.pending;
      } catch (error) {
        if (error instanceof BudgetSpentError) {
          hub.logger.warn(
            `memory: the ${MEMORY_ROLE} role's budget is spent; proposals wait an hour`,
          );
          pausedUntil = now + SPENT_PAUSE_MS;
          break;
        }
        if (controller.signal.aborted) break;
        hub.logger.warn(
          `memory: cannot read session ${summary.session_id} for proposals: ${errorMessage(error)}`,
        );
      }
    }
    if (done.kept + done.pending > 0) {
      const said: EventSaid = done.kept === 0
        ? { code: "memory.extracted", vars: { count: done.pending } }
        : { code: "memory.extracted_auto", vars: { count: done.kept, pending: done.pending } };
      await hub.events.publish({
        ts: Math.floor(now / 1000),
        type: "memory.proposed",
        kept: done.kept,
        pending: done.pending,
        text: saidText(hub.lang, said, { memory: memorySentence })!,
        said,
      });
    }
    last = { ...done, at: now };
    return done;
  }

  function arm(): void {
    cancel = hub.clock.after(MEMORY_SCAN_MS, () => {
      running = scan().then(() => {}, (error) => {
        hub.logger.warn(`memory: a look for quiet conversations failed: ${errorMessage(error)}`);
      }).finally(() => {
        running = undefined;
        if (!controller.signal.aborted) arm();
      });
    });
  }

  return Promise.resolve(
    {
      name: "memory",
      start: () => arm(),
      stop: async () => {
        controller.abort();
        cancel?.();
        await running;
      },
      status: () => ({
        extract: mode,
        quiet_minutes: settings.quiet_minutes,
        ...(last === undefined ? {} : {
          last_look: new Date(last.at).toISOString(),
          sessions: last.sessions,
          kept: last.kept,
          pending: last.pending,
        }),
      }),
      scan,
    } as HubService & { scan: () => Promise<MemoryScan> },
  );
}
