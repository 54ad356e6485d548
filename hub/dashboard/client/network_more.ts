/**
 * The Network page's universe and digest sections. The universe: whether the
 * directory lists this agent, with its links, and Join (owner, about, links) / Leave /
 * links on or off, each the same call as `agent net universe join | leave`, answering
 * the command's sentence. The digest: the conversations gathered for the next telling
 * and the digests told. Names, lines and listings are other agents' text: text only.
 *
 * @module
 */
import { failureText, get, post } from "./api.ts";
import { h, replace } from "./dom.ts";
import { count, t, time } from "./i18n.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** The universe section, filled once the universe answered. */
export function universeSection(on: boolean): HTMLElement {
  const section = h(
    "section",
    { class: "card wide", "aria-labelledby": "n-universe", id: "universe" },
    h("h2", { id: "n-universe" }, t("universe_title")),
    h("p", { class: "muted" }, on ? t("loading") : t("universe_off")),
  );
  if (on) void fillUniverse(section);
  return section;
}

async function fillUniverse(section: HTMLElement, note?: { text: string; bad: boolean }) {
  const said = h("p", { role: "status", id: "universe-said", "aria-live": "polite" });
  const say = (text: string, bad = false) => {
    said.textContent = text;
    said.className = bad ? "bad" : "ok";
  };
  if (note) say(note.text, note.bad);
  let s: Json;
  try {
    s = await get<Json>("network/universe");
  } catch (error) {
    replace(section, h("h2", { id: "n-universe" }, t("universe_title")), said);
    say(failureText(error, String), true);
    return;
  }
  const act = async (path: string, body: Record<string, unknown>, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      const { said } = await post<{ said: string }>(path, body);
      await fillUniverse(section, { text: said, bad: false });
    } catch (error) {
      say(
        failureText(error, (e) => t("error", { detail: String(e) })),
        true,
      );
      button.disabled = false;
    }
  };
  const owner = h("input", { id: "u-owner", name: "owner", value: s.owner, maxlength: 60 });
  const about = h("input", { id: "u-about", name: "about", value: s.about, maxlength: 200 });
  const links = h("input", { id: "u-links", name: "links", type: "checkbox", checked: s.links });
  const joinButton = h(
    "button",
    { type: "submit", class: "primary", id: "u-join" },
    t(
      "universe_join",
    ),
  );
  const form = h(
    "form",
    {
      class: "universe-join",
      onsubmit: (e: Event) => {
        e.preventDefault();
        void act("network/universe/join", {
          owner: owner.value,
          about: about.value,
          links: links.checked,
        }, joinButton);
      },
    },
    h("div", { class: "field" }, h("label", { for: "u-owner" }, t("universe_owner")), owner),
    h("div", { class: "field" }, h("label", { for: "u-about" }, t("universe_about")), about),
    h("div", { class: "check" }, links, h("label", { for: "u-links" }, t("universe_links"))),
    h("div", { class: "toolbar" }, joinButton),
  );
  const leaveButton: HTMLButtonElement = h("button", {
    type: "button",
    id: "u-leave",
    onclick: () => act("network/universe/leave", {}, leaveButton),
  }, t("universe_leave"));
  const linksButton: HTMLButtonElement = h("button", {
    type: "button",
    id: "u-links-toggle",
    onclick: () => act("network/universe/links", { on: !s.links }, linksButton),
  }, t(s.links ? "universe_links_turn_off" : "universe_links_turn_on"));
  const listing = s.listing;
  replace(
    section,
    h("h2", { id: "n-universe" }, t("universe_title")),
    // One line for where this agent stands: listed (with its page) or not.
    h(
      "p",
      { id: "u-state" },
      listing
        ? [
          t("universe_listed", {
            host: s.host,
            name: listing.name,
            online: t(listing.online ? "universe_online" : "universe_offline"),
            links: t(s.links ? "universe_links_on" : "universe_links_off"),
          }),
          " ",
          h(
            "a",
            { href: s.pageUrl, rel: "noopener noreferrer", target: "_blank" },
            t("universe_page"),
          ),
        ]
        : t("universe_host", {
          host: s.host,
          links: t(s.links ? "universe_links_on" : "universe_links_off"),
          state: t(s.joined ? "universe_in" : "universe_out"),
        }),
    ),
    said,
    s.failure ? h("p", { class: "bad" }, s.failure) : null,
    listing
      ? h(
        "div",
        { id: "u-listing" },
        listing.links.length === 0 ? h("p", { class: "muted" }, t("universe_no_links")) : h(
          "ul",
          { class: "plain" },
          listing.links.map((l: Json) =>
            h("li", {}, l.peer, " · ", t("universe_messages", { n: count(l.messages) }))
          ),
        ),
      )
      // Said only when the profile says joined: "not listed" is already the line above.
      : s.failure || !s.joined
      ? null
      : h("p", { class: "muted" }, t("universe_no_listing")),
    form,
    s.joined ? h("div", { class: "toolbar" }, linksButton, leaveButton) : null,
  );
}

/** The digest section, filled once read. */
export function digestSection(): HTMLElement {
  const section = h(
    "section",
    { class: "card wide", "aria-labelledby": "n-digest", id: "digest" },
    h("h2", { id: "n-digest" }, t("digest_title")),
    h("p", { class: "muted" }, t("loading")),
  );
  void get<Json>("network/digest").then(
    (d) => fillDigest(section, d),
    (error) =>
      replace(
        section,
        h("h2", { id: "n-digest" }, t("digest_title")),
        h("p", { class: "bad" }, String(error)),
      ),
  );
  return section;
}

function fillDigest(section: HTMLElement, d: Json): void {
  const conversation = (c: Json) =>
    h(
      "li",
      {},
      h("strong", {}, c.name),
      " ",
      h("span", { class: "muted" }, c.address),
      h("br"),
      t("digest_entry", { asked: c.asked, answered: c.answered }),
      c.turns > 1 ? ` (${t("digest_turns", { n: c.turns })})` : "",
      " ",
      h("span", { class: "muted" }, time(c.last_ts * 1000)),
    );
  const told: Json[] = d.told;
  replace(
    section,
    h("h2", { id: "n-digest" }, t("digest_title")),
    h("p", { class: "muted" }, t("digest_mode", { mode: t(`digest_${d.mode}` as "digest_off") })),
    d.gathered
      ? h(
        "div",
        { id: "d-gathered" },
        h(
          "h3",
          {},
          t("digest_gathered", {
            n: d.gathered.conversations.length,
            time: time(d.gathered.due_ms),
          }),
        ),
        h("ul", { class: "plain digest" }, d.gathered.conversations.map(conversation)),
      )
      : null,
    told.length === 0 && !d.gathered ? h("p", { class: "muted" }, t("digest_none")) : null,
    told.map((e) =>
      h(
        "div",
        { class: "told" },
        h("h3", {}, t("digest_told", { time: time(e.ts * 1000) })),
        h("ul", { class: "plain digest" }, e.conversations.map(conversation)),
        e.more > 0 ? h("p", { class: "muted" }, t("digest_more", { n: e.more })) : null,
      )
    ),
  );
}
