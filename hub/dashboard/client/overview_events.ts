/**
 * One owner event on the Overview page, as a sentence a person reads rather than its
 * code: a stranger's contact request names the sender and offers Accept (the same call
 * as the Network page's button), a digest says how many conversations it covers and
 * links the Network page, and the rest show the hub's own sentence under a short
 * translated label.
 *
 * @module
 */
import { failureText, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { lang, t, time } from "./i18n.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const LABELS: Record<string, Parameters<typeof t>[0]> = {
  "net.contact_request": "ev_contact_request",
  "net.outbox_dropped": "ev_outbox_dropped",
  "net.digest": "ev_digest",
  "model.failover": "ev_failover",
  "job.result": "ev_job",
  "job.notice": "ev_job",
};

/** The list item for `e`; text from other agents is set as text, never as HTML. */
export function eventItem(e: Json): HTMLElement {
  const label = LABELS[String(e.type)];
  return h(
    "li",
    { "data-type": String(e.type ?? "") },
    h("time", {}, time(e.ts * 1000)),
    " ",
    label ? h("span", { class: "tag" }, t(label)) : null,
    label ? " " : null,
    ...body(e),
  );
}

function body(e: Json): (Node | string)[] {
  switch (e.type) {
    case "net.contact_request":
      return contactRequest(e);
    case "net.outbox_dropped":
      return [t("ev_outbox_dropped_line", { address: e.address ?? "-", text: e.text ?? "" })];
    case "net.digest": {
      const n = (e.conversations?.length ?? 0) + (e.more ?? 0);
      return [
        t(n === 1 ? "ev_digest_one" : "ev_digest_many", { n }),
        " ",
        h("a", { href: "#/network" }, t("ev_open_network")),
      ];
    }
    case "job.result":
    case "job.notice":
      return [`${e.job ?? "-"}: ${said(e)}`];
    default:
      return [said(e)];
  }
}

/**
 * The hub's sentence in the page's language (`texts`, read from the event's code when
 * the page asked), else as the hub wrote it.
 */
function said(e: Json): string {
  return e.texts?.[lang()] ?? e.text ?? "";
}

function contactRequest(e: Json): (Node | string)[] {
  const said = h("span", { class: "muted", role: "status" });
  const accept: HTMLButtonElement = h("button", {
    type: "button",
    class: "primary",
    "data-action": "accept",
    "data-address": String(e.address ?? ""),
    onclick: async () => {
      accept.disabled = true;
      try {
        await post("network/accept", { address: e.address });
        replace(said, t("ev_accepted", { name: e.name ?? e.address }));
        accept.remove();
      } catch (error) {
        accept.disabled = false;
        replace(said, failureText(error, (x) => t("error", { detail: String(x) })));
      }
    },
  }, t("accept"));
  return [
    t("ev_contact_request_line", {
      name: e.name || "-",
      address: e.address ?? "-",
      text: e.text ?? "",
    }),
    " ",
    accept,
    " ",
    h("a", { href: "#/network" }, t("ev_open_network")),
    " ",
    said,
  ];
}
