import { catalogue } from "@agent/hub/base";

/** Sentences of `agent net spine ...`. */
export const t = catalogue({
  h_spine: "Put this agent's spine on the edge platform: write a project, deploy it.",
  h_spine_init: "Write a spine project into DIR (a new or empty directory).",
  h_spine_deploy: "Deploy the spine project in DIR and write AGENT_SPINE_URL/TOKEN to .env.",
  h_address: "the spine's host (a custom domain, or a *.workers.dev host)",
  h_ip_id: "rate-limit namespace id counting envelopes per client IP (default 10501)",
  h_sender_id: "rate-limit namespace id counting envelopes per sender (default 10502)",
  h_cloud:
    "cloud mode: the relational store DB, the brain container (Dockerfile) and AGENT_MODE=cloud",
  h_bundle:
    "with --cloud: the agent.js the brain's image copies (default: this agent's own, bundled when it runs from source)",
  bundle_needs_cloud: "--bundle is for a cloud project: add --cloud.",
  bundle_compiled:
    "A compiled agent cannot make the brain's agent.js: pass --bundle FILE with the agent.js of the same release.",
  bundle_not_found: "The bundle {file} does not exist.",
  bundle_not_a_file: "The bundle {file} is not a file.",
  bundle_empty: "The bundle {file} is empty.",
  bundle_bundle_failed: "Cannot bundle the agent for the brain: {detail}",
  need_dir: "`agent net spine {action}` needs a directory: `agent net spine {action} DIR`.",
  unknown_action: "Unknown spine command '{action}'; use `init` or `deploy`.",
  not_empty: "{dir} is not empty; choose a new or empty directory.",
  not_directory: "{dir} is not a directory.",
  bad_address: "'{value}' is not an agent address (a lower-case host such as spine.example.com).",
  address_port:
    "'{value}' has a port; a spine on the edge platform answers on 443, so give the host alone.",
  bad_limit_id: "'{value}' is not a rate-limit namespace id (a whole number above 0).",
  same_limit_ids: "The two rate-limit namespace ids must differ (both are {value}).",
  written: "Wrote a spine project to {dir}:",
  written_address: "It will answer at {address}{route}.",
  written_route: " (a custom-domain route is in wrangler.jsonc)",
  written_default:
    "It will answer at agent-spine.<your subdomain>.workers.dev (the deploy prints it).",
  next: "Next:",
  next_deploy: "  agent net spine deploy {dir}{address}",
  next_init: "  agent net init",
  next_publish: "  agent net publish",
  written_cloud:
    "Cloud mode: the spine runs the brain container (Dockerfile with agent.js, built by wrangler deploy with a local Docker engine) and keeps state and sessions in the database DB (migrations/).",
  next_push: "  agent cloud push",
  next_cloud_identity:
    "  agent net init, then agent net spine deploy {dir} again, to join the agent network",
  step_login: "[1/4] Checking the wrangler login…",
  step_install: "[2/4] Installing wrangler (npm install)…",
  step_deploy: "[2/4] Deploying the spine (wrangler deploy)…",
  step_migrate:
    "[2/4] Applying the database migrations (wrangler d1 migrations apply DB --remote)…",
  step_secret: "[3/4] Setting the secret HUB_TOKEN…",
  step_secrets: "[3/4] Setting the cloud secrets from .env and the environment…",
  step_url: "[4/4] Writing AGENT_SPINE_URL…",
  step_spine_url:
    "[4/4] Writing SPINE_URL into wrangler.jsonc and deploying again (wrangler deploy)…",
  step_webhook: "[4/4] Registering the messenger webhook (setWebhook)…",
  secret_set: "      set {name}",
  secrets_no_config: "      {file} is not readable: no model credentials are set",
  secrets_custom_key:
    "      role {role} reads its key from {variable}, which the brain does not receive; use the provider's standard variable in the cloud",
  secrets_missing:
    "      role {role} has no credentials here ({variable} is not set): it will fail in the cloud",
  secrets_identity_unreadable: "      the network identity is not set: {detail}",
  spine_url_filled: "SPINE_URL in wrangler.jsonc is now {url}.",
  webhook_set: "The messenger's updates now go to {url}/messenger/webhook.",
  token_new: "      generated AGENT_SPINE_TOKEN in {file}",
  token_kept: "      kept the AGENT_SPINE_TOKEN of {file}",
  deployed: "The spine is deployed at {url}; {file} has AGENT_SPINE_URL and AGENT_SPINE_TOKEN.",
  fail_not_project:
    "{detail} is not a spine project (no wrangler.jsonc or package.json with wrangler); run `agent net spine init {detail}` first.",
  fail_no_runner:
    "Step {n} ({step}) failed: `{detail}` was not found; install Node.js with npm (https://nodejs.org).",
  fail_logged_out:
    "Step 1 (login) failed: wrangler is not logged in; run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then deploy again.",
  fail_failed: "Step {n} ({step}) failed ({detail}); the output above says why.",
  fail_refused:
    "Step {n} ({step}) failed: {detail}. The spine is deployed; deploy again to register the webhook.",
  fail_no_url:
    "Step 4 (url) failed: the deploy named no workers.dev URL; deploy again with --address HOST.",
  s_login: "login",
  s_install: "npm install",
  s_deploy: "wrangler deploy",
  s_migrate: "wrangler d1 migrations apply",
  s_secret: "secret HUB_TOKEN",
  s_secrets: "cloud secrets",
  s_url: "AGENT_SPINE_URL",
  s_spine_url: "SPINE_URL",
  s_webhook: "messenger webhook",
}, {
  h_spine: "Bu ajanın spine'ını uç platforma koyar: proje yazar, dağıtır.",
  h_spine_init: "DIR içine bir spine projesi yazar (yeni ya da boş bir dizin).",
  h_spine_deploy: "DIR'deki spine projesini dağıtır, AGENT_SPINE_URL/TOKEN'ı .env'ye yazar.",
  h_address: "spine'ın sunucu adı (özel alan adı ya da *.workers.dev)",
  h_ip_id: "istemci IP'sine göre zarf sayan hız sınırı ad alanı (varsayılan 10501)",
  h_sender_id: "gönderene göre zarf sayan hız sınırı ad alanı (varsayılan 10502)",
  h_cloud: "bulut kipi: DB ilişkisel deposu, beyin konteyneri (Dockerfile) ve AGENT_MODE=cloud",
  h_bundle:
    "--cloud ile: beynin imajının kopyaladığı agent.js (varsayılan: bu ajanın kendisi, kaynaktan çalışıyorsa paketlenir)",
  bundle_needs_cloud: "--bundle bir bulut projesi içindir: --cloud ekleyin.",
  bundle_compiled:
    "Derlenmiş bir ajan beynin agent.js dosyasını yapamaz: aynı sürümün agent.js dosyasını --bundle FILE ile verin.",
  bundle_not_found: "{file} paketi yok.",
  bundle_not_a_file: "{file} paketi bir dosya değil.",
  bundle_empty: "{file} paketi boş.",
  bundle_bundle_failed: "Ajan beyin için paketlenemedi: {detail}",
  need_dir: "`agent net spine {action}` bir dizin ister: `agent net spine {action} DIR`.",
  unknown_action: "Bilinmeyen spine komutu '{action}'; `init` ya da `deploy` kullanın.",
  not_empty: "{dir} boş değil; yeni ya da boş bir dizin seçin.",
  not_directory: "{dir} bir dizin değil.",
  bad_address: "'{value}' bir ajan adresi değil (spine.example.com gibi küçük harfli bir ad).",
  address_port:
    "'{value}' bir port içeriyor; uç platformdaki spine 443'te yanıt verir, yalnızca adı verin.",
  bad_limit_id: "'{value}' bir hız sınırı ad alanı değil (0'dan büyük bir tam sayı).",
  same_limit_ids: "İki hız sınırı ad alanı farklı olmalı (ikisi de {value}).",
  written: "Spine projesi {dir} içine yazıldı:",
  written_address: "{address} adresinde yanıt verecek{route}.",
  written_route: " (özel alan adı yönlendirmesi wrangler.jsonc içinde)",
  written_default:
    "agent-spine.<alt alan adınız>.workers.dev adresinde yanıt verecek (dağıtım yazdırır).",
  next: "Sonra:",
  next_deploy: "  agent net spine deploy {dir}{address}",
  next_init: "  agent net init",
  next_publish: "  agent net publish",
  written_cloud:
    "Bulut kipi: spine beyin konteynerini çalıştırır (Dockerfile ve agent.js; wrangler deploy yerel bir Docker motoruyla derler), durumu ve oturumları DB veritabanında tutar (migrations/).",
  next_push: "  agent cloud push",
  next_cloud_identity:
    "  agent net init, ardından ajan ağına katılmak için agent net spine deploy {dir} yeniden",
  step_login: "[1/4] wrangler oturumu denetleniyor…",
  step_install: "[2/4] wrangler kuruluyor (npm install)…",
  step_deploy: "[2/4] Spine dağıtılıyor (wrangler deploy)…",
  step_migrate: "[2/4] Veritabanı göçleri uygulanıyor (wrangler d1 migrations apply DB --remote)…",
  step_secret: "[3/4] HUB_TOKEN sırrı ayarlanıyor…",
  step_secrets: "[3/4] Bulut sırları .env'den ve ortamdan ayarlanıyor…",
  step_url: "[4/4] AGENT_SPINE_URL yazılıyor…",
  step_spine_url:
    "[4/4] SPINE_URL wrangler.jsonc'ye yazılıyor ve yeniden dağıtılıyor (wrangler deploy)…",
  step_webhook: "[4/4] Mesajlaşma webhook'u kaydediliyor (setWebhook)…",
  secret_set: "      {name} ayarlandı",
  secrets_no_config: "      {file} okunamıyor: hiçbir model kimlik bilgisi ayarlanmadı",
  secrets_custom_key:
    "      {role} rolü anahtarını {variable} değişkeninden okuyor, beyin bunu almaz; bulutta sağlayıcının standart değişkenini kullanın",
  secrets_missing:
    "      {role} rolünün burada kimlik bilgisi yok ({variable} ayarlı değil): bulutta başarısız olacak",
  secrets_identity_unreadable: "      ağ kimliği ayarlanmadı: {detail}",
  spine_url_filled: "wrangler.jsonc içindeki SPINE_URL artık {url}.",
  webhook_set: "Mesajlaşma güncellemeleri artık {url}/messenger/webhook adresine gidiyor.",
  token_new: "      {file} içinde AGENT_SPINE_TOKEN üretildi",
  token_kept: "      {file} içindeki AGENT_SPINE_TOKEN korundu",
  deployed: "Spine {url} adresinde; {file} AGENT_SPINE_URL ve AGENT_SPINE_TOKEN içeriyor.",
  fail_not_project:
    "{detail} bir spine projesi değil (wrangler.jsonc ya da wrangler içeren package.json yok); önce `agent net spine init {detail}` çalıştırın.",
  fail_no_runner:
    "Adım {n} ({step}) başarısız: `{detail}` bulunamadı; npm ile birlikte Node.js kurun (https://nodejs.org).",
  fail_logged_out:
    "Adım 1 (oturum) başarısız: wrangler'da oturum açılmamış; `npx wrangler login` çalıştırın (ya da CLOUDFLARE_API_TOKEN ayarlayın), sonra yeniden dağıtın.",
  fail_failed: "Adım {n} ({step}) başarısız ({detail}); nedeni yukarıdaki çıktıda.",
  fail_refused:
    "Adım {n} ({step}) başarısız: {detail}. Spine dağıtıldı; webhook'u kaydetmek için yeniden dağıtın.",
  fail_no_url:
    "Adım 4 (url) başarısız: dağıtım bir workers.dev adresi bildirmedi; --address HOST ile yeniden dağıtın.",
  s_login: "oturum",
  s_install: "npm install",
  s_deploy: "wrangler deploy",
  s_migrate: "wrangler d1 migrations apply",
  s_secret: "HUB_TOKEN sırrı",
  s_secrets: "bulut sırları",
  s_url: "AGENT_SPINE_URL",
  s_spine_url: "SPINE_URL",
  s_webhook: "mesajlaşma webhook'u",
});
