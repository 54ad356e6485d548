/**
 * Sentences of configuration errors. The `en` texts the spec names are exact.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for configuration errors. */
export const t = catalogue({
  budget_period: "{file}: [models.roles.{role}] 'budget' needs 'period', one of day, week, month.",
  stand_in_loop:
    "{file}: [models.roles.{role}] stand-ins loop: {path} (budget.degrade_to and failover together).",
  not_found: "{file}: not found at {path}; run 'agent init' to create it.",
  no_home:
    "The agent's home {home} does not exist; check --home (or AGENT_HOME) for a typo, or run 'agent --home {home} init' to create it.",
  unreadable: "{file}: cannot be read: {detail}.",
  toml: "{file}: not valid TOML at line {line}, column {column}: {detail}.",
  unknown_key: "{file}: {table} has an unknown key '{key}'.",
  unknown_top: "{file}: unknown table or key '{key}'.",
  did_you_mean: " Did you mean '{suggestion}'?",
  known_keys: " It takes: {keys}.",
  missing: "{file}: {table} needs '{key}'.",
  type: "{file}: {table} '{key}' must be {expected}.",
  one_of: "{file}: {table} '{key}' must be one of {values}.",
  positive: "{file}: {table} '{key}' must be a positive number.",
  nonneg: "{file}: {table} '{key}' must be 0 or more.",
  fraction: "{file}: {table} '{key}' must be a number from 0 to 1.",
  positive_int: "{file}: {table} '{key}' must be a whole number of 1 or more.",
  nonneg_int: "{file}: {table} '{key}' must be a whole number of 0 or more.",
  range_int: "{file}: {table} '{key}' must be a whole number from {min} to {max}.",
  not_empty: "{file}: {table} '{key}' must not be empty.",
  too_long: "{file}: {table} '{key}' must have at most {max} characters.",
  global_prefix:
    "{file}: {table} 'model_id' for vendor-d must be a global inference profile id starting with 'global.'.",
  unknown_role: "{file}: {table} '{key}' names '{name}', which is not a role in [models.roles].",
  no_roles:
    "{file}: [models.roles] has no role, so nothing can answer; add one (`agent init --force` writes a working file).",
  search_url:
    "{file}: [tools.search] needs 'url' for provider {provider} (the address of its search endpoint).",
  http_url: "{file}: {table} '{key}' must be an http:// or https:// address.",
  mcp_command_or_url: "{file}: {table} needs either 'command' (a stdio server) or 'url', not both.",
  mcp_agent_variable:
    "{file}: {table} 'env' names {name}, one of the agent's own variables; a server never receives those.",
  server_name:
    "{file}: [mcp.servers] '{key}' is not a server name: lowercase letters, digits, '_' and '-', starting with a letter, at most 32.",
  email_address:
    "{file}: [email] '{key}' has '{value}', which is not an e-mail address such as name@example.com.",
  email_self:
    "{file}: [email] 'owner' is the agent's own 'address'; the agent would answer its own mail.",
  email_tls_none:
    '{file}: [email] tls = "none" sends the password in the clear, so it is accepted for a server on this machine only, and \'{key}\' is \'{host}\'; use "starttls" or "implicit".',
  email_authserv:
    "{file}: [email] needs 'authserv_id', the name your mail server writes in its Authentication-Results headers (or trust_from = true for a private server you run).",
  email_done_folder: "{file}: [email] 'done_folder' must differ from 'folder'.",
  a_string: "a string",
  a_number: "a number",
  a_boolean: "true or false",
  a_table: "a table",
  a_list_of_strings: "a list of strings",
  a_list_of_ids: "a list of chat ids",
}, {
  budget_period:
    "{file}: [models.roles.{role}] 'budget' için 'period' gerekli: day, week veya month.",
  stand_in_loop:
    "{file}: [models.roles.{role}] yedekler döngüye giriyor: {path} (budget.degrade_to ve failover birlikte).",
  not_found: "{file}: {path} konumunda yok; oluşturmak için 'agent init' çalıştırın.",
  no_home:
    "Ajanın ana dizini {home} yok; --home (ya da AGENT_HOME) değerinde yazım hatası var mı bakın ya da oluşturmak için 'agent --home {home} init' çalıştırın.",
  unreadable: "{file}: okunamıyor: {detail}.",
  toml: "{file}: {line}. satır, {column}. sütunda geçerli TOML değil: {detail}.",
  unknown_key: "{file}: {table} bilinmeyen bir anahtar içeriyor: '{key}'.",
  unknown_top: "{file}: bilinmeyen tablo veya anahtar '{key}'.",
  did_you_mean: " '{suggestion}' mi demek istediniz?",
  known_keys: " Aldığı anahtarlar: {keys}.",
  missing: "{file}: {table} için '{key}' gerekli.",
  type: "{file}: {table} '{key}' {expected} olmalı.",
  one_of: "{file}: {table} '{key}' şunlardan biri olmalı: {values}.",
  positive: "{file}: {table} '{key}' pozitif bir sayı olmalı.",
  nonneg: "{file}: {table} '{key}' 0 veya daha büyük olmalı.",
  fraction: "{file}: {table} '{key}' 0 ile 1 arasında bir sayı olmalı.",
  positive_int: "{file}: {table} '{key}' 1 veya daha büyük bir tam sayı olmalı.",
  nonneg_int: "{file}: {table} '{key}' 0 veya daha büyük bir tam sayı olmalı.",
  range_int: "{file}: {table} '{key}' {min} ile {max} arasında bir tam sayı olmalı.",
  not_empty: "{file}: {table} '{key}' boş olmamalı.",
  too_long: "{file}: {table} '{key}' en çok {max} karakter olmalı.",
  global_prefix:
    "{file}: {table} vendor-d için 'model_id', 'global.' ile başlayan bir küresel çıkarım profili kimliği olmalı.",
  unknown_role:
    "{file}: {table} '{key}' '{name}' adını veriyor, ama [models.roles] içinde böyle bir rol yok.",
  no_roles:
    "{file}: [models.roles] içinde hiç rol yok, bu yüzden hiçbir şey yanıt veremez; bir rol ekleyin (`agent init --force` çalışan bir dosya yazar).",
  search_url:
    "{file}: [tools.search] {provider} sağlayıcısı için 'url' gerekli (arama adresinin kendisi).",
  http_url: "{file}: {table} '{key}' bir http:// veya https:// adresi olmalı.",
  mcp_command_or_url:
    "{file}: {table} için ya 'command' (stdio sunucusu) ya da 'url' gerekli, ikisi birden değil.",
  mcp_agent_variable:
    "{file}: {table} 'env' ajanın kendi değişkenlerinden {name} adını veriyor; bir sunucu bunları asla almaz.",
  server_name:
    "{file}: [mcp.servers] '{key}' bir sunucu adı değil: küçük harf, rakam, '_' ve '-', harfle başlayan, en çok 32 karakter.",
  email_address:
    "{file}: [email] '{key}' içindeki '{value}' bir e-posta adresi değil (ad@example.com gibi olmalı).",
  email_self:
    "{file}: [email] 'owner' ajanın kendi 'address' değeri; ajan kendi postasını yanıtlardı.",
  email_tls_none:
    '{file}: [email] tls = "none" parolayı açık metin gönderir, bu yüzden yalnızca bu makinedeki bir sunucu için kabul edilir; \'{key}\' ise \'{host}\'; "starttls" ya da "implicit" kullanın.',
  email_authserv:
    "{file}: [email] için 'authserv_id' gerekli: posta sunucunuzun Authentication-Results başlıklarına yazdığı ad (ya da kendi çalıştırdığınız özel bir sunucu için trust_from = true).",
  email_done_folder: "{file}: [email] 'done_folder', 'folder' ile aynı olmamalı.",
  a_string: "bir metin",
  a_number: "bir sayı",
  a_boolean: "true veya false",
  a_table: "bir tablo",
  a_list_of_strings: "bir metin listesi",
  a_list_of_ids: "bir sohbet kimliği listesi",
});
