/**
 * The `shell` tool's sentences, in English and Turkish: the whole command as the owner
 * approves it, and why a command did not run or was stopped.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The shell catalogue. */
export const t = catalogue({
  approve: "The agent wants to run this command in its sandbox (no network):\n{command}",
  approve_network:
    "The agent wants to run this command in its sandbox, WITH network access:\n{command}",
  off:
    "The shell tool is off: [tools.shell] enabled is not true, or bubblewrap (bwrap) is not installed.",
  timed_out: "The command was stopped after {seconds} s.",
}, {
  approve: "Ajan bu komutu korumalı alanında (ağ olmadan) çalıştırmak istiyor:\n{command}",
  approve_network:
    "Ajan bu komutu korumalı alanında, AĞ ERİŞİMİYLE çalıştırmak istiyor:\n{command}",
  off:
    "Kabuk aracı kapalı: [tools.shell] enabled true değil ya da bubblewrap (bwrap) kurulu değil.",
  timed_out: "Komut {seconds} sn sonra durduruldu.",
});
