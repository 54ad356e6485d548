/**
 * The Overview page: the hub, its channels (the messenger), the network, each role's
 * budget as a gauge, and the latest owner events, kept live from the event stream.
 *
 * @module
 */
import { get } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time, usd, usdAll } from "./i18n.ts";
import { eventItem } from "./overview_events.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Renders the page into `main`; resolves once the data is shown. */
export async function overview(main: HTMLElement, live: EventTarget): Promise<void> {
  const data = await get<{ status: Json; events: Json[] }>("overview");
  const s = data.status;
  const events = h("ul", { class: "events", "aria-live": "polite" });
  const showEvents = (list: Json[]) => {
    replace(
      events,
      list.length === 0
        ? h("li", { class: "muted" }, t("no_events"))
        : list.slice(-20).reverse().map(eventItem),
    );
  };
  const seen = [...data.events];
  showEvents(seen);
  live.addEventListener("owner-event", (ev) => {
    seen.push((ev as CustomEvent).detail);
    showEvents(seen);
  });
  replace(
    main,
    h("h1", {}, t("nav_overview")),
    h(
      "div",
      { class: "cards" },
      h(
        "section",
        { class: "card", "aria-labelledby": "c-hub" },
        h("h2", { id: "c-hub" }, t("hub")),
        h("p", {}, t("hub_line", { pid: s.pid, version: s.version, since: time(s.started_at) })),
        h("p", { class: "muted" }, t("heartbeat", { time: time(s.heartbeat_at) })),
      ),
      h(
        "section",
        { class: "card", "aria-labelledby": "c-channels" },
        h("h2", { id: "c-channels" }, t("channels")),
        messengerLine(s.messenger),
        s.email ? emailLine(s.email) : null,
      ),
      h(
        "section",
        { class: "card", "aria-labelledby": "c-net" },
        h("h2", { id: "c-net" }, t("network")),
        netLines(s.net),
      ),
    ),
    h(
      "section",
      { class: "card wide", "aria-labelledby": "c-budgets" },
      h("h2", { id: "c-budgets" }, t("budgets")),
      h("ul", { class: "gauges" }, gauges(s.spend?.roles ?? {}, s.spend?.forecast ?? {})),
    ),
    h(
      "section",
      { class: "card wide", "aria-labelledby": "c-events" },
      h("h2", { id: "c-events" }, t("events"), " ", h("span", { class: "badge" }, t("live"))),
      events,
    ),
  );
}

function messengerLine(m: Json): Element[] {
  if (m === undefined || m === null) {
    return [h("p", {}, `${t("messenger")}: ${t("messenger_off")}`)];
  }
  const state = m.connected === false
    ? "disconnected"
    : m.state ?? (m.connected ? "connected" : "");
  return [
    h(
      "p",
      {},
      h("span", { class: `dot ${m.last_error ? "bad" : "ok"}` }),
      `${t("messenger")}: `,
      t("messenger_line", {
        state,
        mode: m.mode ?? "-",
        time: time(m.last_update_at),
      }),
    ),
    m.last_error ? h("p", { class: "muted" }, t("last_error", { error: m.last_error })) : null,
  ].filter((x) => x !== null);
}

/** The e-mail channel, when `[email]` is set: connected, mode, last mail, last error. */
function emailLine(m: Json): Element[] {
  return [
    h(
      "p",
      { id: "email-line" },
      h("span", { class: `dot ${m.state === "connected" && !m.last_error ? "ok" : "bad"}` }),
      `${t("email")}: `,
      t("email_line", {
        state: ["connected", "connecting", "reconnecting", "stopped"].includes(m.state)
          ? t(`email_${m.state}` as "email_connected")
          : "-",
        mode: m.mode ?? "-",
        address: m.address ?? "-",
        time: time(m.last_message_at),
      }),
    ),
    m.last_error ? h("p", { class: "muted" }, t("last_error", { error: m.last_error })) : null,
  ].filter((x) => x !== null);
}

function netLines(n: Json): Element[] {
  if (!n || n.configured === false) return [h("p", {}, t("net_off"))];
  return [
    h(
      "p",
      {},
      h("span", { class: `dot ${n.state === "failed" ? "bad" : "ok"}` }),
      t("net_line", { state: netState(n), address: n.address ?? "-" }),
    ),
    n.doorbell
      ? h(
        "p",
        { class: "muted", id: "doorbell-line" },
        t(n.doorbell.rings === 1 ? "doorbell_one" : "doorbell_many", {
          setting: n.doorbell.setting ?? "-",
          rings: count(n.doorbell.rings ?? 0),
        }),
      )
      : null,
    // `net.universe` of `/status`: whether the profile says this agent is listed.
    n.universe && n.universe.setting !== "off"
      ? h(
        "p",
        { class: "muted", id: "universe-line" },
        t(n.universe.joined ? "universe_joined" : "universe_not_joined", {
          host: n.universe.setting,
        }),
      )
      : null,
  ].filter((x) => x !== null);
}

/**
 * The service's state in words: `polling` runs on both links, so the link in use says
 * whether mail comes by the doorbell (a WebSocket) or by long-polling.
 */
function netState(n: Json): string {
  if (n.state === "polling") return t(n.link === "websocket" ? "net_listening" : "net_polling");
  if (n.state === "idle" || n.state === "failed") return t(`net_${n.state}` as "net_idle");
  return n.state ?? "-";
}

function gauges(roles: Record<string, Json>, forecast: Record<string, Json>): HTMLElement[] {
  return Object.entries(roles).map(([role, r]) => {
    if (typeof r.cap_usd !== "number") {
      return h("li", {}, t("no_budget", { role, spent: usd(r.spent_usd ?? 0) }));
    }
    const f = forecast[role];
    const id = `g-${role}`;
    // Spent and cap compared in one sentence: the digits that keep it true.
    const [spent, cap] = usdAll([r.spent_usd, r.cap_usd]);
    return h(
      "li",
      { class: r.exhausted ? "spent" : "" },
      h(
        "label",
        { for: id },
        t("gauge", {
          role,
          spent,
          cap,
          period: t(`period_${r.period}` as "period_day"),
        }),
      ),
      h("meter", {
        id,
        min: 0,
        max: r.cap_usd,
        value: Math.min(r.spent_usd, r.cap_usd),
        low: r.cap_usd * 0.8,
        high: r.cap_usd * 0.95,
        optimum: 0,
      }),
      h(
        "p",
        { class: "muted" },
        r.exhausted ? h("strong", { class: "spent-label" }, t("spent_label"), " ") : null,
        r.exhausted && r.degrade_to ? `${t("stand_in", { stand_in: r.degrade_to })} · ` : "",
        t("resets", { time: time(r.reset_at) }),
        f ? ` · ${t("forecast", { projected: usd(f.projected_usd) })}` : "",
        f?.reaches_at && !f.reached ? ` · ${t("reaches", { time: time(f.reaches_at) })}` : "",
      ),
    );
  });
}
