/**
 * The count of open approvals beside "Approvals" in the navigation, so a tool waiting
 * for the owner is seen from every page. It is read once at sign-in and again whenever
 * the desk stream says an approval was asked for or decided (expired and cancelled
 * ones end with a decision too). One element, kept across the frames the page draws.
 *
 * @module
 */
import { get } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t } from "./i18n.ts";
import type { DeskMessage } from "./types.ts";

let pending = 0;
const badge = h("span", { class: "nav-count", id: "approvals-count", hidden: true });

function draw(): void {
  badge.hidden = pending === 0;
  replace(
    badge,
    h("span", { "aria-hidden": "true" }, count(pending)),
    h("span", { class: "sr-only" }, t("approvals_pending", { n: count(pending) })),
  );
}

async function refresh(): Promise<void> {
  try {
    pending = (await get<{ approvals: unknown[] }>("approvals")).approvals.length;
    draw();
  } catch { /* the next desk event reads it again */ }
}

/** The badge, in the page's current language. */
export function approvalsBadge(): HTMLElement {
  draw();
  return badge;
}

let following = false;

/** Reads the count now and keeps it live from the desk's approval events. */
export function followApprovals(live: EventTarget): void {
  void refresh();
  if (following) return;
  following = true;
  live.addEventListener("desk-event", (ev) => {
    const { event } = (ev as CustomEvent<DeskMessage>).detail;
    if (
      event.type === "CUSTOM" &&
      (event.name === "approval.requested" || event.name === "approval.decided")
    ) void refresh();
  });
}
