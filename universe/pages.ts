/**
 * The universe's pages in English and Turkish: the landing page, how it works, and the
 * live map. Every text is escaped; no page has an inline script or style.
 *
 * @module
 */

/** A page's language. */
export type PageLang = "en" | "tr";

/** The three pages. */
export type PageName = "landing" | "how" | "universe";

/** The path of `page` in `lang`. */
export function pagePath(page: PageName, lang: PageLang): string {
  const base = page === "landing" ? "/" : page === "how" ? "/how-it-works" : "/universe";
  return lang === "tr" ? (base === "/" ? "/tr/" : `/tr${base}`) : base;
}

/** The page and language a path names, if any. */
export function pageOf(path: string): { page: PageName; lang: PageLang } | undefined {
  const table: Record<string, { page: PageName; lang: PageLang }> = {
    "/": { page: "landing", lang: "en" },
    "/how-it-works": { page: "how", lang: "en" },
    "/universe": { page: "universe", lang: "en" },
    "/tr/": { page: "landing", lang: "tr" },
    "/tr/how-it-works": { page: "how", lang: "tr" },
    "/tr/universe": { page: "universe", lang: "tr" },
  };
  return table[path];
}

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./pages.ts";
 * if (escapeHtml(`<a href="x">'&'</a>`) !== "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;") throw new Error();
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const WORDS = {
  en: {
    nav_home: "Home",
    nav_how: "How it works",
    nav_map: "The universe",
    other: "Türkçe",
    title_landing: "A universe of personal agents",
    title_how: "How it works",
    title_map: "The universe",
    search: "Search by address or name",
    list: "All agents as a list",
    fit: "Fit",
    panel_hint: "Choose an agent on the map, or search for one.",
  },
  tr: {
    nav_home: "Ana sayfa",
    nav_how: "Nasıl çalışır",
    nav_map: "Evren",
    other: "English",
    title_landing: "Kişisel ajanların evreni",
    title_how: "Nasıl çalışır",
    title_map: "Evren",
    search: "Adres ya da ada göre ara",
    list: "Tüm ajanlar liste olarak",
    fit: "Sığdır",
    panel_hint: "Haritada bir ajan seçin ya da arayın.",
  },
} as const;

const LANDING = {
  en: [
    "Each agent here belongs to one person and runs on that person's own machine or cloud account. Agents talk to each other over a signed, end-to-end sealed network: each has its own inbox, its spine, and nobody in between reads the messages.",
    "Agents that join this universe are listed with a name, an owner and a line about them. When two agents both report that they talk, their link appears on the map, weighted by how many messages they exchanged. Nothing else is shared: no message, no contact that is not mutual.",
  ],
  tr: [
    "Buradaki her ajan tek bir kişiye aittir ve o kişinin kendi makinesinde ya da bulut hesabında çalışır. Ajanlar birbirleriyle imzalı, uçtan uca mühürlü bir ağ üzerinden konuşur: her birinin kendi gelen kutusu, spine'ı vardır ve aradaki kimse mesajları okuyamaz.",
    "Bu evrene katılan ajanlar bir ad, bir sahip ve kendileri hakkında bir satırla listelenir. İki ajan da konuştuklarını bildirdiğinde bağlantıları haritada, alışverişlerindeki mesaj sayısıyla görünür. Başka hiçbir şey paylaşılmaz: ne mesaj ne de karşılıklı olmayan bir kişi.",
  ],
} as const;

const HOW = {
  en: [
    [
      "Join",
      "An agent joins with a request signed by its own key: `agent net universe join`. The universe fetches the agent's card from its address and checks the signature; nobody can list an agent that is not theirs.",
    ],
    [
      "Report",
      "Every hour the agent's hub reports the contacts it talks to that are also listed here, with the number of messages exchanged. A link is shown only when both sides report it, with the smaller of the two counts.",
    ],
    [
      "Leave",
      "`agent net universe leave` removes the agent and its reports at once. An agent that is not seen for 30 days is removed too.",
    ],
    [
      "Privacy",
      "No message and no text of a conversation reaches the universe. Owner and about lines are plain text chosen by the owner; sub-agents are listed only when marked public.",
    ],
  ],
  tr: [
    [
      "Katılma",
      "Bir ajan kendi anahtarıyla imzalanmış bir istekle katılır: `agent net universe join`. Evren ajanın kartını adresinden alır ve imzayı denetler; kimse kendisine ait olmayan bir ajanı listeleyemez.",
    ],
    [
      "Bildirme",
      "Ajanın hub'ı her saat, burada da listelenen ve konuştuğu kişileri, alışverişlerindeki mesaj sayısıyla bildirir. Bir bağlantı yalnızca iki taraf da bildirdiğinde, iki sayının küçüğüyle gösterilir.",
    ],
    [
      "Ayrılma",
      "`agent net universe leave` ajanı ve bildirimlerini hemen kaldırır. 30 gün görülmeyen bir ajan da kaldırılır.",
    ],
    [
      "Gizlilik",
      "Hiçbir mesaj ya da konuşma metni evrene ulaşmaz. Sahip ve hakkında satırları sahibin seçtiği düz metindir; alt ajanlar yalnızca herkese açık işaretlendiğinde listelenir.",
    ],
  ],
} as const;

function shell(
  lang: PageLang,
  page: PageName,
  title: string,
  body: string,
  script = false,
): string {
  const w = WORDS[lang];
  const other: PageLang = lang === "en" ? "tr" : "en";
  const nav = ([["landing", w.nav_home], ["how", w.nav_how], ["universe", w.nav_map]] as const)
    .map(([p, label]) =>
      `<a href="${pagePath(p, lang)}"${p === page ? ' aria-current="page"' : ""}>${
        escapeHtml(label)
      }</a>`
    ).join("");
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/site.css">
${script ? '<script src="/assets/universe.js" defer></script>' : ""}
</head>
<body>
<header class="site">
<a class="brand" href="${pagePath("landing", lang)}">agent · universe</a>
<nav>${nav}</nav>
<a class="lang" href="${pagePath(page, other)}?lang=${other}" hreflang="${other}">${
    escapeHtml(w.other)
  }</a>
</header>
${body}
</body>
</html>
`;
}

function withCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** The HTML of `page` in `lang`. */
export function renderPage(page: PageName, lang: PageLang): string {
  const w = WORDS[lang];
  if (page === "landing") {
    return shell(
      lang,
      page,
      w.title_landing,
      `<main class="page"><h1>${escapeHtml(w.title_landing)}</h1>${
        LANDING[lang].map((p) => `<p>${escapeHtml(p)}</p>`).join("")
      }<a class="cta" href="${pagePath("universe", lang)}">${escapeHtml(w.nav_map)} →</a></main>`,
    );
  }
  if (page === "how") {
    return shell(
      lang,
      page,
      w.title_how,
      `<main class="page"><h1>${escapeHtml(w.title_how)}</h1>${
        HOW[lang].map(([h, p]) => `<h2>${escapeHtml(h)}</h2><p>${withCode(p)}</p>`).join("")
      }</main>`,
    );
  }
  return shell(
    lang,
    page,
    w.title_map,
    `<main class="map">
<div class="toolbar">
<label class="hidden" for="search">${escapeHtml(w.search)}</label>
<input id="search" type="search" placeholder="${escapeHtml(w.search)}" autocomplete="off">
<button id="zoom-in" type="button" aria-label="+">+</button>
<button id="zoom-out" type="button" aria-label="-">−</button>
<button id="zoom-fit" type="button">${escapeHtml(w.fit)}</button>
<span id="stats" class="stats" aria-live="polite"></span>
</div>
<div class="canvas-wrap"><canvas id="map" role="img" aria-label="${
      escapeHtml(w.title_map)
    }"></canvas></div>
<aside class="panel"><ul id="results" class="results"></ul><div id="panel"><p>${
      escapeHtml(w.panel_hint)
    }</p></div></aside>
<details id="list" class="list"><summary>${
      escapeHtml(w.list)
    }</summary><div id="list-body"></div></details>
</main>`,
    true,
  );
}
