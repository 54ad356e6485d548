/**
 * The `tools` lines of `agent doctor`, in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The tools doctor catalogue. */
export const t = catalogue({
  no_bwrap:
    "bubblewrap (bwrap) is not installed, so the shell tool and sandboxed MCP servers cannot be used (apt-get install bubblewrap).",
  no_bwrap_shell:
    "[tools.shell] enabled is true, but bubblewrap (bwrap) is not installed, so the shell tool stays off (apt-get install bubblewrap).",
  no_bwrap_server:
    "the MCP server {server} has sandbox = true, and without bubblewrap it is not started.",
  shell_on: "the shell tool is on, inside bubblewrap ({seconds} s, {kb} KB of output a command).",
  search_no_key: "web_search uses Brave, and .env has no SEARCH_API_KEY, so every search fails.",
  search_on: "web_search: {provider}, ${price} a call, {budget}.",
  no_budget: "no budget",
  budget: "budget ${usd} a {period}",
  budget_hard: "hard cap ${usd} a {period}",
  mcp_pinned: "MCP server {server}: pinned, {count} tools.",
  mcp_changed:
    "MCP server {server}: its tools changed since the pin, so it is off; 'agent mcp pin {server}' shows the change.",
  mcp_unpinned: "MCP server {server}: not pinned, so it is off; 'agent mcp pin {server}' pins it.",
}, {
  no_bwrap:
    "bubblewrap (bwrap) kurulu değil, bu yüzden kabuk aracı ve korumalı MCP sunucuları kullanılamaz (apt-get install bubblewrap).",
  no_bwrap_shell:
    "[tools.shell] enabled true, ama bubblewrap (bwrap) kurulu değil, bu yüzden kabuk aracı kapalı kalıyor (apt-get install bubblewrap).",
  no_bwrap_server:
    "MCP sunucusu {server} için sandbox = true, ve bubblewrap olmadan başlatılmıyor.",
  shell_on: "kabuk aracı açık, bubblewrap içinde (komut başına {seconds} sn, {kb} KB çıktı).",
  search_no_key:
    "web_search Brave kullanıyor ve .env içinde SEARCH_API_KEY yok, bu yüzden her arama başarısız olur.",
  search_on: "web_search: {provider}, arama başına ${price}, {budget}.",
  no_budget: "bütçe yok",
  budget: "{period} başına ${usd} bütçe",
  budget_hard: "{period} başına ${usd} kesin sınır",
  mcp_pinned: "MCP sunucusu {server}: sabitlendi, {count} araç.",
  mcp_changed:
    "MCP sunucusu {server}: araçları sabitlendikten sonra değişti, bu yüzden kapalı; 'agent mcp pin {server}' değişikliği gösterir.",
  mcp_unpinned:
    "MCP sunucusu {server}: sabitlenmedi, bu yüzden kapalı; 'agent mcp pin {server}' sabitler.",
});
