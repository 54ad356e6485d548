/**
 * The desk's sentences in English and Turkish: what every channel shows for slash
 * commands, sessions, queued messages, approvals and cancelled answers, so the
 * terminal chat, the TUI and the messenger say the same thing.
 *
 * @module
 */
import { catalogue, type Translator } from "../i18n.ts";

/** The desk's sentences in English: the catalogue every language follows. */
export const EN = {
  help_title: "Commands:",
  help_line: "  {usage} · {summary}",
  cmd_new: "start a new conversation",
  cmd_resume: "list conversations, or go back to one",
  cmd_model: "list roles, or switch to one",
  cmd_status: "session, role and budget",
  cmd_settings: "which keys are set (set one in a terminal)",
  cmd_help: "the commands",
  cmd_quit: "leave",
  cmd_start: "what this is",
  cmd_stop: "stop the answer being written",
  cmd_jobs: "scheduled jobs; pause or resume them all (or one)",
  jobs_usage: "Usage: /jobs, /jobs pause [NAME], /jobs resume [NAME].",
  stop_none: "Nothing is being answered now.",
  start:
    "This is your agent, running on your own machine or cloud account. Write to it here as in a terminal chat: it answers with the role it is set to, within your budgets. /help lists the commands.",
  header:
    "agent chat · session {session} · role {role} ({provider} {model}). /help lists commands; /quit or Ctrl-D leaves.",
  resumed: "Resumed session {session} ({count} messages).",
  unknown_command: "Unknown command {command}. /help lists the commands.",
  unknown_role: "There is no role '{role}' in agent.toml.",
  role_now: "Role {role} ({provider} {model}) answers from now on.",
  roles_title: "Roles (current: {role}):",
  role_line: "  {mark} {role}: {provider} {model}",
  sessions_title: "Recent sessions:",
  session_line: "  {session} · {time} · {count} messages · {title}",
  session_choice: "{title} · {count} · {when}",
  session_untitled: "(untitled)",
  session_messages_one: "1 message",
  session_messages_many: "{n} messages",
  session_today: "today {time}",
  session_yesterday: "yesterday {time}",
  no_sessions: "No earlier sessions.",
  session_now: "Session {session} ({count} messages).",
  new_session: "New conversation {session}.",
  unknown_session: "Unknown session: {session}.",
  invalid_session:
    "Invalid session id '{session}': use letters, digits, '.', '_' or '-' (at most 128, starting with a letter or digit).",
  no_resume: "No earlier session with messages; starting session {session}.",
  status:
    "Session {session} · {count} messages · role {role} ({provider} {model}) · language {lang} · profile {profile}",
  settings_title: "Credentials (values are never shown):",
  setting_line: "  {name}: {state}",
  setting_set: "set",
  setting_missing: "missing",
  setting_optional: "not set (optional)",
  settings_hint: "Set one with /settings set NAME; it is written to {file} (mode 0600).",
  settings_elsewhere:
    "Keys are set on the machine, not here: run `agent tui` or `agent chat` there and use /settings, or edit {file}.",
  settings_bad_name: "'{name}' is not a variable name: use capital letters, digits and '_'.",
  settings_prompt: "Value for {name} (hidden)",
  settings_saved: "{name} saved to {file}.",
  settings_empty: "Nothing entered; {name} is unchanged.",
  settings_no_terminal:
    "/settings set needs a terminal to take {name} unseen; nothing was written. Run chat in a terminal, or edit {file}.",
  cancelled: "(answer cancelled)",
  tool_call: "[{tool}]",
  queued: "(queued: answered after the current answer)",
  queued_many: "(queued: answered after the current answer and {before} more)",
  approve_generic: "The agent wants to run the tool {tool}.",
  approve_question: "{message} Allow?",
  internal: "Something went wrong while answering: {detail}",
  approval_expired: "No answer in time: {tool} was denied.",
  refused: "✗ {tool} did not run: {reason}",
  refused_no_one_to_ask: "no one could approve it",
  refused_denied: "it was denied",
  refused_expired: "no one answered in time",
  refused_cancelled: "the answer was cancelled",
  history_title: "Earlier in this session:",
  history_more: "({count} earlier messages not shown)",
} as const;

/** A sentence of the desk's catalogue. */
export type DeskSentence = keyof typeof EN;

/** The desk's catalogue. */
export const t: Translator<DeskSentence> = catalogue(EN, {
  help_title: "Komutlar:",
  help_line: "  {usage} · {summary}",
  cmd_new: "yeni bir konuşma başlatır",
  cmd_resume: "konuşmaları listeler ya da birine döner",
  cmd_model: "rolleri listeler ya da birine geçer",
  cmd_status: "oturum, rol ve bütçe",
  cmd_settings: "hangi anahtarlar ayarlı (birini terminalde ayarlayın)",
  cmd_help: "komutlar",
  cmd_quit: "çıkar",
  cmd_start: "bu nedir",
  cmd_stop: "yazılmakta olan yanıtı durdurur",
  cmd_jobs: "zamanlanmış görevler; hepsini (ya da birini) duraklatır veya sürdürür",
  jobs_usage: "Kullanım: /jobs, /jobs pause [AD], /jobs resume [AD].",
  stop_none: "Şu an yanıtlanan bir şey yok.",
  start:
    "Bu, kendi makinenizde ya da bulut hesabınızda çalışan ajanınız. Ona burada terminaldeki gibi yazın: ayarlı rolle, bütçeleriniz içinde yanıtlar. /help komutları listeler.",
  header:
    "agent chat · oturum {session} · rol {role} ({provider} {model}). Komutlar için /help; çıkmak için /quit ya da Ctrl-D.",
  resumed: "{session} oturumu sürdürülüyor ({count} mesaj).",
  unknown_command: "Bilinmeyen komut {command}. Komutlar için /help.",
  unknown_role: "agent.toml içinde '{role}' adında bir rol yok.",
  role_now: "Bundan sonra {role} ({provider} {model}) yanıtlıyor.",
  roles_title: "Roller (şu anki: {role}):",
  role_line: "  {mark} {role}: {provider} {model}",
  sessions_title: "Son oturumlar:",
  session_line: "  {session} · {time} · {count} mesaj · {title}",
  session_choice: "{title} · {count} · {when}",
  session_untitled: "(başlıksız)",
  session_messages_one: "1 mesaj",
  session_messages_many: "{n} mesaj",
  session_today: "bugün {time}",
  session_yesterday: "dün {time}",
  no_sessions: "Daha önce oturum yok.",
  session_now: "{session} oturumu ({count} mesaj).",
  new_session: "Yeni konuşma {session}.",
  unknown_session: "Bilinmeyen oturum: {session}.",
  invalid_session:
    "Geçersiz oturum kimliği '{session}': harf, rakam, '.', '_' ya da '-' kullanın (en çok 128, harf ya da rakamla başlayan).",
  no_resume: "Mesajı olan önceki oturum yok; {session} oturumu başlıyor.",
  status:
    "Oturum {session} · {count} mesaj · rol {role} ({provider} {model}) · dil {lang} · profil {profile}",
  settings_title: "Kimlik bilgileri (değerler hiç gösterilmez):",
  setting_line: "  {name}: {state}",
  setting_set: "ayarlı",
  setting_missing: "eksik",
  setting_optional: "ayarlı değil (isteğe bağlı)",
  settings_hint: "/settings set AD ile ayarlayın; {file} dosyasına yazılır (mod 0600).",
  settings_elsewhere:
    "Anahtarlar burada değil, makinede ayarlanır: orada `agent tui` ya da `agent chat` çalıştırıp /settings kullanın ya da {file} dosyasını düzenleyin.",
  settings_bad_name: "'{name}' bir değişken adı değil: büyük harf, rakam ve '_' kullanın.",
  settings_prompt: "{name} değeri (gizli)",
  settings_saved: "{name}, {file} dosyasına kaydedildi.",
  settings_empty: "Bir şey girilmedi; {name} değişmedi.",
  settings_no_terminal:
    "/settings set, {name} değerini gizli almak için bir terminal ister; hiçbir şey yazılmadı. Sohbeti bir terminalde çalıştırın ya da {file} dosyasını düzenleyin.",
  cancelled: "(yanıt iptal edildi)",
  tool_call: "[{tool}]",
  queued: "(sıraya alındı: şu anki yanıttan sonra yanıtlanacak)",
  queued_many: "(sıraya alındı: şu anki yanıttan ve {before} mesajdan sonra yanıtlanacak)",
  approve_generic: "Ajan {tool} aracını çalıştırmak istiyor.",
  approve_question: "{message} İzin veriyor musunuz?",
  internal: "Yanıtlanırken bir sorun çıktı: {detail}",
  approval_expired: "Zamanında yanıt gelmedi: {tool} reddedildi.",
  refused: "✗ {tool} çalışmadı: {reason}",
  refused_no_one_to_ask: "onaylayabilecek kimse yoktu",
  refused_denied: "reddedildi",
  refused_expired: "zamanında yanıt gelmedi",
  refused_cancelled: "yanıt iptal edildi",
  history_title: "Bu oturumda daha önce:",
  history_more: "(gösterilmeyen {count} önceki mesaj)",
});
