/**
 * Sentences of the `agent` command line itself (usage errors, help texts).
 *
 * @module
 */
import { catalogue } from "@agent/hub/base";

/** Translator for the command line's own sentences. */
export const t = catalogue({
  program: "A personal agent: model roles with budgets, chat, hub and the agent network.",
  opt_help: "show help for the command",
  opt_profile: "profile name (default: AGENT_PROFILE, else home)",
  opt_home: "agent home directory (default: AGENT_HOME, else ~/.agent)",
  opt_lang: "language, en or tr (default: AGENT_LANG, else [ui] lang in agent.toml)",
  opt_verbose: "send INFO as well as WARNING log lines to stderr",
  opt_version: "print the version",
  help_command: "show help for a command",
  unknown_command: "Unknown command '{name}'; run '{usage} --help' to see the commands.",
  unknown_command_hint: "Unknown command '{name}'; did you mean '{hint}'?",
  unknown_option_hint: "Unknown option '{name}'; did you mean '{hint}'?",
  unknown_command_config:
    "Unknown command '{name}'; agent.toml, which can add commands, is invalid: {detail}",
  unknown_option: "Unknown option '{name}'; run '{usage} --help' to see the options.",
  global_after_command:
    "'{name}' is a global option and goes before the command: 'agent {name} ... {command}'.",
  missing_argument: "'{usage}' needs the argument '{name}'.",
  option_missing_argument: "The option '{name}' needs a value.",
  excess_arguments: "'{usage}' takes no more arguments than it lists in '{usage} --help'.",
  no_arguments: "'{usage}' takes no arguments; run '{usage} --help' to see its options.",
  at_most_arguments: "'{usage}' takes at most {max} arguments; run '{usage} --help' to see them.",
  conflicting_option: "The options '{name}' cannot be used together.",
  bad_lang: "Unknown language '{value}'; use en or tr.",
  no_command: "Name a command; run 'agent --help' to see them.",
  no_subcommand: "'{usage}' needs a subcommand; run '{usage} --help' to see them.",
  usage_generic: "Wrong usage of '{usage}': {detail}.",
  unexpected: "The command failed: {detail}",
  component_command_failed: "The command '{name}' from {module} could not be loaded: {detail}",
  command_configure_failed: "The command '{name}' could not declare its options: {detail}",
  heading_usage: "Usage:",
  heading_options: "Options:",
  heading_commands: "Commands:",
  heading_arguments: "Arguments:",
  heading_global: "Global Options:",
}, {
  program: "Kişisel bir ajan: bütçeli model rolleri, sohbet, merkez ve ajan ağı.",
  opt_help: "komutun yardımını gösterir",
  opt_profile: "profil adı (varsayılan: AGENT_PROFILE, yoksa home)",
  opt_home: "ajanın ana dizini (varsayılan: AGENT_HOME, yoksa ~/.agent)",
  opt_lang: "dil, en veya tr (varsayılan: AGENT_LANG, yoksa agent.toml içindeki [ui] lang)",
  opt_verbose: "WARNING'in yanında INFO günlük satırlarını da stderr'e yazar",
  opt_version: "sürümü yazdırır",
  help_command: "bir komutun yardımını gösterir",
  unknown_command: "Bilinmeyen komut '{name}'; komutları görmek için '{usage} --help' çalıştırın.",
  unknown_command_hint: "Bilinmeyen komut '{name}'; '{hint}' mi demek istediniz?",
  unknown_option_hint: "Bilinmeyen seçenek '{name}'; '{hint}' mi demek istediniz?",
  unknown_command_config:
    "Bilinmeyen komut '{name}'; komut ekleyebilen agent.toml geçersiz: {detail}",
  unknown_option:
    "Bilinmeyen seçenek '{name}'; seçenekleri görmek için '{usage} --help' çalıştırın.",
  global_after_command:
    "'{name}' genel bir seçenektir ve komuttan önce gelir: 'agent {name} ... {command}'.",
  missing_argument: "'{usage}' için '{name}' bağımsız değişkeni gerekli.",
  option_missing_argument: "'{name}' seçeneği bir değer ister.",
  excess_arguments:
    "'{usage}', '{usage} --help' içinde listelediğinden fazla bağımsız değişken almaz.",
  no_arguments:
    "'{usage}' bağımsız değişken almaz; seçeneklerini görmek için '{usage} --help' çalıştırın.",
  at_most_arguments:
    "'{usage}' en çok {max} bağımsız değişken alır; görmek için '{usage} --help' çalıştırın.",
  conflicting_option: "'{name}' seçenekleri birlikte kullanılamaz.",
  bad_lang: "Bilinmeyen dil '{value}'; en veya tr kullanın.",
  no_command: "Bir komut belirtin; komutları görmek için 'agent --help' çalıştırın.",
  no_subcommand: "'{usage}' bir alt komut ister; görmek için '{usage} --help' çalıştırın.",
  usage_generic: "'{usage}' yanlış kullanıldı: {detail}.",
  unexpected: "Komut başarısız oldu: {detail}",
  component_command_failed: "{module} içindeki '{name}' komutu yüklenemedi: {detail}",
  command_configure_failed: "'{name}' komutu seçeneklerini tanımlayamadı: {detail}",
  heading_usage: "Kullanım:",
  heading_options: "Seçenekler:",
  heading_commands: "Komutlar:",
  heading_arguments: "Bağımsız değişkenler:",
  heading_global: "Genel seçenekler:",
});

/**
 * The placeholders `--help` shows (`[options]`, `<name>`, `[command...]`), by the word
 * inside them; a word not listed here is shown as it is declared.
 */
export const PLACEHOLDERS = {
  en: {} as Record<string, string>,
  tr: {
    options: "seçenekler",
    command: "komut",
    name: "ad",
    dir: "dizin",
    address: "adres",
    text: "metin",
    host: "sunucu",
    what: "ne",
    usd: "usd",
    role: "rol",
    lang: "dil",
    id: "kimlik",
    ids: "kimlikler",
    tool: "araç",
    json: "json",
    where: "nereye",
    url: "url",
    tz: "saat-dilimi",
    tools: "araçlar",
    target: "hedef",
    seconds: "saniye",
    period: "dönem",
    path: "yol",
    file: "dosya",
    expr: "ifade",
    count: "sayı",
  } as Record<string, string>,
};
