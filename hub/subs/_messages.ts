/**
 * Sentences about sub-agent definitions, in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The sub-agent catalogue. */
export const t = catalogue({
  unclosed_front_matter: "the front matter has no closing --- line",
  bad_line: "line {line} of the front matter is not 'key: value'",
  unknown_key: "unknown key '{key}' (keys: about, role, public, public_note)",
  duplicate_key: "'{key}' is set twice",
  bad_public: "public must be true or false, not '{value}'",
  bad_note_name: "public_note '{value}' must name a .md file directly in persona/subs/",
  bad_role: "role '{value}' is not a role name",
  bad_name: "the file name must be <name>.md with a name matching ^[a-z][a-z0-9-]{1,30}$",
  unknown_role: "role '{role}' is not defined in agent.toml",
  note_missing: "its public note {file} does not exist",
  user_md_persona: "its persona is persona/user.md, which never goes to other agents",
  user_md_note: "its public note is persona/user.md, which never goes to other agents",
  unreadable: "it cannot be read ({detail})",
  invalid_line: "{file}: {problem}; it answers no one.",
  summary: "public: {public}; private: {private}.",
  none: "none",
}, {
  unclosed_front_matter: "ön bilgi bloğunun kapanış --- satırı yok",
  bad_line: "ön bilgi bloğunun {line}. satırı 'anahtar: değer' biçiminde değil",
  unknown_key: "bilinmeyen anahtar '{key}' (anahtarlar: about, role, public, public_note)",
  duplicate_key: "'{key}' iki kez verilmiş",
  bad_public: "public true ya da false olmalı, '{value}' değil",
  bad_note_name: "public_note '{value}' doğrudan persona/subs/ içindeki bir .md dosyası olmalı",
  bad_role: "role '{value}' geçerli bir rol adı değil",
  bad_name: "dosya adı <ad>.md olmalı ve ad ^[a-z][a-z0-9-]{1,30}$ kalıbına uymalı",
  unknown_role: "'{role}' rolü agent.toml içinde tanımlı değil",
  note_missing: "herkese açık notu {file} yok",
  user_md_persona: "kişiliği persona/user.md; bu dosya başka ajanlara asla gitmez",
  user_md_note: "herkese açık notu persona/user.md; bu dosya başka ajanlara asla gitmez",
  unreadable: "okunamıyor ({detail})",
  invalid_line: "{file}: {problem}; kimseye yanıt vermez.",
  summary: "herkese açık: {public}; özel: {private}.",
  none: "yok",
});
