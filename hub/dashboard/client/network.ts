/**
 * The Network page: the own address and card name, requests waiting for you (Accept /
 * Block), contacts with their state and message counts, blocked peers (Unblock), the
 * network digest and the universe listing (`network_more.ts`); each button is the same
 * call as its `agent net` command. Names and notes are other
 * agents' text: shown as text only.
 *
 * @module
 */
import { failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";
import { digestSection, universeSection } from "./network_more.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const ORDER = ["pending_in", "accepted", "pending_out", "blocked"];
/** What a network that is not set up may lack (the hub's `NetMissing` codes). */
const MISSING = ["spine_url", "spine_token", "https_spine_url", "identity"];

/** Renders the page into `main`. */
export async function network(main: HTMLElement): Promise<void> {
  const data = await get<Json>("network");
  const alert = h("p", { role: "alert", class: "muted" });
  if (!data.configured) {
    replace(
      main,
      h("h1", {}, t("nav_network")),
      h("p", { id: "net-setup" }, t("net_setup")),
      MISSING.includes(data.missing)
        ? h("p", { class: "muted" }, t(`net_missing_${data.missing}` as "net_missing_identity"))
        : data.detail
        ? h("p", { class: "muted" }, data.detail)
        : null,
    );
    return;
  }
  const act = async (action: string, address: string) => {
    try {
      await post(`network/${action}`, { address });
      await network(main);
    } catch (error) {
      alert.textContent = failureText(error, (e) => t("error", { detail: String(e) }));
    }
  };
  const contacts: Json[] = [...data.contacts].sort((a: Json, b: Json) =>
    ORDER.indexOf(a.state) - ORDER.indexOf(b.state)
  );
  const row = (c: Json) =>
    h(
      "tr",
      { "data-address": c.address },
      h(
        "th",
        { scope: "row" },
        c.name || c.address,
        h("br"),
        h("span", { class: "muted" }, c.address),
      ),
      // The labels name each value on a phone, where a contact is a block of lines.
      h("td", { "data-label": t("state") }, t(`state_${c.state}` as "state_accepted")),
      h(
        "td",
        { "data-label": t("messages") },
        `${count(c.messages.in)} / ${count(c.messages.out)}`,
      ),
      h("td", { class: "note", "data-label": t("note") }, c.note ?? ""),
      h("td", { "data-label": t("updated") }, time(c.updated_at * 1000)),
      h(
        "td",
        { class: "actions" },
        c.state === "pending_in"
          ? h("button", {
            type: "button",
            class: "primary",
            "data-action": "accept",
            onclick: () => act("accept", c.address),
          }, t("accept"))
          : null,
        c.state !== "blocked"
          ? h("button", {
            type: "button",
            "data-action": "block",
            onclick: () => act("block", c.address),
          }, t("block"))
          : h("button", {
            type: "button",
            "data-action": "unblock",
            onclick: () => act("unblock", c.address),
          }, t("unblock")),
      ),
    );
  replace(
    main,
    h("h1", {}, t("nav_network")),
    h(
      "section",
      { class: "card wide", "aria-labelledby": "n-own" },
      h("h2", { id: "n-own" }, t("own_card")),
      h("p", {}, data.name ?? "-"),
      h("p", { class: "muted" }, data.address ?? t("spine_silent")),
    ),
    alert,
    h(
      "section",
      { class: "card wide", "aria-labelledby": "n-contacts" },
      h("h2", { id: "n-contacts" }, t("contacts")),
      contacts.length === 0 ? h("p", { class: "muted" }, t("no_contacts")) : h(
        "div",
        { class: "table-wrap", tabindex: 0, role: "region", "aria-labelledby": "n-contacts" },
        h(
          "table",
          { class: "contacts" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              [t("contact"), t("state"), t("messages"), t("note"), t("updated"), t("actions")].map(
                (c) => h("th", { scope: "col" }, c),
              ),
            ),
          ),
          h("tbody", {}, contacts.map(row)),
        ),
      ),
    ),
    digestSection(),
    universeSection(data.universe === true),
  );
}
