/**
 * {@linkcode followHubEvents}: a terminal (chat, the TUI) listening to this home's hub,
 * whenever one runs. It looks for a hub on the control port every few seconds; only a
 * hub whose `/health` names this data folder is followed (another home's hub may hold
 * the port), and only the events published from then on.
 *
 * @module
 */
import type { OwnerEvent } from "../events/mod.ts";
import { pause } from "../backoff.ts";
import { fetchControl } from "./client.ts";
import { subscribeHubEvents } from "./events_client.ts";
import { HUB_TOKEN_FILE } from "./token.ts";

/** Options for {@linkcode followHubEvents}. */
export interface FollowHubEventsOptions {
  port: number;
  /** This home's data folder: the hub must be this home's. */
  dataDir: string;
  signal: AbortSignal;
  onEvent(event: OwnerEvent): void;
  /** How often to look for a hub when none answers. @default 5000 */
  lookEveryMs?: number;
}

/** Follows the hub's events until `signal` aborts; never throws. */
export async function followHubEvents(options: FollowHubEventsOptions): Promise<void> {
  const { signal } = options;
  let lastEventId: string | undefined;
  while (!signal.aborted) {
    const health = await fetchControl(options.port, "/health", { timeoutMs: 1000 });
    if (health?.data_dir === options.dataDir) {
      try {
        await subscribeHubEvents(options.port, {
          signal,
          tokenFile: `${options.dataDir}/${HUB_TOKEN_FILE}`,
          ...(lastEventId !== undefined ? { lastEventId } : {}),
          maxRetryMs: options.lookEveryMs ?? 5_000,
          onEvent(event) {
            lastEventId = event.event_id;
            options.onEvent(event);
          },
        });
      } catch {
        // A hub that refuses the stream (an older one without it): look again later.
      }
    }
    await pause(options.lookEveryMs ?? 5_000, signal);
  }
}
