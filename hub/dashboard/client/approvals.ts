/**
 * The Approvals page (every open approval of every channel) and the approval card the
 * chat pane shows too: Allow once, Allow for this session, Deny. The first decision
 * anywhere wins; the card then says what was decided.
 *
 * An approval is decided only by an act made for it after it was shown: the card never
 * takes the focus (a space typed into the message box would press its first button),
 * and its buttons and shortcut count only from {@linkcode APPROVAL_GUARD_MS} after it
 * appeared, so a click or key already on its way lands on nothing.
 *
 * @module
 */
import { get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { clock, t } from "./i18n.ts";
import type { DeskMessage } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** How long after a card appears no click or key on it counts. */
export const APPROVAL_GUARD_MS = 500;

const DECISION_WORDS: Record<string, () => string> = {
  once: () => t("allow_once"),
  session: () => t("allow_session"),
  deny: () => t("deny"),
};

/** An approval's card and how to decide it by its shortcut. */
export interface ApprovalCard {
  card: HTMLElement;
  /** Decides it as a click would; nothing while the guard lasts or once it is decided. */
  decide(decision: "once" | "session" | "deny"): Promise<void>;
  /** Whether it still waits for a decision. */
  open(): boolean;
}

/**
 * A card for one approval request; it listens for its own `decided` event. Its buttons
 * are disabled for {@linkcode APPROVAL_GUARD_MS} after it is made.
 */
export function approvalCard(request: Json): ApprovalCard {
  const shownAt = performance.now();
  let waiting = true;
  const buttons = (["once", "session", "deny"] as const).map((decision) =>
    h("button", {
      type: "button",
      class: decision === "deny" ? "" : "primary",
      "data-decision": decision,
      disabled: true,
      onclick: () => void decide(decision),
    }, DECISION_WORDS[decision]!())
  );
  const actions = h("div", { class: "actions" }, buttons);
  setTimeout(() => {
    if (waiting) { for (const b of buttons) b.disabled = false; }
  }, APPROVAL_GUARD_MS);
  const decide = async (decision: "once" | "session" | "deny") => {
    // Already on its way when the card appeared: not an act made for it.
    if (!waiting || performance.now() - shownAt < APPROVAL_GUARD_MS) return;
    for (const b of buttons) b.disabled = true;
    try {
      const { decided } = await post<{ decided: boolean }>("approvals/decide", {
        id: request.id,
        decision,
      });
      if (decided) done(decision);
    } catch {
      for (const b of buttons) b.disabled = !waiting;
    }
  };
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
      } · `,
      h("span", { class: "expires" }, t("expires_at", { time: clock(request.expiresAt) })),
      request.session
        ? [
          " · ",
          h("a", {
            href: `#/conversations/${encodeURIComponent(request.session)}`,
            class: "to-conversation",
          }, t("open_conversation")),
        ]
        : null,
    ),
    actions,
  );
  const done = (decision: string) => {
    waiting = false;
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
  return { card, decide, open: () => waiting };
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
          const { card } = approvalCard(a);
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
