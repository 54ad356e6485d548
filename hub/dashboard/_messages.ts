/**
 * The dashboard's sentences the hub says, in English and Turkish: the Settings page's
 * field sentences, said beside the field a person typed into in the form's words
 * ("Budget (USD)"), not the file's (`[models.roles.brain.budget] 'usd'`), which only a
 * file editor needs; and a reopened transcript's tool steps.
 *
 * @module
 */
import { catalogue } from "../i18n.ts";

/** The dashboard's field sentences. */
export const t = catalogue({
  field_provider: "Choose one of: {choices}.",
  field_model_id: "Enter the model's id; it cannot be empty.",
  field_budget_usd: "Enter an amount above 0 in dollars, such as 15 or 2.50.",
  field_budget_period: "Choose day, week or month for the budget of ${usd}.",
  field_file: "{role} was not saved: the rest of agent.toml has a problem. {detail}",
  budget_cleared: "{role} has no budget now: its calls are no longer capped.",
  field_url: "{name} takes an address such as http://127.0.0.1:11434; nothing was saved.",
  tool_ran: "✓ {tool} ran",
}, {
  field_provider: "Şunlardan birini seçin: {choices}.",
  field_model_id: "Modelin kimliğini girin; boş olamaz.",
  field_budget_usd: "0'dan büyük bir dolar tutarı girin, örneğin 15 ya da 2,50.",
  field_budget_period: "${usd} bütçesi için gün, hafta ya da ay seçin.",
  field_file: "{role} kaydedilmedi: agent.toml'un geri kalanında bir sorun var. {detail}",
  budget_cleared: "{role} artık bütçesiz: çağrıları bir sınıra bağlı değil.",
  field_url: "{name} bir adres ister, örneğin http://127.0.0.1:11434; hiçbir şey kaydedilmedi.",
  tool_ran: "✓ {tool} çalıştı",
});
