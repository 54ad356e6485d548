/**
 * The `web_search` tool's sentences, in English and Turkish: what the model (and the
 * owner, who sees the result) reads when a search cannot be made.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The search catalogue. */
export const t = catalogue({
  not_configured: "web_search is not set up: agent.toml has no [tools.search] table.",
  no_key: "web_search needs SEARCH_API_KEY in .env for the provider {provider}.",
  failed: "The web search failed: {detail}.",
  nothing: "No results.",
}, {
  not_configured: "web_search kurulmamış: agent.toml içinde [tools.search] tablosu yok.",
  no_key: "web_search, {provider} sağlayıcısı için .env içinde SEARCH_API_KEY ister.",
  failed: "Web araması başarısız oldu: {detail}.",
  nothing: "Sonuç yok.",
});
