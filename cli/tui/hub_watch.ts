/**
 * This home's hub as the TUI's status bar sees it: whether it runs (only a hub whose
 * `/health` names this home's data folder counts: another home's may hold the port),
 * its network's state, the contact requests waiting, and its owner events as they
 * happen. The TUI's program makes it; the controller only asks it.
 *
 * @module
 */
import {
  type AgentConfig,
  type ApprovalRequest,
  fetchControl,
  followHubEvents,
  openState,
  type OwnerEvent,
} from "@agent/hub/desk";
import type { AgentPaths } from "@agent/hub/base";

/** What the hub of this home says of itself. */
export interface HubFacts {
  hub: { running: boolean; net?: string | undefined };
  /** Contact requests waiting for the owner. */
  requests: number;
}

/** The hub as the TUI sees it: read now and then, its events followed. */
export interface HubWatch {
  /** The hub's state and the pending contact requests, read now. */
  facts(): Promise<HubFacts>;
  /** Calls `onEvent` with each owner event until `signal` aborts. */
  follow(onEvent: (event: OwnerEvent) => void, signal: AbortSignal): void;
  /**
   * The approvals waiting in the hub's conversations (a tool an e-mail or the messenger
   * asked for): the owner may decide them here too. None when no hub of this home runs.
   */
  approvals(): Promise<ApprovalRequest[]>;
  /** Decides a hub approval; `false` when it waits no more (decided elsewhere, expired). */
  decide(id: string, decision: "once" | "session" | "deny"): Promise<boolean>;
}

/** Options for {@linkcode hubWatch}. */
export interface HubWatchOptions {
  /** The hub's control port (`[hub] port`). */
  port: number;
  config: AgentConfig;
  env: Readonly<Record<string, string>>;
  paths: AgentPaths;
}

/** Watches the hub of `options.paths`' home on `options.port`. */
export function hubWatch(options: HubWatchOptions): HubWatch {
  const { port, paths } = options;
  return {
    async facts(): Promise<HubFacts> {
      const health = await fetchControl(port, "/health", { timeoutMs: 500 });
      const ours = health?.data_dir === paths.dataDir;
      const status = ours
        ? await fetchControl(port, "/status", { timeoutMs: 500, tokenFile: paths.hubTokenFile })
        : undefined;
      const hub = status?.ok === true
        ? { running: true, net: (status.net as { state?: string } | undefined)?.state }
        : { running: false };
      let requests = 0;
      try {
        const contacts = await openState(options.config, options.env, paths).contacts();
        requests = contacts.filter((c) => c.state === "pending_in").length;
      } catch {
        requests = 0;
      }
      return { hub, requests };
    },
    follow(onEvent: (event: OwnerEvent) => void, signal: AbortSignal): void {
      void followHubEvents({ port, dataDir: paths.dataDir, signal, onEvent });
    },
    async approvals(): Promise<ApprovalRequest[]> {
      // The token file is this home's: another home's hub on the port answers 401.
      const answer = await fetchControl(port, "/approvals", {
        timeoutMs: 500,
        tokenFile: paths.hubTokenFile,
      });
      return Array.isArray(answer?.approvals) ? answer.approvals as ApprovalRequest[] : [];
    },
    async decide(id, decision): Promise<boolean> {
      const answer = await fetchControl(port, "/approvals/decide", {
        tokenFile: paths.hubTokenFile,
        body: { id, decision, by: "tui" },
      });
      return answer?.decided === true;
    },
  };
}
