/**
 * The dashboard page's entry: signs in (trading the one-time code in the fragment for
 * a session token kept in this tab's `sessionStorage`, then dropping the code from the
 * address bar), draws the frame (pages,
 * language, theme), follows the hub's owner events, and shows the page the fragment
 * names (`#/overview`, `#/spend/month`, ...).
 *
 * @module
 */
import {
  announceSignOut,
  ApiError,
  borrowSession,
  dropSession,
  get,
  hasSession,
  post,
  setCsrf,
  setSession,
  SIGNED_OUT,
} from "./api.ts";
import { followStream } from "./stream.ts";
import { h, replace } from "./dom.ts";
import { lang, setLang, t } from "./i18n.ts";
import { overview } from "./overview.ts";
import { spend } from "./spend.ts";
import { THEME_CHANGE } from "./charts.ts";
import { PAGES as MORE_PAGES } from "./pages.ts";
import { approvalsBadge, followApprovals } from "./approvals_badge.ts";
import { inline } from "./markdown.ts";

const root = document.getElementById("app")!;
const live = new EventTarget();

type Page = (main: HTMLElement, arg: string, live: EventTarget) => Promise<void>;

const PAGES: Record<string, { title: () => string; render: Page }> = {
  overview: { title: () => t("nav_overview"), render: (m) => overview(m, live) },
  spend: { title: () => t("nav_spend"), render: (m, arg) => spend(m, arg) },
  ...Object.fromEntries(
    Object.entries(MORE_PAGES).map(([name, page]) => [name, {
      title: page.title,
      render: (m: HTMLElement, arg: string) => page.render(m, arg, live),
    }]),
  ),
};

async function signIn(): Promise<boolean> {
  const code = /^#code=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
  if (code !== undefined) {
    // The code leaves the address bar and the history before anything else happens.
    history.replaceState(null, "", `${location.pathname}#/overview`);
    try {
      const session = await post<{ token: string; csrf: string; lang: string }>("login", {
        code,
      });
      setSession(session.token);
      setCsrf(session.csrf);
      setLang(localStorage.getItem("lang") ?? session.lang);
      return true;
    } catch (error) {
      setLang(localStorage.getItem("lang") ?? root.dataset.lang ?? "en");
      message(error instanceof ApiError ? t("login_used") : t("login_failed"));
      return false;
    }
  }
  // A reload, or another page of the dashboard in this tab: the token this tab keeps;
  // a new tab: the token of a tab already signed in.
  if (!hasSession() && !(await borrowSession())) {
    setLang(localStorage.getItem("lang") ?? root.dataset.lang ?? "en");
    message(t("login_missing"));
    return false;
  }
  try {
    const session = await get<{ csrf: string; lang: string }>("session");
    setCsrf(session.csrf);
    setLang(localStorage.getItem("lang") ?? session.lang);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) dropSession();
    setLang(localStorage.getItem("lang") ?? root.dataset.lang ?? "en");
    message(error instanceof ApiError ? t("login_missing") : t("login_failed"));
    return false;
  }
}

function message(text: string): void {
  // Behind a cloud spine the command that signs in is `agent dashboard --cloud`.
  const command = root.dataset.command;
  if (command) text = text.replaceAll("`agent dashboard`", `\`${command}\``);
  replace(
    root,
    h(
      "main",
      { class: "login", id: "main" },
      h("h1", {}, t("title")),
      // The commands in the sentence read as code, not as backticks.
      h("p", { role: "alert" }, inline(text)),
    ),
  );
}

function applyTheme(): void {
  const theme = localStorage.getItem("theme") ?? "auto";
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  dispatchEvent(new Event(THEME_CHANGE));
}

function frame(): HTMLElement {
  const main = h("main", { id: "main", tabindex: -1 });
  const current = location.hash.replace(/^#\//, "").split("/")[0] || "overview";
  const nav = h(
    "nav",
    { "aria-label": t("nav_label") },
    h(
      "ul",
      {},
      Object.entries(PAGES).map(([name, page]) =>
        h(
          "li",
          {},
          h(
            "a",
            {
              href: `#/${name}`,
              "aria-current": name === current ? "page" : undefined,
            },
            page.title(),
            name === "approvals" ? approvalsBadge() : null,
          ),
        )
      ),
    ),
  );
  const langSelect = h(
    "select",
    {
      id: "lang",
      onchange: (e: Event) => {
        localStorage.setItem("lang", (e.target as HTMLSelectElement).value);
        setLang((e.target as HTMLSelectElement).value);
        void show("lang");
      },
    },
    h("option", { value: "en", selected: lang() === "en" }, "English"),
    h("option", { value: "tr", selected: lang() === "tr" }, "Türkçe"),
  );
  const themeSelect = h(
    "select",
    {
      id: "theme",
      onchange: (e: Event) => {
        localStorage.setItem("theme", (e.target as HTMLSelectElement).value);
        applyTheme();
      },
    },
    (["auto", "light", "dark"] as const).map((v) =>
      h(
        "option",
        { value: v, selected: (localStorage.getItem("theme") ?? "auto") === v },
        t(`theme_${v}`),
      )
    ),
  );
  const header = h(
    "header",
    { class: "top" },
    h("a", {
      class: "skip",
      href: "#main",
      onclick: (e: Event) => {
        e.preventDefault();
        main.focus();
      },
    }, t("skip_to_content")),
    h("span", { class: "brand" }, t("title")),
    nav,
    h(
      "div",
      { class: "prefs" },
      h("label", { for: "lang", class: "sr-only" }, t("lang_label")),
      langSelect,
      h("label", { for: "theme", class: "sr-only" }, t("theme_label")),
      themeSelect,
      h("button", {
        type: "button",
        onclick: async () => {
          await post("logout").catch(() => {});
          announceSignOut();
          signedOut();
        },
      }, t("sign_out")),
    ),
  );
  replace(root, header, main);
  return main;
}

/**
 * Draws the page the fragment names. `focus` says where the keyboard's focus goes once
 * it is drawn, as the frame is built anew: to the page's heading after a page change (a
 * screen reader says where it is; the focus is not dropped to `<body>`), back to the
 * language menu after a language change, or nowhere (the first draw, a redraw).
 */
async function show(focus: "heading" | "lang" | "none" = "none"): Promise<void> {
  const [name = "overview", arg = ""] = location.hash.replace(/^#\//, "").split("/");
  const page = PAGES[name] ?? PAGES.overview!;
  const main = frame();
  document.title = `${page.title()} · ${t("title")}`;
  replace(main, h("p", { class: "muted" }, t("loading")));
  try {
    await page.render(main, decodeURIComponent(arg), live);
    main.dataset.ready = "true";
    if (focus === "lang") document.getElementById("lang")?.focus();
    else if (focus === "heading") {
      const heading = main.querySelector<HTMLElement>("h1") ?? main;
      heading.tabIndex = -1;
      heading.focus();
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      signedOut();
      return;
    }
    replace(main, h("p", { role: "alert" }, t("error", { detail: String(error) })));
  }
}

/** The streams this page follows, stopped on sign-out. */
const streams: (() => void)[] = [];

/** Whether this tab is signed in now (the pages are drawn and the streams followed). */
let signedInNow = false;

function signedOut(): void {
  signedInNow = false;
  for (const stop of streams.splice(0)) stop();
  dropSession();
  message(t("login_missing"));
}

/** Signs in (a code in the fragment, this tab's token or another tab's) and draws. */
async function start(): Promise<void> {
  // A new sign-in link in a tab already signed in replaces its session and streams.
  for (const stop of streams.splice(0)) stop();
  signedInNow = await signIn();
  if (!signedInNow) return;
  follow();
  await show();
}

function follow(): void {
  const relay = (name: string) => (event: { data: string }) => {
    try {
      live.dispatchEvent(new CustomEvent(name, { detail: JSON.parse(event.data) }));
    } catch { /* not an event */ }
  };
  // After a drop the streams resume where they stood; when the hub cannot say what
  // was missed, the page is drawn again from the hub's state (unless a message is being
  // typed: that is never thrown away).
  const redraw = () => {
    const typing = (document.getElementById("message") as HTMLTextAreaElement | null)?.value;
    if (!typing) void show();
  };
  const options = { onUnauthorized: signedOut, onReset: redraw };
  // The desk: answers, approvals and queues of every conversation (the chat, the
  // Approvals page).
  streams.push(followStream("desk", relay("desk-event"), options));
  // Owner events come unnamed, so every type (those added later too) reaches here.
  streams.push(followStream("events", relay("owner-event"), options));
  followApprovals(live);
}

applyTheme();
// A sign-in link pasted into this tab changes only the fragment: no page load follows,
// so the fragment's code is traded here; any other fragment shows its page.
addEventListener("hashchange", () => {
  if (location.hash.startsWith("#code=")) void start();
  else if (signedInNow) void show("heading");
});
addEventListener(SIGNED_OUT, () => {
  if (signedInNow) signedOut();
});
await start();
