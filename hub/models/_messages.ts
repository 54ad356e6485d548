/**
 * The model area's sentences (the `local-runtime` doctor lines) in English and
 * Turkish.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for the local model server's doctor lines. */
export const t = catalogue({
  label_role: "role {role}",
  label_fallback: "role {role} (fallback)",
  pulled: "{label}: '{model}' is pulled at {base}",
  not_pulled: "{label}: '{model}' is not pulled at {base} (it has {models}); pull it on the server",
  no_models: "no models",
  unreachable: "{label}: the local server is not reachable ({detail})",
  unreachable_stand_in:
    "{label}: the local server is not reachable ({detail}); {stand_in} answers instead",
}, {
  label_role: "rol {role}",
  label_fallback: "rol {role} (yedek)",
  pulled: "{label}: '{model}' {base} üzerinde indirilmiş",
  not_pulled:
    "{label}: '{model}' {base} üzerinde indirilmemiş (sunucudakiler: {models}); sunucuda indirin",
  no_models: "hiç model yok",
  unreachable: "{label}: yerel sunucuya ulaşılamıyor ({detail})",
  unreachable_stand_in:
    "{label}: yerel sunucuya ulaşılamıyor ({detail}); onun yerine {stand_in} yanıtlar",
});
