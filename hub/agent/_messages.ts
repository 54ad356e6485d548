/**
 * Sentences of the call chain and the agent, in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The agent's catalogue. */
export const t = catalogue({
  failover_notice: "{role} is not reachable right now; {stand_in} answered instead.",
  not_reachable: "{role} is not reachable right now ({provider} {model}: {reason}).",
  not_reachable_chain:
    "{role} is not reachable right now, and neither is {stand_in}, which stands in for it ({provider} {model}: {reason}).",
  model_missing:
    "The model '{model}' is not available at {provider} ({detail}); pull it or change model_id of {role} in agent.toml.",
  model_unknown:
    "The model '{model}' is not available at {provider} ({detail}); check model_id of {role} in agent.toml against the provider's model list.",
  workspace_needed:
    "{provider} refused the key without a workspace (HTTP 400): set VENDOR_A_WORKSPACE_ID in .env.",
  auth_failed:
    "{provider} refused the credentials of {role} (HTTP {status}); check the key in .env with /settings.",
  throttled: "{provider} is throttling {role} (HTTP 429) and kept refusing after {tries} tries.",
  model_failed: "{role} ({provider} {model}) failed: {detail}",
  model_malformed:
    "{role} ({provider} {model}) answered in a format its API does not use; check base_url in agent.toml.",
  missing_credential:
    "role {role}: provider '{provider}' is missing {variable} (names are in .env.example)",
  unknown_role: "There is no role '{role}' in agent.toml.",
  chat_header:
    "agent chat · session {session} · role {role} ({provider} {model}). /help lists commands; /quit or Ctrl-D leaves.",
  chat_resumed: "Resumed session {session} ({count} messages).",
  chat_help:
    "Commands: /model [ROLE] shows or switches the role · /resume [ID] lists or opens a session · /status · /settings [set NAME] · /quit",
  chat_unknown_command: "Unknown command {command}. /help lists the commands.",
  chat_role_now: "Role {role} ({provider} {model}) answers from now on.",
  chat_roles_title: "Roles (current: {role}):",
  chat_role_line: "  {mark} {role}: {provider} {model}",
  chat_sessions_title: "Recent sessions:",
  chat_session_line: "  {session} · {time} · {count} messages · {title}",
  chat_no_sessions: "No earlier sessions.",
  chat_session_now: "Session {session} ({count} messages).",
  chat_unknown_session: "Unknown session: {session}.",
  chat_invalid_session:
    "Invalid session id '{session}': use letters, digits, '.', '_' or '-' (at most 128, starting with a letter or digit).",
  chat_status:
    "Session {session} · {count} messages · role {role} ({provider} {model}) · language {lang} · profile {profile}",
  chat_settings_title: "Credentials (values are never shown):",
  chat_setting_line: "  {name}: {state}",
  chat_setting_set: "set",
  chat_setting_missing: "missing",
  chat_settings_hint: "Set one with /settings set NAME; it is written to {file} (mode 0600).",
  chat_settings_bad_name: "'{name}' is not a variable name: use capital letters, digits and '_'.",
  chat_settings_prompt: "Value for {name} (hidden)",
  chat_settings_saved: "{name} saved to {file}.",
  chat_settings_empty: "Nothing entered; {name} is unchanged.",
  chat_settings_no_terminal:
    "/settings set needs a terminal to take {name} unseen; nothing was written. Run chat in a terminal, or edit {file}.",
  chat_cancelled: "(answer cancelled)",
  chat_approve: "Allow {tool} {args}?",
  chat_tool_call: "[{tool}]",
  chat_no_resume: "No earlier session with messages; starting session {session}.",
}, {
  failover_notice: "{role} şu an ulaşılamıyor; onun yerine {stand_in} yanıtladı.",
  not_reachable: "{role} şu an ulaşılamıyor ({provider} {model}: {reason}).",
  not_reachable_chain:
    "{role} şu an ulaşılamıyor; onun yerine geçen {stand_in} de ulaşılamıyor ({provider} {model}: {reason}).",
  model_missing:
    "'{model}' modeli {provider} üzerinde yok ({detail}); modeli indirin ya da agent.toml'da {role} rolünün model_id değerini değiştirin.",
  model_unknown:
    "'{model}' modeli {provider} üzerinde yok ({detail}); agent.toml'da {role} rolünün model_id değerini sağlayıcının model listesiyle karşılaştırın.",
  workspace_needed:
    "{provider} çalışma alanı olmayan anahtarı reddetti (HTTP 400): .env içinde VENDOR_A_WORKSPACE_ID ayarlayın.",
  auth_failed:
    "{provider}, {role} rolünün kimlik bilgilerini reddetti (HTTP {status}); .env içindeki anahtarı /settings ile kontrol edin.",
  throttled:
    "{provider}, {role} rolünü kısıtlıyor (HTTP 429) ve {tries} denemeden sonra da reddetti.",
  model_failed: "{role} ({provider} {model}) başarısız oldu: {detail}",
  model_malformed:
    "{role} ({provider} {model}) API'sinin kullanmadığı bir biçimde yanıt verdi; agent.toml içindeki base_url değerini kontrol edin.",
  missing_credential:
    "role {role}: '{provider}' sağlayıcısında {variable} eksik (adlar .env.example içinde)",
  unknown_role: "agent.toml içinde '{role}' adında bir rol yok.",
  chat_header:
    "agent chat · oturum {session} · rol {role} ({provider} {model}). Komutlar için /help; çıkmak için /quit ya da Ctrl-D.",
  chat_resumed: "{session} oturumu sürdürülüyor ({count} mesaj).",
  chat_help:
    "Komutlar: /model [ROL] rolü gösterir ya da değiştirir · /resume [KİMLİK] oturumları listeler ya da açar · /status · /settings [set AD] · /quit",
  chat_unknown_command: "Bilinmeyen komut {command}. Komutlar için /help.",
  chat_role_now: "Bundan sonra {role} ({provider} {model}) yanıtlıyor.",
  chat_roles_title: "Roller (şu anki: {role}):",
  chat_role_line: "  {mark} {role}: {provider} {model}",
  chat_sessions_title: "Son oturumlar:",
  chat_session_line: "  {session} · {time} · {count} mesaj · {title}",
  chat_no_sessions: "Daha önce oturum yok.",
  chat_session_now: "{session} oturumu ({count} mesaj).",
  chat_unknown_session: "Bilinmeyen oturum: {session}.",
  chat_invalid_session:
    "Geçersiz oturum kimliği '{session}': harf, rakam, '.', '_' ya da '-' kullanın (en çok 128, harf ya da rakamla başlayan).",
  chat_status:
    "Oturum {session} · {count} mesaj · rol {role} ({provider} {model}) · dil {lang} · profil {profile}",
  chat_settings_title: "Kimlik bilgileri (değerler hiç gösterilmez):",
  chat_setting_line: "  {name}: {state}",
  chat_setting_set: "ayarlı",
  chat_setting_missing: "eksik",
  chat_settings_hint: "/settings set AD ile ayarlayın; {file} dosyasına yazılır (mod 0600).",
  chat_settings_bad_name: "'{name}' bir değişken adı değil: büyük harf, rakam ve '_' kullanın.",
  chat_settings_prompt: "{name} değeri (gizli)",
  chat_settings_saved: "{name}, {file} dosyasına kaydedildi.",
  chat_settings_empty: "Bir şey girilmedi; {name} değişmedi.",
  chat_settings_no_terminal:
    "/settings set, {name} değerini gizli almak için bir terminal ister; hiçbir şey yazılmadı. Sohbeti bir terminalde çalıştırın ya da {file} dosyasını düzenleyin.",
  chat_cancelled: "(yanıt iptal edildi)",
  chat_approve: "{tool} {args} çalışsın mı?",
  chat_tool_call: "[{tool}]",
  chat_no_resume: "Mesajı olan önceki oturum yok; {session} oturumu başlıyor.",
});
