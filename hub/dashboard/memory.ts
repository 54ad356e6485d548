/**
 * The Memory page's routes: the memories in force (by scope, by search) and the pending
 * list, and the owner's acts on them, the same as `agent memory` (`hub/memory/manage.ts`
 * runs both, with the same checks and sentences, in the page's language). A forget is
 * the store's own: the row and its index entries in one transaction, then the WAL
 * checkpointed. The dashboard's login, same-origin check and CSRF token guard them like
 * every page route: only the owner reaches them, so they see every scope.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET memory?scope=&q=` | `{enabled, redact, memories, scopes, counts}`: in force, newest first |
 * | `GET memory/pending` | `{enabled, pending}`: what waits, oldest first, with why |
 * | `POST memory/forget` `{ids, redact?}` | `{saved}`; 400 for a bad id, 404 for an unknown one |
 * | `POST memory/pin` `{id, pinned}` | `{saved}` |
 * | `POST memory/approve` `{id, text?}` | `{saved}` (in force, as edited) |
 * | `POST memory/reject` `{id}` | `{saved}` (deleted, like a forget) |
 *
 * @module
 */
import { HttpError, json, Router } from "@agent/net";
import type { Lang } from "../i18n.ts";
import {
  approveMemory,
  forgetMemories,
  type Memory,
  type MemoryDesk,
  MemoryError,
  memorySentence,
  type MemoryStore,
  parseScope,
  pinMemory,
  rejectMemory,
} from "../memory/mod.ts";
import { jsonBody, pageLang } from "./body.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes } from "./types.ts";

/** What the Memory routes read and act on. */
export interface MemoryRouteSources {
  /** The hub's store; `undefined` when `[memory]` is off or the store did not open. */
  store(): MemoryStore | undefined;
  /** The hub's language (a page that names none gets it). */
  lang: Lang;
  /**
   * The local sessions folder a forget may clean the text out of (`agent memory forget
   * --redact`); without it (a cloud brain's sessions are in its spine) the page offers no
   * cleaning.
   */
  sessionsDir?: string | undefined;
}

/** The most memories a list answers with. */
const LIST_LIMIT = 500;

/** The Memory page's routes. */
export function dashboardMemory(sources: MemoryRouteSources): DashboardRoutes {
  const deskOf = (request: Request): MemoryDesk | undefined => {
    const store = sources.store();
    return store === undefined ? undefined : {
      store,
      lang: pageLang(request, sources.lang),
      filter: "every",
      sessionsDir: sources.sessionsDir,
    };
  };
  // An act answers with the sentence `agent memory` prints; bad input with its one
  // sentence (404 for an id that names no memory), and nothing changes.
  const act =
    (work: (desk: MemoryDesk, body: Record<string, unknown>) => Promise<string>) =>
    async (request: Request) => {
      const desk = deskOf(request);
      const lang = pageLang(request, sources.lang);
      if (desk === undefined) {
        throw new HttpError(409, "memory_off", { detail: memorySentence(lang, "memory_off_here") });
      }
      const body = await jsonBody(request);
      try {
        return json({ saved: await work(desk, body) });
      } catch (error) {
        if (error instanceof MemoryError) {
          const [status, code] = error.code === "unknown_id"
            ? [404, "not_found"] as const
            : [400, "bad_request"] as const;
          throw new HttpError(status, code, { detail: error.message });
        }
        throw error;
      }
    };
  return new Router<DashboardSession>()
    .get("/memory", async (request, { url }) => {
      const desk = deskOf(request);
      if (desk === undefined) return json({ enabled: false, memories: [], scopes: [] });
      const scope = url.searchParams.get("scope") ?? "";
      let filter: MemoryDesk["filter"] = "every";
      try {
        if (scope !== "") filter = [parseScope(scope, desk.lang)];
      } catch (error) {
        if (error instanceof MemoryError) {
          throw new HttpError(400, "bad_request", { detail: error.message });
        }
        throw error;
      }
      const q = (url.searchParams.get("q") ?? "").trim();
      const memories = await desk.store.list(filter, {
        status: "active",
        ...(q === "" ? {} : { search: q }),
        limit: LIST_LIMIT,
      });
      return json({
        enabled: true,
        redact: desk.sessionsDir !== undefined,
        memories: memories.map(row),
        scopes: await desk.store.scopes(),
        counts: await desk.store.counts(filter),
      });
    })
    .get("/memory/pending", async (request) => {
      const desk = deskOf(request);
      if (desk === undefined) return json({ enabled: false, pending: [] });
      const pending = await desk.store.list("every", { status: "pending", limit: LIST_LIMIT });
      return json({
        enabled: true,
        pending: pending.reverse().map((m) => ({
          ...row(m),
          reason: memorySentence(desk.lang, `reason_${m.pending_reason ?? "proposed"}`),
        })),
      });
    })
    .post(
      "/memory/forget",
      act(async (desk, body) => {
        const ids = Array.isArray(body.ids) ? body.ids.map(idText) : [];
        const redact = body.redact === true && desk.sessionsDir !== undefined;
        return (await forgetMemories(desk, ids, { redact })).lines.join(" ");
      }),
    )
    .post(
      "/memory/pin",
      act((desk, body) => pinMemory(desk, idText(body.id), body.pinned !== false)),
    )
    .post(
      "/memory/approve",
      act((desk, body) =>
        approveMemory(
          desk,
          idText(body.id),
          typeof body.text === "string" ? body.text : undefined,
        )
      ),
    )
    .post("/memory/reject", act((desk, body) => rejectMemory(desk, idText(body.id))));
}

/** An id as the body gave it (a number or its text), for `parseId` to check. */
function idText(value: unknown): string {
  return typeof value === "number" || typeof value === "string" ? String(value) : "";
}

/** What the page shows of a memory. */
function row(m: Memory) {
  return {
    id: m.id,
    scope: m.scope,
    kind: m.kind,
    text: m.text,
    source: m.source,
    channel: m.channel,
    session_id: m.session_id,
    created_ms: m.created_ms,
    pinned: m.pinned,
  };
}
