/**
 * The Memory page: the page's twin of `agent memory` (the hub's routes in
 * `hub/dashboard/memory.ts` run the same code and answer with the same sentences). What
 * waits for the owner comes first, each with its text to edit, Approve and Reject; then
 * the memories in force, filtered by scope and searched (any part of a word, whatever
 * its accents: `ayse` finds `Ayşe`), each with its scope, kind, where it came from (a
 * link to its conversation when a session made it), Pin / Unpin and Forget after a
 * confirm step. One status line at the top says what each act did. Memories are text
 * from people and the model: shown as text only.
 *
 * @module
 */
import { failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";

/** A memory as the hub's routes give it. */
interface Row {
  id: number;
  scope: string;
  kind: "fact" | "preference" | "event" | "instruction";
  text: string;
  source: "owner" | "agent" | "imported";
  channel: string | null;
  session_id: string | null;
  created_ms: number;
  pinned: boolean;
  /** Why it waits (pending ones only), in the page's language. */
  reason?: string;
}

interface Listing {
  enabled: boolean;
  /** Whether a forget may also clean the stored transcripts (a local hub). */
  redact?: boolean;
  memories: Row[];
  scopes: string[];
  counts?: { active: number; pending: number; superseded: number };
}

/** The filter kept while the page is open (a redraw after an act keeps it). */
const filter = { scope: "", q: "" };

/** Renders the page into `main`. */
export async function memory(main: HTMLElement): Promise<void> {
  const said = h("p", { role: "status", id: "memory-said", "aria-live": "polite" });
  const say = (text: string, bad = false) => {
    said.textContent = text;
    said.className = bad ? "bad" : "ok";
  };
  const failed = (error: unknown) =>
    say(failureText(error, (e) => t("error", { detail: String(e) })), true);
  const pendingList = h("div", { class: "memory-pending" });
  const list = h("ul", { class: "plain memories", "aria-label": t("mem_in_force") });
  const counts = h("p", { class: "muted", id: "memory-counts" });
  const scopeSelect = h("select", {
    id: "memory-scope",
    onchange: () => {
      filter.scope = scopeSelect.value;
      void drawList();
    },
  });
  let searching: ReturnType<typeof setTimeout> | undefined;
  const search = h("input", {
    type: "search",
    id: "memory-search",
    placeholder: t("mem_search"),
    value: filter.q,
    oninput: () => {
      // Typing settles before the hub searches.
      clearTimeout(searching);
      searching = setTimeout(() => {
        filter.q = search.value.trim();
        void drawList();
      }, 250);
    },
  });
  /** Runs an act; its sentence goes to the status line and the lists are drawn again. */
  const act = async (path: string, body: Record<string, unknown>, button?: HTMLButtonElement) => {
    if (button) button.disabled = true;
    try {
      say((await post<{ saved: string }>(path, body)).saved);
      await Promise.all([drawList(), drawPending()]);
    } catch (error) {
      if (button) button.disabled = false;
      failed(error);
    }
  };

  async function drawList(given?: Listing): Promise<void> {
    const data = given ?? await get<Listing>(`memory?${new URLSearchParams(filter)}`);
    // The scope chosen stays offered when its last memory is gone.
    const scopes = filter.scope === "" || data.scopes.includes(filter.scope)
      ? data.scopes
      : [...data.scopes, filter.scope];
    replace(
      scopeSelect,
      h("option", { value: "" }, t("mem_all_scopes")),
      scopes.map((s) => h("option", { value: s, selected: s === filter.scope }, scopeWord(s))),
    );
    if (data.counts) {
      counts.textContent = t("mem_counts", {
        active: count(data.counts.active),
        pending: count(data.counts.pending),
        superseded: count(data.counts.superseded),
      });
    }
    replace(
      list,
      data.memories.length === 0
        ? h(
          "li",
          { class: "muted" },
          filter.q === "" ? t("mem_none") : t("mem_no_match", { query: filter.q }),
        )
        : data.memories.map((m) => memoryItem(m, act, data.redact === true)),
    );
  }

  async function drawPending(): Promise<void> {
    const { pending } = await get<{ pending: Row[] }>("memory/pending");
    replace(
      pendingList,
      pending.length === 0
        ? h("p", { class: "muted" }, t("mem_pending_none"))
        : h("ul", { class: "plain" }, pending.map((m) => pendingItem(m, act))),
    );
  }

  const first = await get<Listing>(`memory?${new URLSearchParams(filter)}`);
  if (!first.enabled) {
    replace(main, h("h1", {}, t("nav_memory")), h("p", { class: "muted" }, t("mem_off")));
    return;
  }
  await Promise.all([drawList(first), drawPending()]);
  replace(
    main,
    h("h1", {}, t("nav_memory")),
    h("p", { class: "muted" }, t("mem_note")),
    said,
    h(
      "section",
      { class: "card wide", "aria-labelledby": "memory-pending-h" },
      h("h2", { id: "memory-pending-h" }, t("mem_pending")),
      pendingList,
    ),
    h(
      "section",
      { class: "card wide", "aria-labelledby": "memory-list-h" },
      h("h2", { id: "memory-list-h" }, t("mem_in_force")),
      h(
        "div",
        { class: "toolbar memory-filter" },
        h("label", { for: "memory-scope" }, t("mem_scope")),
        scopeSelect,
        h("label", { for: "memory-search", class: "sr-only" }, t("mem_search")),
        search,
      ),
      counts,
      list,
    ),
  );
}

type Act = (
  path: string,
  body: Record<string, unknown>,
  button?: HTMLButtonElement,
) => Promise<void>;

/** A scope in words: the owner's in the page's language, the others as they are named. */
function scopeWord(scope: string): string {
  return scope === "owner" ? t("mem_owner") : scope;
}

/** Scope, kind and where it came from, as one muted line. */
function metaLine(m: Row): HTMLElement {
  return h(
    "p",
    { class: "muted memory-meta" },
    h("span", { class: "memory-scope" }, scopeWord(m.scope)),
    " · ",
    h("span", { class: "memory-kind" }, t(`mem_kind_${m.kind}`)),
    " · ",
    h("span", { class: "memory-source" }, t(`mem_source_${m.source}`)),
    " · ",
    t("mem_created", { when: time(m.created_ms) }),
    m.session_id === null ? null : [
      " · ",
      h(
        "a",
        {
          class: "memory-session",
          href: `#/conversations/${encodeURIComponent(m.session_id)}`,
        },
        t("mem_from", { session: m.session_id }),
      ),
    ],
  );
}

/**
 * One memory in force: its text, where it came from, Pin / Unpin and Forget (which asks
 * first, and, where the hub can, offers to clean the text out of the stored transcripts).
 */
function memoryItem(m: Row, act: Act, redact: boolean): HTMLElement {
  const panel = h("div", { class: "memory-panel" });
  const pin: HTMLButtonElement = h("button", {
    type: "button",
    "data-action": "pin",
    "aria-pressed": m.pinned ? "true" : "false",
    onclick: () => act("memory/pin", { id: m.id, pinned: !m.pinned }, pin),
  }, t(m.pinned ? "mem_unpin" : "mem_pin"));
  const forget: HTMLButtonElement = h("button", {
    type: "button",
    "data-action": "forget",
    onclick: () => {
      const clean = h("input", { type: "checkbox", id: `memory-redact-${m.id}` });
      const yes: HTMLButtonElement = h("button", {
        type: "button",
        class: "danger",
        onclick: () => act("memory/forget", { ids: [m.id], redact: clean.checked }, yes),
      }, t("mem_forget_yes", { id: m.id }));
      replace(
        panel,
        h("p", {}, t("mem_forget_ask")),
        redact
          ? h(
            "p",
            { class: "check" },
            clean,
            " ",
            h("label", { for: `memory-redact-${m.id}` }, t("mem_redact")),
          )
          : null,
        h(
          "div",
          { class: "toolbar" },
          yes,
          h("button", {
            type: "button",
            onclick: () => {
              replace(panel);
              forget.focus();
            },
          }, t("mem_cancel")),
        ),
      );
      yes.focus();
    },
  }, t("mem_forget"));
  return h(
    "li",
    { class: "memory", "data-id": m.id },
    h(
      "p",
      { class: "memory-text" },
      m.pinned ? h("span", { class: "tag ok" }, t("mem_pinned")) : null,
      m.pinned ? " " : null,
      h("span", { class: "text" }, m.text),
    ),
    metaLine(m),
    h("div", { class: "toolbar" }, pin, forget),
    panel,
  );
}

/** One waiting memory: its text to edit, why it waits, Approve and Reject. */
function pendingItem(m: Row, act: Act): HTMLElement {
  const id = `memory-edit-${m.id}`;
  const text = h("textarea", { id, rows: 2 }, m.text);
  const approve: HTMLButtonElement = h("button", {
    type: "button",
    class: "primary",
    "data-action": "approve",
    onclick: () =>
      act(
        "memory/approve",
        text.value === m.text ? { id: m.id } : { id: m.id, text: text.value },
        approve,
      ),
  }, t("mem_approve"));
  const reject: HTMLButtonElement = h("button", {
    type: "button",
    "data-action": "reject",
    onclick: () => act("memory/reject", { id: m.id }, reject),
  }, t("mem_reject"));
  return h(
    "li",
    { class: "memory pending", "data-id": m.id },
    h("label", { for: id, class: "sr-only" }, t("mem_text", { id: m.id })),
    text,
    metaLine(m),
    m.reason ? h("p", { class: "muted" }, t("mem_why", { reason: m.reason })) : null,
    h("div", { class: "toolbar" }, approve, reject),
  );
}
