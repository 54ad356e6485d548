/**
 * `agent doctor`'s messenger line, when `MESSENGER_BOT_TOKEN` is set: which chats may
 * talk to the agent, a warning when none may (the bot would answer nobody), and a
 * failure for an entry of `MESSENGER_ALLOWED_CHAT_IDS` that is not a chat id.
 *
 * @module
 */
import type { CheckResult, DoctorContext } from "../../doctor/types.ts";
import { catalogue } from "../../i18n.ts";
import { invalidChatIds, messengerSettings } from "./settings.ts";

const t = catalogue({
  ok: "{count} chat(s) allowed, {mode}",
  none:
    "MESSENGER_BOT_TOKEN is set but no chat is allowed, so the bot answers nobody; put your chat id into MESSENGER_ALLOWED_CHAT_IDS (the hub's log names chats it ignored)",
  no_secret: "webhook mode needs MESSENGER_WEBHOOK_SECRET in .env",
  bad_ids:
    "MESSENGER_ALLOWED_CHAT_IDS has {ids}, which is not a chat id: a chat id is a whole number such as 123456789 (negative for a group); the hub leaves it out",
}, {
  ok: "{count} sohbete izin var, {mode}",
  none:
    "MESSENGER_BOT_TOKEN ayarlı ama hiçbir sohbete izin yok, bot kimseye yanıt vermez; sohbet kimliğinizi MESSENGER_ALLOWED_CHAT_IDS içine yazın (hub günlüğü yok saydığı sohbetleri adlandırır)",
  no_secret: "webhook kipi .env içinde MESSENGER_WEBHOOK_SECRET ister",
  bad_ids:
    "MESSENGER_ALLOWED_CHAT_IDS içindeki {ids} bir sohbet kimliği değil: sohbet kimliği 123456789 gibi bir tam sayıdır (grupta eksi); hub onu dışarıda bırakır",
});

/** The `messenger` line; none without a token or a configuration. */
export function messengerCheck(d: DoctorContext): Promise<CheckResult[]> {
  if (d.config === undefined) return Promise.resolve([]);
  const settings = messengerSettings(d.config, d.env);
  if (settings === undefined) return Promise.resolve([]);
  const line = (status: CheckResult["status"], detail: string): CheckResult[] => [
    { name: "messenger", status, detail },
  ];
  if (settings.mode === "webhook" && settings.webhookSecret === undefined) {
    return Promise.resolve(line("fail", t(d.lang, "no_secret")));
  }
  const bad = invalidChatIds(d.env);
  if (bad.length > 0) {
    return Promise.resolve(
      line("fail", t(d.lang, "bad_ids", { ids: bad.map((id) => `'${id}'`).join(", ") })),
    );
  }
  if (settings.allowed.size === 0) return Promise.resolve(line("warn", t(d.lang, "none")));
  return Promise.resolve(
    line("ok", t(d.lang, "ok", { count: settings.allowed.size, mode: settings.mode })),
  );
}
