/**
 * The Conversations page's session list (every channel's, searchable), kept current from
 * the desk stream: a session seen starting is listed as soon as the hub has stored its
 * first message, so a person's first conversation is not denied ("No sessions yet.")
 * while its first answer is written; every session is read again when an answer ends,
 * and every so often for those another process writes.
 *
 * @module
 */
import { get } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";
import type { DeskMessage } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** How often the session list is read again for sessions other processes began. */
const LIST_REFRESH_MS = 15_000;

/**
 * How long after a run starts its session is looked for: the hub stores the person's
 * message just after it says the run started, before the model is called.
 */
const STARTED_LOOK_MS = 150;

/** The list's parts, and `load()`, which reads it again now. */
export interface SessionList {
  search: HTMLInputElement;
  list: HTMLElement;
  load(): Promise<void>;
}

/**
 * The list of sessions, `open()` marked current; its listeners on `live` go once the
 * list is no longer on the page.
 */
export function sessionList(live: EventTarget, open: () => string): SessionList {
  let searching: ReturnType<typeof setTimeout> | undefined;
  const list = h("ul", { "aria-label": t("sessions") });
  const search = h("input", {
    type: "search",
    id: "search",
    placeholder: t("search"),
    "aria-label": t("search"),
    oninput: () => {
      // Typing settles before the hub searches the transcripts.
      clearTimeout(searching);
      searching = setTimeout(() => void load(), 250);
    },
  });
  let shown = "";
  // The ids the list shows now with a message stored, and the sessions seen starting that
  // it does not show so yet (by their desk conversation).
  let listed = new Set<string>();
  const awaited = new Map<string, string>();
  let loading: Promise<void> | undefined;
  const load = async () => {
    const q = encodeURIComponent(search.value);
    const { sessions } = await get<{ sessions: Json[] }>(`sessions?q=${q}`);
    listed = new Set(sessions.filter((s) => s.messages > 0).map((s) => s.id));
    for (const [conversation, id] of awaited) if (listed.has(id)) awaited.delete(conversation);
    const current = open();
    // Drawn again only when it changed, so a refresh leaves the focus where it is.
    const drawn = JSON.stringify([search.value, current, sessions]);
    if (drawn === shown) return;
    shown = drawn;
    const empty = search.value.trim() === ""
      // The open conversation is being stored: no sentence denies it.
      ? current === "" ? t("no_sessions") : ""
      : t("no_matches", { q: search.value.trim() });
    replace(
      list,
      sessions.length === 0
        ? empty === "" ? null : h("li", { class: "muted" }, empty)
        : sessions.map((s) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                "aria-current": s.id === current ? "true" : "false",
                onclick: () => {
                  location.hash = `#/conversations/${encodeURIComponent(s.id)}`;
                },
              },
              s.id,
              h("br"),
              h("span", { class: "muted" }, `${time(s.updated_at)} · ${count(s.messages)}`),
            ),
          )
        ),
    );
  };
  // One read at a time: a session awaited is looked for again on its run's next event,
  // not on every streamed word.
  const lookFor = () => {
    if (loading !== undefined) return;
    loading = load().catch(() => {}).finally(() => loading = undefined);
  };
  let refreshing: ReturnType<typeof setTimeout> | undefined;
  let looking: ReturnType<typeof setTimeout> | undefined;
  const refreshSoon = () => {
    clearTimeout(refreshing);
    refreshing = setTimeout(() => void load().catch(() => {}), 300);
  };
  // Once the page is drawn again (another page, another session), this list is gone and
  // its listeners with it.
  const gone = () => {
    if (list.isConnected) return false;
    live.removeEventListener("desk-event", onDesk);
    clearInterval(every);
    clearTimeout(refreshing);
    clearTimeout(looking);
    return true;
  };
  const onDesk = (ev: Event) => {
    if (gone()) return;
    const { conversation, event } = (ev as CustomEvent<DeskMessage>).detail ?? {};
    const type = event?.type;
    if (type === "RUN_FINISHED" || type === "RUN_ERROR") {
      awaited.delete(conversation);
      refreshSoon();
    } else if (type === "RUN_STARTED") {
      // A session the list lacks, while nothing filters it: looked for once stored.
      const id = event.threadId;
      if (typeof id !== "string" || listed.has(id) || search.value.trim() !== "") return;
      awaited.set(conversation, id);
      clearTimeout(looking);
      looking = setTimeout(lookFor, STARTED_LOOK_MS);
    } else if (awaited.has(conversation) && search.value.trim() === "") lookFor();
  };
  const every = setInterval(() => {
    if (!gone() && document.visibilityState === "visible") refreshSoon();
  }, LIST_REFRESH_MS);
  live.addEventListener("desk-event", onDesk);
  return { search, list, load };
}
