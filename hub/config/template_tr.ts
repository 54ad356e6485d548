/**
 * The Turkish `agent.toml` and `.env.example` (issue 39 F11): `agent init --language tr`
 * writes these, so a Turkish home reads Turkish from its first file. Only the comments
 * differ from the English ones (`template.ts`, `setup_files.ts`); a test checks that
 * every other line is the same.
 *
 * @module
 */

/** `agent.toml` with Turkish comments. */
export const CONFIG_TEMPLATE_TR = `# agent.toml: ajanın yapılandırması.
# Anahtarlar (API anahtarları, belirteçler) buraya yazılmaz: bu dosyanın yanındaki
# .env dosyasında durur (mod 0600); .env.example değişken adlarını listeler.
# 'agent doctor' bu dosyayı denetler, 'agent spend' her rolün harcadığını gösterir.

[ui]
# Ajanın gösterdiği her cümlenin dili: "en" ya da "tr".
# --lang ve AGENT_LANG bunun önüne geçer.
lang = "en"

# ---------------------------------------------------------------------------
# Model rolleri. Kod hiçbir zaman bir model adı vermez; bir rol ister. Her rol,
# kendisine hangi sağlayıcının ve hangi model kimliğinin hizmet ettiğini söyler.
#   provider    vendor-a, vendor-b, vendor-c, vendor-d, local-runtime ya da fake
#   model_id    o sağlayıcıdaki model kimliği (vendor-d: converse biçiminde bir
#               "global." çıkarım profili kimliği)
#   max_tokens  token olarak en uzun yanıt
#   context_tokens  bir turun en çok gönderdiği geçmiş (tahmini token); eski
#               turlar fast rolünün yazdığı bir özete katlanır, konuşmanın
#               tamamı diskte ve /resume içinde kalır
#   params      isteğe bağlı: base_url (başka bir API adresi), api_key_env
#               (anahtarı tutan başka bir değişken), reasoning_effort, region
#               (vendor-d), replies (fake: sırayla yanıtlar), word_ms (fake:
#               akıtılan sözcükler arasındaki bekleme)
#   budget      dönem başına usd (day, week ya da month; takvim dönemleri
#               Europe/Istanbul saatine göre) ve isteğe bağlı olarak degrade_to,
#               bütçe bitince sıfırlanana dek yanıt veren rol, ve warn_at,
#               bir kez uyarıldığınız tavan payı (varsayılan 0.8; 0 uyarıyı
#               kapatır)
#   failover    bu rolün modeline ulaşılamadığında yanıt veren rol
#   fallback    bu rolün sağlayıcısının kimlik bilgisi yokken kullanılan
#               { provider, model_id, ... }
#   cache       istem önbelleği (vendor-a, vendor-d): system, messages (true ya
#               da false) ve ttl ("5m" ya da "1h")
# Yedekler (degrade_to, failover) başladıkları role geri götürmemelidir.
# Değişen bir tavanı hub, sohbet ve TUI başlarken okur; harcamayı hiç sıfırlamaz.
# ---------------------------------------------------------------------------

# Konuşma ve planlama; sohbet ve TUI bununla başlar.
[models.roles.brain]
provider = "vendor-a"
model_id = "claude-sonnet-5-5"
max_tokens = 4096
context_tokens = 32000

[models.roles.brain.budget]
usd = 15
period = "month"
degrade_to = "fast"

# Ayıklama ve özetler.
[models.roles.fast]
provider = "vendor-a"
model_id = "claude-haiku-5-5"
max_tokens = 1024
context_tokens = 16000

[models.roles.fast.budget]
usd = 1
period = "day"

# Bellek: bir konuşma sessizleştiğinde neyin hatırlanacağını önerir (aşağıdaki
# memory tablosuna bakın), kendi küçük bütçesiyle. hard = true: sınırı aşabilecek
# bir çağrı yapılmaz, bellek bundan fazlasına asla mal olmaz.
[models.roles.memory]
provider = "vendor-a"
model_id = "claude-haiku-5-5"
max_tokens = 1024

[models.roles.memory.budget]
usd = 0.5
period = "day"
hard = true

# Yerel bir model sunucusundaki model (ücretsiz). Sunucunun adresi params.base_url,
# yoksa AGENT_LOCAL_RUNTIME_URL, yoksa http://127.0.0.1:11434. Sunucuya
# ulaşılamadığında yerine fast yanıt verir.
[models.roles.local]
provider = "local-runtime"
model_id = "qwen3:4b"
max_tokens = 1024
context_tokens = 8000
failover = "fast"

[models.roles.local.params]
reasoning_effort = "none"

# ---------------------------------------------------------------------------
# Milyon token başına dolar olarak fiyatlar. Gelen tablo, gelen modelleri kapsar;
# buradaki bir fiyat onun önüne geçer. cache_read ve cache_write (5 dakikalık
# yazma) varsayılan olarak input, cache_write_1h (1 saatlik yazma) cache_write
# olur. Fiyatı olmayan bir model $0 sayılır, dolayısıyla onun bütçesine hiç
# ulaşılmaz.
# ---------------------------------------------------------------------------
# [models.prices."my-model-id"]
# input = 1.0
# output = 5.0
# cache_read = 0.1
# cache_write = 1.25
# cache_write_1h = 2.0

[sessions]
# Sohbet oturumlarının tutulduğu yer: "file" (veri dizininin altında) ya da
# "spine" (bulut kipi).
backend = "file"

[messenger]
# Ajanla konuşabilecek sohbet kimlikleri; .env içindeki MESSENGER_ALLOWED_CHAT_IDS
# ayarlıysa o geçerlidir. Kanal, .env içinde MESSENGER_BOT_TOKEN varken çalışır.
allowed_chat_ids = []
# "polling" (hub, Bot API'den güncellemeleri ister) ya da "webhook" (bulut kipi:
# onları spine alır; MESSENGER_WEBHOOK_SECRET her birini denetler).
mode = "polling"
# 2. kademe bir araç Onayla ya da Reddet için bu kadar bekler, sonra reddedilmiş
# sayılır.
approval_timeout_seconds = 600

# E-posta kanalı: ajan kendi posta kutusunu IMAP ile okur ve SMTP ile yanıtlar;
# yalnızca size ve izin verdiğiniz gönderenlere, yalnızca posta sunucunuz
# gönderene kefil olduğunda (Authentication-Results). EMAIL_USERNAME ve
# EMAIL_PASSWORD .env dosyasına girer; docs/email.md çalışan örnekler verir.
# [email]
# address = "agent@example.com"
# imap_host = "imap.example.com"
# smtp_host = "smtp.example.com"
# tls = "implicit"
# owner = "you@example.com"
# allowed_senders = []
# authserv_id = "mx.example.com"

[hub]
# hub'ın denetim API'sinin geri döngü portu (GET /status, GET /spend).
port = 8790

[net]
# Ajan ağı (agent net ...). name: kartta görünen ad (profilin adı önce gelir).
# name = "My agent"
# Kabul edilmiş kişilerden gelen mesajları yanıtla.
auto_reply = true
# hops + 1 bunu aşınca yanıt gönderilmez.
max_hops = 6
# Başka bir ajanın hangi yanıtları yanıtlanır: "questions" (yalnızca bir şey
# soran, böylece konuşma kendiliğinden biter) ya da "always" (max_hops'a dek).
answer_replies = "questions"
# Kişi başına saatte otomatik yanıt sayısı.
max_auto_replies_per_hour = 20
# persona/ altında, ağ turlarında user.md'nin yerini alan dosya.
public_note = "net.md"
# Ağ durumunun tutulduğu yer: "file" ya da "spine" (bulut kipi).
store = "file"
# hub'ın yeni zarfları nasıl duyduğu: "auto", "websocket" ya da "poll".
link = "auto"
# Uzun yoklamanın saniye olarak beklemesi.
poll_timeout_seconds = 25
# Evren dizininin sunucusu; boş bir dize evreni kapatır.
universe = ""
# Karşılıklı bağlantıları mesaj sayılarıyla listelenen kişilere bildir.
universe_links = true
# Evren bildirimleri arasındaki dakika (5 ile 1440 arası).
universe_report_minutes = 60
# Ajanınızın başka ajanlarla yaptığı konuşmaları nasıl duyacağınız: "batched"
# (10 dakikada en çok bir mesaj), "daily" ya da "off".
digest = "batched"

[memory]
# Ajanın konuşmalar arasında sakladıkları (agent memory list hepsini gösterir).
# Hatırlama anahtar ya da ağ olmadan çalışır: her yanıttan önce konuşmanın
# kapsamındaki en iyi eşleşmeler, bu belirteç sınırları içinde alıntı olarak eklenir.
recall_tokens = 600
pinned_tokens = 400
# Bir konuşma quiet_minutes boyunca sessiz kaldığında bellek rolü ondan anılar
# önerir: "off", "ask" (onayınızı bekler) ya da "auto" (hemen saklanır; sayfalardan,
# araçlardan ya da başka kişilerden gelenler hep onay bekler).
extract = "ask"
quiet_minutes = 10

[tools]
# fetch_url yalnızca genel adreslere ulaşır; true özel, geri döngü ve yerel bağ
# adreslerine de ulaşmasına izin verir (yerel ağınız, bu makinedeki bir hizmet).
fetch_private = false

[components]
# Ek bileşenler: modül belirteçleri (bu dizine göre yollar, file: ya da npm:
# belirteçleri), her biri bir manifest dışa aktarır.
modules = []
# Kapatılacak kurulu bileşenlerin adları.
disabled = []
`;

/** `.env.example` with Turkish comments. */
export const ENV_EXAMPLE_TR =
  `# Ajanın .env dosyasından (ya da önüne geçen ortamdan) okuduğu değişken adları.
# Bir satırı .env dosyasına (mod 0600) kopyalayıp değerini yazın; anahtarları asla
# agent.toml dosyasına koymayın. 'agent doctor', .env içinde burada listelenmeyen
# adlar için uyarır.

# vendor-a (Anthropic Messages API). Bir çalışma alanına bağlı olmayan anahtar
# VENDOR_A_WORKSPACE_ID de ister.
VENDOR_A_API_KEY=
VENDOR_A_WORKSPACE_ID=

# vendor-b (OpenAI Chat Completions API)
VENDOR_B_API_KEY=

# vendor-c (Google Gemini API): iki addan biri yeter.
VENDOR_C_API_KEY=
VENDOR_C_ALT_API_KEY=

# vendor-d (Amazon Bedrock Converse): bölge, artı bir profil, bir erişim anahtarı
# çifti (geçici anahtarlar için oturum belirteciyle) ya da bir bearer belirteci.
VENDOR_D_REGION=
VENDOR_D_PROFILE=
VENDOR_D_ACCESS_KEY_ID=
VENDOR_D_SECRET_ACCESS_KEY=
VENDOR_D_SESSION_TOKEN=
VENDOR_D_BEARER_TOKEN=

# local-runtime (yerel bir model sunucusu; varsayılan http://127.0.0.1:11434)
AGENT_LOCAL_RUNTIME_URL=

# Mesajlaşma kanalı
MESSENGER_BOT_TOKEN=
MESSENGER_ALLOWED_CHAT_IDS=
MESSENGER_API_ROOT=
MESSENGER_WEBHOOK_SECRET=

# web_search aracı (agent.toml içinde [tools.search]): sağlayıcının anahtarı
SEARCH_API_KEY=
# E-posta kanalı (agent.toml içinde [email]): posta kutusunun girişi. Kullanıcı
# adı varsayılan olarak [email] address olur.
EMAIL_USERNAME=
EMAIL_PASSWORD=

# Ajan ağı
AGENT_SPINE_URL=
AGENT_SPINE_TOKEN=
AGENT_NET_IDENTITY=
AGENT_NET_ALLOW_INSECURE=

# Bu ajan
AGENT_PROFILE=
AGENT_LANG=
AGENT_DATA_DIR=
`;
