/**
 * The MCP servers' sentences, in English and Turkish: one per way a server can fail
 * (it names the server; the turn goes on without it), the pin's state, and what the
 * owner reads at an approval.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The MCP catalogue. */
export const t = catalogue({
  start_failed: "The MCP server {name} did not start: {detail}.",
  not_found: "the program {command} was not found",
  exited: "it exited before it answered",
  exited_said: "it exited before it answered, saying: {said}",
  timed_out: "The MCP server {name} did not answer within {seconds} s, so it was stopped.",
  garbage: "The MCP server {name} answered something that is not MCP, so it was stopped.",
  died: "The MCP server {name} stopped during the call to {tool}.",
  refused: "The MCP server {name} refused the connection at {url}.",
  http_status: "The MCP server {name} answered HTTP {status}.",
  failed: "The MCP server {name} failed: {detail}.",
  tool_failed: "The MCP server {name} could not run {tool}: {detail}.",
  no_sandbox:
    "The MCP server {name} asks for a sandbox, and bubblewrap (bwrap) is not installed here, so it was not started.",
  changed:
    "The MCP server {name} changed its tools since you pinned them, so it is off until you run 'agent mcp pin {name}' (which shows what changed).",
  unpinned:
    "The MCP server {name} has no pin yet, so it is off until you run 'agent mcp pin {name}'.",
  approve:
    "The agent wants to run {tool} of the MCP server {name} with {args}. The server describes it as: “{description}”",
  bad_name:
    "'{name}' is not a server name: lowercase letters, digits, '_' and '-', starting with a letter, at most 32.",
  command_or_url: "Give the server's command after '--', or its address with --url, not both.",
  exists: "There is already an MCP server named {name}; 'agent mcp remove {name}' removes it.",
  unknown: "There is no MCP server named {name} in agent.toml (servers: {names}).",
  remove_by_hand:
    "The MCP server {name} is written in agent.toml in a form this command cannot change; remove it there by hand.",
  no_tool: "The MCP server {name} has no tool named {tool}.",
  added_restart:
    "Added the MCP server {name} and pinned its tools ({count}). The hub uses it from its next start.",
  pinned_restart: "Pinned the MCP server {name}. The hub uses it again from its next start.",
  removed_restart: "Removed the MCP server {name}. The hub stops using it at its next start.",
  pin_moved:
    "The MCP server {name} lists something else than what was shown; look at its changes again.",
  state_pinned: "pinned",
  state_changed: "disabled: its tools changed",
  state_unpinned: "disabled: not pinned",
  state_failed: "failed to start",
  state_off: "not started",
}, {
  start_failed: "MCP sunucusu {name} başlamadı: {detail}.",
  not_found: "{command} programı bulunamadı",
  exited: "yanıt vermeden çıktı",
  exited_said: "yanıt vermeden çıktı, şunu yazarak: {said}",
  timed_out: "MCP sunucusu {name} {seconds} sn içinde yanıt vermedi, bu yüzden durduruldu.",
  garbage: "MCP sunucusu {name} MCP olmayan bir yanıt verdi, bu yüzden durduruldu.",
  died: "MCP sunucusu {name}, {tool} çağrısı sırasında durdu.",
  refused: "MCP sunucusu {name} {url} adresinde bağlantıyı reddetti.",
  http_status: "MCP sunucusu {name} HTTP {status} yanıtı verdi.",
  failed: "MCP sunucusu {name} başarısız oldu: {detail}.",
  tool_failed: "MCP sunucusu {name} {tool} aracını çalıştıramadı: {detail}.",
  no_sandbox:
    "MCP sunucusu {name} bir korumalı alan istiyor ve burada bubblewrap (bwrap) kurulu değil, bu yüzden başlatılmadı.",
  changed:
    "MCP sunucusu {name}, siz sabitledikten sonra araçlarını değiştirdi; 'agent mcp pin {name}' çalıştırana kadar kapalı (komut neyin değiştiğini gösterir).",
  unpinned:
    "MCP sunucusu {name} henüz sabitlenmedi; 'agent mcp pin {name}' çalıştırana kadar kapalı.",
  approve:
    "Ajan, MCP sunucusu {name} içindeki {tool} aracını {args} ile çalıştırmak istiyor. Sunucu onu şöyle tanımlıyor: “{description}”",
  bad_name:
    "'{name}' bir sunucu adı değil: küçük harf, rakam, '_' ve '-', harfle başlayan, en çok 32 karakter.",
  command_or_url:
    "Sunucunun komutunu '--' sonrasında ya da adresini --url ile verin, ikisini birden değil.",
  exists: "{name} adında bir MCP sunucusu zaten var; 'agent mcp remove {name}' onu kaldırır.",
  unknown: "agent.toml içinde {name} adında bir MCP sunucusu yok (sunucular: {names}).",
  remove_by_hand:
    "MCP sunucusu {name}, agent.toml içinde bu komutun değiştiremeyeceği bir biçimde yazılmış; onu orada elle kaldırın.",
  no_tool: "MCP sunucusu {name} içinde {tool} adında bir araç yok.",
  added_restart:
    "MCP sunucusu {name} eklendi ve araçları ({count}) sabitlendi. Hub onu bir sonraki başlangıcından itibaren kullanır.",
  pinned_restart:
    "MCP sunucusu {name} sabitlendi. Hub onu bir sonraki başlangıcından itibaren yeniden kullanır.",
  removed_restart:
    "MCP sunucusu {name} kaldırıldı. Hub onu bir sonraki başlangıcında kullanmayı bırakır.",
  pin_moved:
    "MCP sunucusu {name} gösterilenden başka bir şey listeliyor; değişikliklerine yeniden bakın.",
  state_pinned: "sabitlendi",
  state_changed: "kapalı: araçları değişti",
  state_unpinned: "kapalı: sabitlenmedi",
  state_failed: "başlamadı",
  state_off: "başlatılmadı",
});

/** One of the MCP sentences by its key, for the dashboard (which has no catalogue of its own). */
export function mcpSentence(
  lang: "en" | "tr",
  key: "added_restart" | "pinned_restart" | "removed_restart" | "pin_moved",
  vars: Record<string, string | number>,
): string {
  return t(lang, key, vars);
}
