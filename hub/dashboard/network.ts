/**
 * The Network page's routes: contacts with their state and message counts, the own
 * address and card name, and the actions on a contact, each the same call as its
 * `agent net` command (`accept`, `block`, and `remove` for Unblock), so the contact
 * state machine decides, never this page.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET network` | `{configured, address, name, contacts: [...]}` |
 * | `POST network/accept` `{address}` | `agent net accept` |
 * | `POST network/block` `{address}` | `agent net block` |
 * | `POST network/unblock` `{address}` | `agent net remove`: the address may ask again |
 *
 * The universe (join, leave, links on or off) and the network digest: `network_universe.ts`.
 *
 * @module
 */
import { HttpError, isAddress, json, Router } from "@agent/net";
import { type NetNode, NetUsageError } from "../network/node.ts";
import { jsonBody, pageLang } from "./body.ts";
import { addUniverseRoutes } from "./network_universe.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes, NetworkSources } from "./types.ts";

export type { NetworkSources } from "./types.ts";

/** The Network page's routes. */
export function dashboardNetwork(sources: NetworkSources): DashboardRoutes {
  const routes = new Router<DashboardSession>().get("/network", async () => {
    const node = sources.node();
    if (node === undefined) {
      return json({
        configured: false,
        detail: sources.detail?.() ?? null,
        missing: sources.missing?.() ?? null,
        contacts: [],
      });
    }
    const [contacts, log] = await Promise.all([node.state.contacts(), node.state.log()]);
    const counts = new Map<string, { in: number; out: number }>();
    for (const entry of log) {
      const c = counts.get(entry.address) ?? { in: 0, out: 0 };
      if (entry.direction === "in") c.in++;
      else c.out++;
      counts.set(entry.address, c);
    }
    let address: string | null = null;
    try {
      address = await node.address(AbortSignal.timeout(3_000));
    } catch { /* the spine does not answer now: the page says so */ }
    return json({
      configured: true,
      universe: (sources.universeHost?.() ?? "").trim() !== "",
      address,
      name: await node.cardName(),
      contacts: contacts.map((c) => ({
        address: c.address,
        name: c.name,
        state: c.state,
        note: c.note,
        updated_at: c.updated_at,
        messages: counts.get(c.address) ?? { in: 0, out: 0 },
      })),
    });
  });
  // Each action is the same call as its `agent net` command.
  const actions: Record<string, (node: NetNode, address: string) => Promise<unknown>> = {
    accept: async (node, address) => ({ contact: await node.accept(address) }),
    block: async (node, address) => ({ contact: await node.block(address) }),
    unblock: async (node, address) => ({ removed: await node.remove(address) }),
  };
  for (const [name, act] of Object.entries(actions)) {
    routes.post(`/network/${name}`, async (request) => {
      const node = sources.node();
      if (node === undefined) throw new HttpError(409, "not_configured");
      const body = await jsonBody(request);
      const address = body.address;
      if (typeof address !== "string" || !isAddress(address)) {
        throw new HttpError(400, "bad_request", { detail: "address: not an agent address" });
      }
      try {
        return json(await act(node, address));
      } catch (error) {
        // The contact's state does not allow it: the CLI's sentence, as the CLI says it.
        if (error instanceof NetUsageError) {
          throw new HttpError(400, "bad_request", {
            detail: error.sentence(pageLang(request, sources.lang)),
          });
        }
        throw error;
      }
    });
  }
  return addUniverseRoutes(routes, sources);
}
