/**
 * The model area's sentences (the doctor's `role <name>` lines of a `local-runtime`
 * role, which say whether the server answers) in English and Turkish.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** Translator for the local model server's doctor lines. */
export const t = catalogue({
  label_role: "",
  label_fallback: "fallback ",
  pulled: "{label}local-runtime {model} at {base} (pulled there)",
  not_pulled:
    "{label}local-runtime {model} at {base} is not pulled there (it has {models}); pull it on the server",
  no_models: "no models",
  unreachable: "{label}local-runtime {model}: the local server is not reachable ({detail})",
  unreachable_stand_in:
    "{label}local-runtime {model}: the local server is not reachable ({detail}); {stand_in} answers instead",
}, {
  label_role: "",
  label_fallback: "yedek ",
  pulled: "{label}local-runtime {model}, {base} üzerinde (orada indirilmiş)",
  not_pulled:
    "{label}local-runtime {model}, {base} üzerinde indirilmemiş (sunucudakiler: {models}); sunucuda indirin",
  no_models: "hiç model yok",
  unreachable: "{label}local-runtime {model}: yerel sunucuya ulaşılamıyor ({detail})",
  unreachable_stand_in:
    "{label}local-runtime {model}: yerel sunucuya ulaşılamıyor ({detail}); onun yerine {stand_in} yanıtlar",
});
