/**
 * Sentences of `agent doctor`. The `en` texts the spec names are exact.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for doctor lines. */
export const t = catalogue({
  config_ok: "{path} is valid ({roles} roles)",
  config_missing: "{path} not found; run 'agent init' to create it",
  role_ok: "{provider} {model}",
  role_missing: "provider '{provider}' is missing {variable} (names are in .env.example)",
  role_fallback:
    "provider '{provider}' is missing {variable}, so its fallback {fbProvider} {fbModel} answers",
  role_unpriced:
    "has a budget, but model '{id}' has no price, so its calls count as $0; add [models.prices.{key}] to agent.toml",
  roles_none: "no roles in [models.roles]; chat needs at least 'brain'",
  roles_no_brain:
    "there is no role 'brain' in [models.roles]; chat, the TUI and the messenger start on it, so they cannot start",
  sessions_file_ok: "file store at {path}",
  sessions_file_new: "file store at {path} (created on first use)",
  sessions_not_dir: "{path} exists but is not a directory",
  sessions_not_writable: "{path} cannot be written: {detail}",
  sessions_spine_ok: "spine store at {url}",
  sessions_spine_missing: "backend 'spine' needs {variable} in .env",
  sessions_no_component:
    "backend '{backend}' is not provided by any enabled agent.sessions component; see 'agent components'",
  persona_ok: "{files}",
  persona_missing: "{file} is missing; run 'agent init' to create it",
  env_missing: "{path} not found; keys you add with /settings go there (mode 0600)",
  env_example_missing: "{path} not found; run 'agent init' to create it",
  env_ok: "every name in .env ({count}) is listed in .env.example",
  env_unlisted: "names in .env that .env.example does not list: {names}",
  env_malformed: "{path}: lines that are not NAME=value and so are ignored: {lines}",
  folder_mode: "{path} has mode {mode}; other users can look in: run `chmod 700 {path}`",
  folder_not_writable:
    "{path} cannot be written ({detail}); chat, the hub and jobs keep their sessions, spend and logs there, so they cannot start",
  env_mode: "{path} has mode {mode}; run 'chmod 600 {path}' so only you can read it",
  components_ok: "{count} components, none failed to load",
  components_error: "{module} failed to load: {detail}",
  component_load_error: "{name} from {module} failed to load: {detail}",
  components_unknown: "[components] disabled names '{name}', which no component provides",
}, {
  config_ok: "{path} geçerli ({roles} rol)",
  config_missing: "{path} bulunamadı; oluşturmak için 'agent init' çalıştırın",
  role_ok: "{provider} {model}",
  role_missing: "'{provider}' sağlayıcısında {variable} eksik (adlar .env.example içinde)",
  role_fallback:
    "'{provider}' sağlayıcısında {variable} eksik, bu yüzden yedeği {fbProvider} {fbModel} yanıtlar",
  role_unpriced:
    "bir bütçesi var, ama '{id}' modelinin fiyatı yok, bu yüzden çağrıları $0 sayılır; agent.toml dosyasına [models.prices.{key}] ekleyin",
  roles_none: "[models.roles] içinde rol yok; sohbet için en az 'brain' gerekli",
  roles_no_brain:
    "[models.roles] içinde 'brain' rolü yok; sohbet, TUI ve mesajlaşma onunla başlar, bu yüzden başlayamaz",
  sessions_file_ok: "{path} konumunda dosya deposu",
  sessions_file_new: "{path} konumunda dosya deposu (ilk kullanımda oluşturulur)",
  sessions_not_dir: "{path} var ama bir dizin değil",
  sessions_not_writable: "{path} yazılamıyor: {detail}",
  sessions_spine_ok: "{url} adresinde omurga deposu",
  sessions_spine_missing: "'spine' deposu için .env içinde {variable} gerekli",
  sessions_no_component:
    "'{backend}' deposunu etkin hiçbir agent.sessions bileşeni sağlamıyor; 'agent components' komutuna bakın",
  persona_ok: "{files}",
  persona_missing: "{file} eksik; oluşturmak için 'agent init' çalıştırın",
  env_missing: "{path} bulunamadı; /settings ile eklediğiniz anahtarlar oraya yazılır (kip 0600)",
  env_example_missing: "{path} bulunamadı; oluşturmak için 'agent init' çalıştırın",
  env_ok: ".env içindeki her ad ({count}) .env.example içinde listeli",
  env_unlisted: ".env içinde olup .env.example içinde listelenmeyen adlar: {names}",
  env_malformed: "{path}: AD=değer biçiminde olmadığı için yok sayılan satırlar: {lines}",
  folder_mode:
    "{path} kipi {mode}; başka kullanıcılar içine bakabilir: `chmod 700 {path}` çalıştırın",
  folder_not_writable:
    "{path} yazılamıyor ({detail}); sohbet, hub ve işler oturumlarını, harcamalarını ve günlüklerini orada tutar, bu yüzden başlayamazlar",
  env_mode: "{path} kipi {mode}; yalnızca sizin okuyabilmeniz için 'chmod 600 {path}' çalıştırın",
  components_ok: "{count} bileşen, hiçbiri yüklenirken hata vermedi",
  components_error: "{module} yüklenemedi: {detail}",
  component_load_error: "{module} içindeki {name} yüklenemedi: {detail}",
  components_unknown: "[components] disabled, hiçbir bileşenin sağlamadığı '{name}' adını veriyor",
});
