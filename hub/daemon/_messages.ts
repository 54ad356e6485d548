import { catalogue, type Translator } from "../i18n.ts";

/** The hub daemon's sentences in English: the catalogue every language follows. */
export const EN = {
  already_running: "hub is already running (pid {pid})... stop it with `agent hub stop` first.",
  read_only:
    "Cannot start the hub: {dir} cannot be written (a read-only home), and the hub keeps its state there; make it writable or run the hub as its owner.",
  read_only_chat:
    "Cannot start {command}: {dir} cannot be written (a read-only home), and {command} keeps its sessions there; make it writable or run it as the home's owner. `agent spend` and `agent doctor` only read and work here.",
  started: "hub running (pid {pid}); control API on http://127.0.0.1:{port}. Ctrl-C stops it.",
  stopping: "hub stopping ({why}).",
  stopped_clean: "hub stopped.",
  port_busy:
    "Cannot start the hub: port {port} on 127.0.0.1 is in use; set [hub] port in agent.toml.",
  not_running: "hub is not running.",
  stop_sent: "Stop signal sent (pid {pid}).",
  stop_timeout: "hub did not stop within {seconds} s.",
  stop_failed: "Cannot stop the hub (pid {pid}): {detail}",
  status_running: "hub: running (pid {pid}), up {uptime}",
  status_stopped: "hub: not running",
  status_heartbeat: "heartbeat: {age} ago ({time})",
  status_heartbeat_none: "heartbeat: none",
  status_control: "control API: {state}",
  status_crash: "last crash: {time} (pid {pid}): {reason}",
  status_crash_none: "last crash: none",
  status_launchd: "launchd: {state}",
  launchd_na: "not used on {os}",
  launchd_loaded: "loaded ({label})",
  launchd_installed: "installed, not loaded ({label})",
  launchd_absent: "not installed",
  crash_unclean: "the hub (pid {pid}) ended without a clean shutdown; last heartbeat {time}",
  macos_only:
    "`agent hub {command}` is for macOS (launchd). On Linux, use `agent hub systemd-unit` to get a systemd unit.",
  installed: "Installed and started launchd agent {label} ({file}).",
  uninstalled: "Removed launchd agent {label}.",
  uninstall_none: "No launchd agent {label} is installed.",
  no_gui: "Cannot install the launchd agent: no graphical login session (gui/{uid}) is available.",
  launchctl_failed: "launchctl failed: {detail}",
  answers: "answers on 127.0.0.1:{port}",
  status_net:
    "network: {state} over {link}; {rings} rings, {reconnects} reconnects, {handled} handled",
  status_net_idle: "network: not configured ({detail})",
  status_net_missing: "network: not configured (missing {missing})",
  status_net_failed: "network: failed ({detail})",
  status_messenger: "messenger: {state} ({mode}); last update {time}; last error: {error}",
  messenger_connected: "connected",
  messenger_conflict: "not connected: another process polls this bot",
  messenger_failed: "not connected: the Bot API refused the token",
  messenger_starting: "starting",
  messenger_stopped: "stopped",
  messenger_never: "none yet",
  messenger_no_error: "none",
  no_answer: "no answer on 127.0.0.1:{port}",
} as const;

/** A key of the hub daemon's sentences. */
export type HubMessageKey = keyof typeof EN;

/** Sentences of the hub daemon commands. */
export const t: Translator<HubMessageKey> = catalogue(EN, {
  already_running: "hub zaten çalışıyor (pid {pid})... önce `agent hub stop` ile durdurun.",
  read_only:
    "Hub başlatılamıyor: {dir} yazılamıyor (salt okunur bir ev dizini) ve hub durumunu orada tutar; dizini yazılabilir yapın ya da hub'ı sahibi olarak çalıştırın.",
  read_only_chat:
    "{command} başlatılamıyor: {dir} yazılamıyor (salt okunur bir ev dizini) ve {command} oturumlarını orada tutar; dizini yazılabilir yapın ya da ev dizininin sahibi olarak çalıştırın. `agent spend` ve `agent doctor` yalnızca okur ve burada çalışır.",
  started:
    "hub çalışıyor (pid {pid}); kontrol API'si http://127.0.0.1:{port} adresinde. Ctrl-C durdurur.",
  stopping: "hub duruyor ({why}).",
  stopped_clean: "hub durdu.",
  port_busy:
    "hub başlatılamıyor: 127.0.0.1 üzerindeki {port} portu kullanımda; agent.toml içinde [hub] port ayarlayın.",
  not_running: "hub çalışmıyor.",
  stop_sent: "Durdurma sinyali gönderildi (pid {pid}).",
  stop_timeout: "hub {seconds} sn içinde durmadı.",
  stop_failed: "hub durdurulamadı (pid {pid}): {detail}",
  status_running: "hub: çalışıyor (pid {pid}), {uptime} süredir",
  status_stopped: "hub: çalışmıyor",
  status_heartbeat: "nabız: {age} önce ({time})",
  status_heartbeat_none: "nabız: yok",
  status_control: "kontrol API'si: {state}",
  status_crash: "son çökme: {time} (pid {pid}): {reason}",
  status_crash_none: "son çökme: yok",
  status_launchd: "launchd: {state}",
  launchd_na: "{os} üzerinde kullanılmıyor",
  launchd_loaded: "yüklü ({label})",
  launchd_installed: "kurulu, yüklü değil ({label})",
  launchd_absent: "kurulu değil",
  crash_unclean: "hub (pid {pid}) temiz kapanmadan sona erdi; son nabız {time}",
  macos_only:
    "`agent hub {command}` macOS (launchd) içindir. Linux'ta systemd birimi için `agent hub systemd-unit` kullanın.",
  installed: "launchd ajanı {label} kuruldu ve başlatıldı ({file}).",
  uninstalled: "launchd ajanı {label} kaldırıldı.",
  uninstall_none: "Kurulu bir launchd ajanı {label} yok.",
  no_gui: "launchd ajanı kurulamıyor: grafik oturum (gui/{uid}) yok.",
  launchctl_failed: "launchctl başarısız: {detail}",
  answers: "127.0.0.1:{port} üzerinde yanıt veriyor",
  status_net:
    "ağ: {state}, {link} üzerinden; {rings} zil, {reconnects} yeniden bağlanma, {handled} işlenen",
  status_net_idle: "ağ: yapılandırılmamış ({detail})",
  status_net_missing: "ağ: yapılandırılmamış ({missing} eksik)",
  status_net_failed: "ağ: başarısız ({detail})",
  status_messenger: "mesajlaşma: {state} ({mode}); son güncelleme {time}; son hata: {error}",
  messenger_connected: "bağlı",
  messenger_conflict: "bağlı değil: bu botu başka bir süreç yokluyor",
  messenger_failed: "bağlı değil: Bot API jetonu reddetti",
  messenger_starting: "başlıyor",
  messenger_stopped: "durdu",
  messenger_never: "henüz yok",
  messenger_no_error: "yok",
  no_answer: "127.0.0.1:{port} üzerinde yanıt yok",
});
