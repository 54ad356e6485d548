/**
 * The Conversations and Approvals pages' routes: every channel's sessions with their
 * transcripts, and the web chat, one more adapter over the conversation desk with the
 * key `web:<session>`: it sends what the person typed (queued by the desk while an
 * answer runs), cancels, streams the desk's events, and decides approvals, every
 * channel's, once, wherever first. It holds no rule of its own.
 *
 * | Route (under `/dashboard/api/`) | What |
 * | --- | --- |
 * | `GET sessions?q=` | the latest 200 sessions of every channel, those whose id or messages hold `q` (from the search index) |
 * | `GET transcript?session=` | the session's user and assistant messages (`lines`), the same with tool steps and each answer's usage (`entries`), and its open approvals |
 * | `POST chat/send` `{session?, text}` | sends into `web:<session>` (a new session without one) |
 * | `POST chat/cancel` `{session}` | ends the running answer |
 * | `GET desk` | every desk event as server-sent events, with its conversation's key; resumes after `Last-Event-ID` |
 * | `GET approvals` | every open approval, with the `session` its conversation is on |
 * | `POST approvals/decide` `{id, decision}` | `once`, `session` or `deny`; `{decided}` |
 * | `GET usage?session=&since=` | model, tokens, dollars and estimated calls since then |
 *
 * @module
 */
import { EventReplay, HttpError, json, Router } from "@agent/net";
import type {
  ConversationKey,
  Desk,
  DeskConversation,
  DeskEvent,
  PersonDecision,
} from "../desk/mod.ts";
import { historyLines, messageLines } from "../desk/mod.ts";
import { MAIN_AGENT_ID } from "../agent/agent.ts";
import type { SessionStore } from "../sessions/store.ts";
import { isValidId } from "../sessions/store.ts";
import { newSessionId } from "../sessions/session_id.ts";
import { readStoredMessage } from "../sessions/message.ts";
import type { Lang } from "../i18n.ts";
import { searchedMessages } from "../sessions/indexed.ts";
import { withHeldIndex } from "../session_search/mod.ts";
import type { SpendChartReader } from "../spend/chart.ts";
import { jsonBody, pageLang } from "./body.ts";
import { transcriptEntries } from "./transcript.ts";
import type { DashboardSession } from "./auth.ts";
import type { DashboardRoutes } from "./types.ts";

/** What the chat reads and acts on. */
export interface ChatSources {
  desk: Desk;
  sessions: SessionStore;
  /** The per-turn usage (model, tokens, dollars) from the ledger. */
  usage?: SpendChartReader;
  /** The session search index (`<data>/session_search.sqlite3`), which sessions?q= reads. */
  searchFile: string;
  now?: () => number;
  /** Ends the desk streams when the hub stops. */
  closing?: AbortSignal;
  /** @default 15000 */
  heartbeatMs?: number;
  /** The hub's language, for a page that names none. @default "en" */
  lang?: Lang;
}

const DECISIONS: readonly PersonDecision[] = ["once", "session", "deny"];

/** The chat's routes over `sources`. */
export function dashboardChat(sources: ChatSources): DashboardRoutes {
  const now = sources.now ?? Date.now;
  // Every desk event, numbered so a stream that dropped resumes where it stood. The
  // desk is heard from the first stream on (an idle hub keeps nothing).
  let replay: EventReplay | undefined;
  const deskEvents = () => {
    if (replay === undefined) {
      const made = new EventReplay();
      sources.desk.subscribe((event: DeskEvent, conversation) => {
        made.push(JSON.stringify({ conversation: conversation.key, event }));
      });
      replay = made;
    }
    return replay;
  };
  return new Router<DashboardSession>()
    .get("/sessions", async (_request, { url }) => {
      const q = (url.searchParams.get("q") ?? "").trim().toLowerCase();
      const list = await sources.sessions.listSessions(200);
      const open = new Map(sources.desk.list().map((c) => [c.sessionId, c]));
      // A session matches by its id or by what was said in it, as the search index has
      // it (a session written since it was indexed is read again, that one alone).
      let said = new Set<string>();
      if (q !== "") {
        said = await withHeldIndex(
          sources.searchFile,
          (index) => index.search(q, list, searchedMessages(sources.sessions)),
        );
      }
      const found = list.filter((s) =>
        q === "" || s.session_id.toLowerCase().includes(q) || said.has(s.session_id)
      );
      return json({
        sessions: found.map((s) => ({
          id: s.session_id,
          updated_at: s.updated_at,
          messages: s.message_count,
          channel: s.session_id.split("-", 1)[0],
          busy: open.get(s.session_id)?.busy ?? false,
        })),
      });
    })
    .get("/transcript", async (request, { url }) => {
      const id = sessionParam(url.searchParams.get("session"));
      const stored = ((await sources.sessions.listMessages(id, MAIN_AGENT_ID)) ?? []).flatMap(
        (record) => readStoredMessage(record) ?? [],
      );
      const conversation = sources.desk.get(`web:${id}`);
      const usage = sources.usage;
      return json({
        session: id,
        // The messages only (`lines`), and with each tool step and each answer's cost (`entries`).
        lines: messageLines(historyLines(stored.map((s) => s.message))),
        entries: transcriptEntries(stored, {
          lang: pageLang(request, sources.lang ?? "en"),
          ...(usage ? { usage: (since, until) => usage.turnUsage(id, since, until) } : {}),
        }),
        busy: conversation?.busy ?? false,
        waiting: conversation?.waiting ?? 0,
        // Still waiting after a reload: the pane shows them again.
        approvals: sources.desk.approvals().filter((a) => a.conversation === `web:${id}`),
      });
    })
    .post("/chat/send", async (request) => {
      const body = await jsonBody(request);
      const text = typeof body.text === "string" ? body.text : "";
      if (text.trim() === "") {
        throw new HttpError(400, "bad_request", { detail: "text: the message is empty" });
      }
      if (text.length > 32_000) {
        throw new HttpError(400, "bad_request", { detail: "text: longer than 32000 characters" });
      }
      const id = body.session === undefined || body.session === null || body.session === ""
        ? newSessionId("web", now())
        : sessionParam(body.session);
      const conversation = await open(sources, id);
      const queued = conversation.busy ? conversation.waiting + 1 : 0;
      // The answer arrives on the desk stream; the outcome is not waited for here.
      void conversation.submit(text).catch(() => {});
      return json({ session: id, queued });
    })
    .post("/chat/cancel", async (request) => {
      const id = sessionParam((await jsonBody(request)).session);
      return json({ cancelled: sources.desk.get(`web:${id}`)?.cancel() ?? false });
    })
    // A stream has no body for HEAD to stand for.
    .on("GET", "/desk", (request, { url }) =>
      deskEvents().response(request, url, {
        ...(sources.closing ? { signal: sources.closing } : {}),
        ...(sources.heartbeatMs ? { heartbeatMs: sources.heartbeatMs } : {}),
      }))
    // Each with the session its conversation is on, so the page links the conversation.
    .get("/approvals", () =>
      json({
        approvals: sources.desk.approvals().map((a) => ({
          ...a,
          session: sources.desk.get(a.conversation as ConversationKey)?.sessionId ?? null,
        })),
      }))
    .post("/approvals/decide", async (request) => {
      const body = await jsonBody(request);
      const decision = body.decision as PersonDecision;
      if (typeof body.id !== "string" || !DECISIONS.includes(decision)) {
        throw new HttpError(400, "bad_request", {
          detail: "id and decision (once, session or deny) are needed",
        });
      }
      return json({ decided: sources.desk.decide(body.id, decision, "web") });
    })
    .get("/usage", (_request, { url }) => {
      const id = sessionParam(url.searchParams.get("session"));
      const since = Number(url.searchParams.get("since") ?? "0");
      if (!Number.isFinite(since)) throw new HttpError(400, "bad_request");
      return json({ usage: sources.usage?.turnUsage(id, since) ?? [] });
    });
}

async function open(sources: ChatSources, id: string): Promise<DeskConversation> {
  const meta = await sources.sessions.getMeta(id).catch(() => ({} as Record<string, unknown>));
  const role = typeof meta.role === "string" ? meta.role : "brain";
  return await sources.desk.open(`web:${id}`, {
    picked: {
      sessionId: id,
      resumed: true,
      role,
      fixedRole: undefined,
      sessions: sources.sessions,
    },
  });
}

function sessionParam(value: unknown): string {
  if (typeof value !== "string" || !isValidId(value)) {
    throw new HttpError(400, "bad_request", { detail: "session: not a session id" });
  }
  return value;
}
