/**
 * The map's sentences in English and Turkish, shared by the page's HTML (the legend,
 * the empty state) and its script (the card, the search, the figures).
 *
 * @module
 */
import type { MapLang } from "./text.ts";

/** Every sentence the map shows. */
export const MAP_WORDS = {
  en: {
    owner: "Owner",
    subs: "Public sub-agents",
    links: "Links",
    none: "none",
    joined: "Joined",
    lastSeen: "Last seen",
    isOnline: "online",
    isOffline: "offline",
    notFound: "No agent with that address is listed.",
    noMatch: "No agent matches that search.",
    loading: "Loading the universe…",
    failed: "The universe could not be loaded; trying again in a minute.",
    empty: "Nobody has joined this universe yet. Be the first: run `agent net universe join`.",
    close: "Close",
    zoomIn: "Zoom in",
    zoomOut: "Zoom out",
    legendOnline: "Agent, online",
    legendOffline: "Agent, offline",
    legendLink: "Link (thicker: more messages)",
    /** The link key while only the links of the agent pointed at are drawn. */
    legendLinkHover: "Links: point at an agent or choose one (thicker: more messages)",
    legendSelected: "Chosen agent and its links",
    legendCell: "Many agents (zoom in)",
    /** The cells' colour scale: agents per dot, from the emptiest to the fullest in view. */
    legendScale: "Agents per dot: {min} to {max}",
    /** The zoom level, zoomed out far enough that dots are groups. */
    zoomCells: "Zoom ×{zoom}: each dot is a group; choose one to see its agents",
    /** The zoom level, close enough that each dot is an agent. */
    zoomAgents: "Zoom ×{zoom}: each dot is one agent",
  },
  tr: {
    owner: "Sahibi",
    subs: "Herkese açık alt ajanlar",
    links: "Bağlantılar",
    none: "yok",
    joined: "Katılım",
    lastSeen: "Son görülme",
    isOnline: "çevrimiçi",
    isOffline: "çevrimdışı",
    notFound: "Bu adreste listelenen bir ajan yok.",
    noMatch: "Bu aramaya uyan bir ajan yok.",
    loading: "Evren yükleniyor…",
    failed: "Evren yüklenemedi; bir dakika sonra yeniden denenecek.",
    empty:
      "Bu evrene henüz kimse katılmadı. İlk siz olun: `agent net universe join` komutunu çalıştırın.",
    close: "Kapat",
    zoomIn: "Yakınlaştır",
    zoomOut: "Uzaklaştır",
    legendOnline: "Ajan, çevrimiçi",
    legendOffline: "Ajan, çevrimdışı",
    legendLink: "Bağlantı (kalın: daha çok mesaj)",
    legendLinkHover:
      "Bağlantılar: bir ajanın üzerine gelin ya da birini seçin (kalın: daha çok mesaj)",
    legendSelected: "Seçilen ajan ve bağlantıları",
    legendCell: "Çok sayıda ajan (yakınlaştırın)",
    legendScale: "Nokta başına ajan: {min}–{max}",
    zoomCells: "Yakınlık ×{zoom}: her nokta bir grup; ajanlarını görmek için birini seçin",
    zoomAgents: "Yakınlık ×{zoom}: her nokta bir ajan",
  },
} as const satisfies Record<MapLang, Record<string, string>>;

/** The map's colours, shared by the legend's stylesheet and the renderer. */
export const MAP_COLOURS = {
  online: "#3fb950",
  offline: "#8b949e",
  link: "#2f5d8f",
  /** The links of the agent pointed at, when only those are drawn: brighter than a link. */
  hoverLink: "#58a6ff",
  selected: "#f2cc60",
  /** An agent not linked to the chosen one, online: its green, dimmed (not offline's grey). */
  fadedOnline: "#2a5a34",
  /** The same, offline: offline's grey, dimmed. */
  faded: "#3a414b",
  fadedLink: "#1c2129",
  cellLow: "#1f6feb",
  cellHigh: "#a371f7",
} as const;
