/**
 * The Approvals page (every open approval of every channel) and the approval card the
 * chat pane shows too: Allow once, Allow for this session, Deny. The first decision
 * anywhere wins; the card then says what was decided.
 *
 * @module
 */
import { get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { t, time } from "./i18n.ts";
import type { DeskMessage } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const DECISION_WORDS: Record<string, () => string> = {
  once: () => t("allow_once"),
  session: () => t("allow_session"),
  deny: () => t("deny"),
};

/** A card for one approval request; it listens for its own `decided` event. */
export function approvalCard(request: Json): HTMLElement {
  const actions = h(
    "div",
    { class: "actions" },
    (["once", "session", "deny"] as const).map((decision) =>
      h("button", {
        type: "button",
        class: decision === "deny" ? "" : "primary",
        "data-decision": decision,
        onclick: async () => {
          for (const b of actions.querySelectorAll("button")) b.disabled = true;
          const { decided } = await post<{ decided: boolean }>("approvals/decide", {
            id: request.id,
            decision,
          });
          if (decided) done(decision);
        },
      }, DECISION_WORDS[decision]!())
    ),
  );
  const card = h(
    "section",
    { class: "approval", "aria-label": t("approval"), "data-approval": request.id },
    h("strong", {}, t("approval")),
    h("p", {}, request.message),
    h(
      "p",
      { class: "muted" },
      `${request.tool}: ${request.summary} · ${
        t("from_channel", { channel: request.conversation })
      } · ${time(request.expiresAt)}`,
    ),
    actions,
  );
  const done = (decision: string) => {
    replace(
      actions,
      h(
        "p",
        { class: "decided" },
        t("decided", { decision: (DECISION_WORDS[decision] ?? (() => decision))() }),
      ),
    );
  };
  card.addEventListener("decided", (e) => done((e as CustomEvent).detail.decision));
  return card;
}

/** Renders the Approvals page and keeps it live. */
export async function approvals(main: HTMLElement, live: EventTarget): Promise<void> {
  const list = h("div", { class: "approvals", "aria-live": "polite" });
  const cards = new Map<string, HTMLElement>();
  const load = async () => {
    const { approvals } = await get<{ approvals: Json[] }>("approvals");
    cards.clear();
    replace(
      list,
      approvals.length === 0
        ? h("p", { class: "muted" }, t("no_approvals"))
        : approvals.map((a) => {
          const card = approvalCard(a);
          cards.set(a.id, card);
          return card;
        }),
    );
  };
  replace(main, h("h1", {}, t("approvals_title")), list);
  await load();
  const onDesk = (ev: Event) => {
    const { event } = (ev as CustomEvent<DeskMessage>).detail;
    if (event.type !== "CUSTOM") return;
    if (event.name === "approval.requested") void load();
    if (event.name === "approval.decided") {
      cards.get(event.value.id)?.dispatchEvent(new CustomEvent("decided", { detail: event.value }));
    }
  };
  live.addEventListener("desk-event", onDesk);
  addEventListener("hashchange", () => live.removeEventListener("desk-event", onDesk), {
    once: true,
  });
}
