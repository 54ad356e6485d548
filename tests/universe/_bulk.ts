/**
 * A universe on workerd that can be seeded with many agents fast, for tests and
 * benchmarks: `_bulk_worker.ts` adds seeding routes to the directory object. Joins go in
 * batches written set-wise (the rows `apply()` writes for a first join; `bulk_test.ts`
 * compares them), then the map index is filled from them once, then reports of links
 * run through the directory's own `apply()` and the map index's hook. Only the web
 * layer's card and signature checks are skipped. One request per agent from outside
 * costs ~4-12 ms each (a storage commit each); a batch of 2,000 commits once.
 *
 * @module
 */
import {
  bundledModule,
  bundleWorkerText,
  SPINE_COMPATIBILITY_DATE,
  startMiniflare,
  stopMiniflare,
} from "@agent/kit";
import type { Miniflare } from "miniflare";
import { freePort } from "../_port.ts";

/** The agents seeded: `agent-<i>.example`, named `Agent <i>`. */
export function bulkAddress(i: number): string {
  return `agent-${i}.example`;
}

/** A universe with a seeder. */
export interface BulkUniverse {
  url: string;
  mf: Miniflare;
  /**
   * Seeds agents `agent-0.example` … `agent-<n-1>.example` (named `Agent <i>`), each
   * with mutual links to the agents `d` places before and after it for each `d` of
   * `links`, among the first `linked` agents (all by default).
   */
  seed(n: number, links?: number[], linked?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a universe (`ALLOW_INSECURE_PEERS=1`) with its seeding Worker. */
export async function startBulkUniverse(): Promise<BulkUniverse> {
  const script = await bundleWorkerText(
    new URL("./_bulk_worker.ts", import.meta.url).pathname,
    { label: "the bulk-seeding universe" },
  );
  const mf = startMiniflare(
    {
      host: "127.0.0.1",
      port: freePort(),
      cf: false,
      ...bundledModule(script),
      compatibilityDate: SPINE_COMPATIBILITY_DATE,
      durableObjects: { DIRECTORY: { className: "Directory", useSQLite: true } },
      bindings: { UNIVERSE: "", ALLOW_INSECURE_PEERS: "1" },
    } as Parameters<typeof startMiniflare>[0],
  );
  try {
    const ready = await mf.ready;
    const ns = await mf.getDurableObjectNamespace("DIRECTORY") as unknown as {
      idFromName(name: string): unknown;
      get(id: unknown): { fetch(url: string, init: RequestInit): Promise<Response> };
    };
    const stub = ns.get(ns.idFromName("directory"));
    const bulk = async (requests: Record<string, unknown>[] | undefined, route = "bulk") => {
      const res = await stub.fetch(`https://directory.internal/${route}`, {
        method: "POST",
        ...(requests === undefined ? {} : { body: JSON.stringify(requests) }),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`Cannot seed the universe: ${text.slice(0, 300)}`);
    };
    return {
      url: ready.href.replace(/\/$/, ""),
      mf,
      async seed(n, links = [], linked = n) {
        const now = Math.floor(Date.now() / 1000);
        const common = { sign_key: "AAAA", now };
        for (let from = 0; from < n; from += BATCH) {
          const batch = [];
          for (let i = from; i < Math.min(n, from + BATCH); i++) {
            batch.push({
              ...common,
              kind: "join",
              address: bulkAddress(i),
              ts: now - 60,
              name: `Agent ${i}`,
              owner: `Owner ${i % 997}`,
              about: `About ${i}`,
            });
          }
          await bulk(batch, "bulk-join");
        }
        // The map index from the agents listed, then the build a write schedules.
        await bulk(undefined, "bulk-index");
        await bulk(undefined, "poke");
        if (links.length === 0) return;
        const m = Math.min(n, linked);
        for (let from = 0; from < m; from += BATCH) {
          const batch = [];
          for (let i = from; i < Math.min(m, from + BATCH); i++) {
            const peers = links.flatMap((d) => [
              { peer: bulkAddress((i + d) % m), messages: 1 + (i * 7 + d) % 40 },
              { peer: bulkAddress((i - d + m) % m), messages: 1 + ((i - d + m) % m * 7 + d) % 40 },
            ]);
            batch.push({
              ...common,
              kind: "report",
              address: bulkAddress(i),
              ts: now - 30,
              name: `Agent ${i}`,
              links: peers,
              subs: [],
            });
          }
          await bulk(batch);
        }
      },
      stop: () => stopMiniflare(mf),
    };
  } catch (error) {
    await stopMiniflare(mf);
    throw error;
  }
}

const BATCH = 2000;
