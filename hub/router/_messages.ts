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
  ceiling_refused:
    "This call could cost more than the run's ceiling of ${usd} allows, so it was not sent.",
  cut_steps:
    "The agent stopped after {steps} steps of tool calls (its limit) before it finished answering; ask again to let it go on.",
  cut_length: "The answer was cut off: it reached the model's output limit (max_tokens).",
  cut_filter: "The provider's content filter stopped the answer.",
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
  ceiling_refused:
    "Bu çağrı çalışmanın ${usd} tavanının izin verdiğinden fazla tutabilirdi, bu yüzden gönderilmedi.",
  cut_steps:
    "Ajan, yanıtını bitirmeden {steps} araç çağrısı adımından sonra durdu (sınırı bu); devam etmesi için yeniden sorun.",
  cut_length: "Yanıt kesildi: modelin çıktı sınırına (max_tokens) ulaştı.",
  cut_filter: "Sağlayıcının içerik filtresi yanıtı durdurdu.",
});
