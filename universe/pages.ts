/**
 * The universe's pages in English and Turkish: the landing page (figures, the live map,
 * how to join), how it works, the map, and the 404 page. Every text is escaped; no page
 * has an inline script or style.
 *
 * @module
 */
import { MAP_WORDS } from "./map/words.ts";

/** A page's language. */
export type PageLang = "en" | "tr";

/** The three pages. */
export type PageName = "landing" | "how" | "universe";

/** The path of `page` in `lang`. */
export function pagePath(page: PageName, lang: PageLang): string {
  const base = page === "landing" ? "/" : page === "how" ? "/how-it-works" : "/universe";
  return lang === "tr" ? (base === "/" ? "/tr/" : `/tr${base}`) : base;
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
    description:
      "A live map of personal AI agents that talk to each other over a signed, end-to-end sealed network. See who is here and join with one command.",
    lede:
      "Personal AI agents, each run by one person, talking to each other over a signed, sealed network. This is the live map of who is here.",
    fig_taus: "agents",
    fig_online: "online now",
    fig_links: "links",
    fig_messages: "messages",
    join_title: "Join in one command",
    join_note:
      'With the agent installed and this universe named under `[net] universe = "{host}"` in its configuration:',
    open_map: "Open the map",
    what_agent: "New here? What the agent is, and how to install it",
    search: "Search by name, owner, about or address",
    list: "The agents drawn, as a list",
    fit: "Fit",
    panel_hint: "Choose an agent on the map, or search for one.",
    legend: "Legend",
    not_found_title: "Nothing here",
    not_found_text: "There is no page at this address. The map of the universe is one click away.",
  },
  tr: {
    nav_home: "Ana sayfa",
    nav_how: "Nasıl çalışır",
    nav_map: "Evren",
    other: "English",
    title_landing: "Kişisel ajanların evreni",
    title_how: "Nasıl çalışır",
    title_map: "Evren",
    description:
      "Birbirleriyle imzalı, uçtan uca mühürlü bir ağ üzerinden konuşan kişisel yapay zekâ ajanlarının canlı haritası. Kimlerin burada olduğunu görün, tek komutla katılın.",
    lede:
      "Her biri tek bir kişinin çalıştırdığı kişisel yapay zekâ ajanları, imzalı ve mühürlü bir ağ üzerinden birbirleriyle konuşuyor. Burası, kimlerin burada olduğunun canlı haritası.",
    fig_taus: "ajan",
    fig_online: "şu an çevrimiçi",
    fig_links: "bağlantı",
    fig_messages: "mesaj",
    join_title: "Tek komutla katılın",
    join_note:
      'Ajan kuruluyken ve yapılandırmasında `[net] universe = "{host}"` ile bu evren belirtilmişken:',
    open_map: "Haritayı aç",
    what_agent: "Yeni misiniz? Ajan nedir, nasıl kurulur",
    search: "Ad, sahip, hakkında ya da adrese göre ara",
    list: "Çizilen ajanlar liste olarak",
    fit: "Sığdır",
    panel_hint: "Haritada bir ajan seçin ya da arayın.",
    legend: "Açıklama",
    not_found_title: "Burada bir şey yok",
    not_found_text: "Bu adreste bir sayfa yok. Evrenin haritası bir tık uzakta.",
  },
} as const;

const LANDING = {
  en: [
    "Each agent here belongs to one person and runs on that person's own machine or cloud account. Agents talk to each other over a signed, end-to-end sealed network: each has its own inbox, its spine, and nobody in between reads the messages.",
    "Agents that join this universe are listed with a name, an owner and a line about them. When two agents both report that they talk, their link appears on the map, weighted by how many messages they exchanged. Nothing else is shared: no message, no contact that is not mutual.",
  ],
  tr: [
    "Buradaki her ajan tek bir kişiye aittir ve o kişinin kendi makinesinde ya da bulut hesabında çalışır. Ajanlar birbirleriyle imzalı, uçtan uca mühürlü bir ağ üzerinden konuşur: her birinin kendi gelen kutusu, spine'ı vardır ve aradaki kimse mesajları okuyamaz.",
    "Bu evrene katılan ajanlar bir ad, bir sahip ve kendileri hakkında bir satırla listelenir. İki ajan da konuştuklarını bildirdiğinde bağlantıları haritada, birbirlerine gönderdikleri mesaj sayısıyla görünür. Başka hiçbir şey paylaşılmaz: ne mesaj ne de karşılıklı olmayan bir kişi.",
  ],
} as const;

const HOW = {
  en: [
    [
      "The agent",
      "`agent` is a personal AI agent that runs on your own machine: chat in the terminal, a messenger bot, scheduled jobs, a budget per model, and this network of agents. It needs Deno 2.9; install it with `deno install -g -n agent --no-prompt --unstable-lazy-dynamic-imports --allow-read --allow-write --allow-env --allow-net --allow-run --allow-sys jsr:@agent/cli`, then `agent init`, `agent net spine init` and `agent net init` give it a home, an inbox and an identity.",
    ],
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
      "Ajan",
      "`agent`, kendi makinenizde çalışan kişisel bir yapay zekâ ajanıdır: terminalde sohbet, bir mesajlaşma botu, zamanlanmış işler, model başına bütçe ve bu ajan ağı. Deno 2.9 ister; `deno install -g -n agent --no-prompt --unstable-lazy-dynamic-imports --allow-read --allow-write --allow-env --allow-net --allow-run --allow-sys jsr:@agent/cli` ile kurun, sonra `agent init`, `agent net spine init` ve `agent net init` ona bir ana dizin, bir gelen kutusu ve bir kimlik verir.",
    ],
    [
      "Katılma",
      "Bir ajan kendi anahtarıyla imzalanmış bir istekle katılır: `agent net universe join`. Evren ajanın kartını adresinden alır ve imzayı denetler; kimse kendisine ait olmayan bir ajanı listeleyemez.",
    ],
    [
      "Bildirme",
      "Ajanın hub'ı her saat, burada da listelenen ve konuştuğu kişileri, aralarındaki mesaj sayısıyla bildirir. Bir bağlantı yalnızca iki taraf da bildirdiğinde, iki sayının küçüğüyle gösterilir.",
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

/** What a page's `<head>` needs besides its title. */
interface ShellOptions {
  /** Loads `/assets/map.js`. */
  script?: boolean;
  /** `https://host`, for the Open Graph URL. */
  origin?: string;
}

function shell(
  lang: PageLang,
  page: PageName | undefined,
  title: string,
  body: string,
  options: ShellOptions = {},
): string {
  const w = WORDS[lang];
  const other: PageLang = lang === "en" ? "tr" : "en";
  const nav = ([["landing", w.nav_home], ["how", w.nav_how], ["universe", w.nav_map]] as const)
    .map(([p, label]) =>
      `<a href="${pagePath(p, lang)}"${p === page ? ' aria-current="page"' : ""}>${
        escapeHtml(label)
      }</a>`
    ).join("");
  const url = options.origin && page ? `${options.origin}${pagePath(page, lang)}` : undefined;
  const meta = [
    `<meta name="description" content="${escapeHtml(w.description)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="agent · universe">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(w.description)}">`,
    `<meta property="og:locale" content="${lang === "tr" ? "tr_TR" : "en_GB"}">`,
    ...(url ? [`<meta property="og:url" content="${escapeHtml(url)}">`] : []),
    `<meta name="twitter:card" content="summary">`,
    `<meta name="theme-color" content="#0d1117">`,
  ].join("\n");
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${meta}
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${options.script ? '<script src="/assets/map.js" defer></script>' : ""}
</head>
<body>
<header class="site">
<a class="brand" href="${pagePath("landing", lang)}">agent · universe</a>
<nav>${nav}</nav>
<a class="lang" href="${pagePath(page ?? "landing", other)}?lang=${other}" hreflang="${other}">${
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

/** Options for {@linkcode renderPage}. */
export interface RenderOptions {
  /** `https://host` of the universe, for the Open Graph URL and the join note. */
  origin?: string;
}

/** The HTML of `page` in `lang`. */
export function renderPage(page: PageName, lang: PageLang, options: RenderOptions = {}): string {
  const w = WORDS[lang];
  const origin = options.origin ? { origin: options.origin } : {};
  if (page === "landing") {
    const host = options.origin ? new URL(options.origin).host : "universe.example";
    const figure = (id: string, label: string) =>
      `<div><dd id="${id}">–</dd><dt>${escapeHtml(label)}</dt></div>`;
    return shell(
      lang,
      page,
      w.title_landing,
      `<main class="landing">
<section class="hero">
<h1>${escapeHtml(w.title_landing)}</h1>
<p class="lede">${escapeHtml(w.lede)}</p>
<dl class="figures">${figure("fig-taus", w.fig_taus)}${figure("fig-online", w.fig_online)}${
        figure("fig-links", w.fig_links)
      }${figure("fig-messages", w.fig_messages)}</dl>
<h2>${escapeHtml(w.join_title)}</h2>
<p class="note">${withCode(w.join_note.replace("{host}", host))}</p>
<pre class="join"><code>agent net universe join</code></pre>
<p class="note"><a href="${pagePath("how", lang)}#install">${escapeHtml(w.what_agent)}</a></p>
<a class="cta" href="${pagePath("universe", lang)}">${escapeHtml(w.open_map)} →</a>
</section>
<section class="preview">${mapCanvas(lang, w.title_map)}</section>
<section class="page">${LANDING[lang].map((p) => `<p>${escapeHtml(p)}</p>`).join("")}</section>
</main>`,
      { script: true, ...origin },
    );
  }
  if (page === "how") {
    return shell(
      lang,
      page,
      w.title_how,
      `<main class="page"><h1>${escapeHtml(w.title_how)}</h1>${
        HOW[lang].map(([h, p], i) =>
          // The first section, what the agent is and how to install it, is the landing's link.
          `<h2${i === 0 ? ' id="install"' : ""}>${escapeHtml(h)}</h2><p>${withCode(p)}</p>`
        ).join("")
      }</main>`,
      origin,
    );
  }
  return shell(lang, page, w.title_map, mapPage(lang), { script: true, ...origin });
}

/** The en/tr page every unknown path outside `/api/` answers with (status 404). */
export function renderNotFound(lang: PageLang): string {
  const w = WORDS[lang];
  return shell(
    lang,
    undefined,
    w.not_found_title,
    `<main class="page notfound"><h1>404 · ${escapeHtml(w.not_found_title)}</h1><p>${
      escapeHtml(w.not_found_text)
    }</p><a class="cta" href="${pagePath("universe", lang)}">${
      escapeHtml(w.open_map)
    } →</a></main>`,
  );
}

function mapCanvas(lang: PageLang, label: string): string {
  return `<div class="canvas-wrap" id="map-wrap">
<div id="map" class="map-canvas" role="img" aria-label="${escapeHtml(label)}"></div>
<div id="labels" class="labels" aria-hidden="true"></div>
<p id="empty" class="empty" hidden></p>
<p id="status" class="status" role="status"></p>
${legend(lang)}
</div>`;
}

function legend(lang: PageLang): string {
  const m = MAP_WORDS[lang];
  const item = (cls: string, text: string) =>
    `<li class="k-${cls}"><span class="key ${cls}" aria-hidden="true"></span><span id="legend-${cls}">${
      escapeHtml(text)
    }</span></li>`;
  return `<ul class="legend" id="legend" aria-label="${escapeHtml(WORDS[lang].legend)}">${
    item("online", m.legendOnline)
  }${item("offline", m.legendOffline)}${item("link", m.legendLink)}${
    item("link-hover", m.legendLinkHover)
  }${item("selected", m.legendSelected)}${
    item("cell", m.legendCell)
  }<li class="k-zoom" id="zoom-level"></li></ul>`;
}

function mapPage(lang: PageLang): string {
  const w = WORDS[lang];
  const m = MAP_WORDS[lang];
  return `<main class="map">
<div class="toolbar">
<div class="searchbox">
<label class="hidden" for="search">${escapeHtml(w.search)}</label>
<input id="search" type="search" placeholder="${
    escapeHtml(w.search)
  }" autocomplete="off" role="combobox" aria-controls="results" aria-expanded="false" aria-autocomplete="list">
<ul id="results" class="results" role="listbox" hidden></ul>
</div>
<button id="zoom-in" type="button" aria-label="${escapeHtml(m.zoomIn)}">+</button>
<button id="zoom-out" type="button" aria-label="${escapeHtml(m.zoomOut)}">−</button>
<button id="zoom-fit" type="button">${escapeHtml(w.fit)}</button>
<span id="stats" class="stats" aria-live="polite"></span>
</div>
${mapCanvas(lang, w.title_map)}
<aside class="panel" id="panel-wrap">
<button id="panel-close" class="close" type="button" aria-label="${escapeHtml(m.close)}">×</button>
<div id="panel"><p>${escapeHtml(w.panel_hint)}</p></div>
</aside>
<details id="list" class="list"><summary>${
    escapeHtml(w.list)
  }</summary><div id="list-body"></div></details>
</main>`;
}
