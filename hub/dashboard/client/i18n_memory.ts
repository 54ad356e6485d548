/**
 * The Memory page's words, in English and Turkish (kept apart from `i18n.ts`, which
 * merges them). The owner's acts answer with the hub's own sentences (the ones `agent
 * memory` prints); these are the page's words around them.
 *
 * @module
 */

/** English. */
export const EN_MEMORY = {
  nav_memory: "Memory",
  mem_note:
    "What the agent keeps between conversations, the same as `agent memory`. Pinned memories are recalled in every turn of their scope; a forgotten one is deleted for good.",
  mem_off:
    "Memory is off in this hub ([memory] enabled = false in agent.toml, or its store could not be opened).",
  mem_in_force: "In force",
  mem_pending: "Waiting for you",
  mem_pending_none: "Nothing waits for your approval.",
  mem_scope: "Scope",
  mem_all_scopes: "Every scope",
  mem_owner: "you (owner)",
  mem_search: "Search memories",
  mem_none: "No memories yet.",
  mem_no_match: "No memory matches '{query}'.",
  mem_counts: "{active} in force, {pending} waiting, {superseded} replaced.",
  mem_kind_fact: "fact",
  mem_kind_preference: "preference",
  mem_kind_event: "event",
  mem_kind_instruction: "instruction",
  mem_source_owner: "you said it",
  mem_source_agent: "the agent inferred it",
  mem_source_imported: "imported",
  mem_created: "added {when}",
  mem_from: "from conversation {session}",
  mem_pinned: "pinned",
  mem_pin: "Pin",
  mem_unpin: "Unpin",
  mem_forget: "Forget",
  mem_forget_ask: "Forget this memory for good? Its text is deleted from the memory store.",
  mem_forget_yes: "Forget memory {id}",
  mem_redact: "Also clean its text out of the stored conversations",
  mem_cancel: "Cancel",
  mem_why: "Why it waits: {reason}",
  mem_text: "Text of memory {id}",
  mem_approve: "Approve",
  mem_reject: "Reject",
};

/** Turkish. */
export const TR_MEMORY: Record<keyof typeof EN_MEMORY, string> = {
  nav_memory: "Anılar",
  mem_note:
    "Ajanın konuşmalar arasında sakladıkları, `agent memory` ile aynı. Sabit anılar kapsamlarındaki her turda hatırlanır; unutulan bir anı kalıcı olarak silinir.",
  mem_off:
    "Bu hub'da anılar kapalı (agent.toml'da [memory] enabled = false, ya da anı deposu açılamadı).",
  mem_in_force: "Geçerli",
  mem_pending: "Onayınızı bekleyenler",
  mem_pending_none: "Onayınızı bekleyen bir şey yok.",
  mem_scope: "Kapsam",
  mem_all_scopes: "Her kapsam",
  mem_owner: "siz (sahibi)",
  mem_search: "Anılarda ara",
  mem_none: "Henüz anı yok.",
  mem_no_match: "'{query}' ile eşleşen bir anı yok.",
  mem_counts: "{active} geçerli, {pending} bekliyor, {superseded} yerini başkasına bıraktı.",
  mem_kind_fact: "bilgi",
  mem_kind_preference: "tercih",
  mem_kind_event: "olay",
  mem_kind_instruction: "talimat",
  mem_source_owner: "siz söylediniz",
  mem_source_agent: "ajan çıkardı",
  mem_source_imported: "içe aktarıldı",
  mem_created: "{when} eklendi",
  mem_from: "{session} konuşmasından",
  mem_pinned: "sabit",
  mem_pin: "Sabitle",
  mem_unpin: "Sabitliği kaldır",
  mem_forget: "Unut",
  mem_forget_ask: "Bu anı kalıcı olarak unutulsun mu? Metni anı deposundan silinir.",
  mem_forget_yes: "{id} numaralı anıyı unut",
  mem_redact: "Metnini kayıtlı konuşmalardan da temizle",
  mem_cancel: "Vazgeç",
  mem_why: "Neden bekliyor: {reason}",
  mem_text: "{id} numaralı anının metni",
  mem_approve: "Onayla",
  mem_reject: "Reddet",
};
