/**
 * Why a model could not be reached, in the owner's language: the reasons
 * `unreachableReason()` and the connect probe give are short English codes
 * (`connection refused`), kept as they are in the log and worded here for a sentence.
 *
 * @module
 */
import { catalogue, type Lang } from "../i18n.ts";

const t = catalogue({
  "connection refused": "connection refused",
  "connection reset": "connection reset",
  "connection failed": "connection failed",
  "connect timeout": "connect timeout",
  "host not found": "host not found",
  "no answer": "no answer",
}, {
  "connection refused": "bağlantı reddedildi",
  "connection reset": "bağlantı sıfırlandı",
  "connection failed": "bağlantı kurulamadı",
  "connect timeout": "bağlantı zaman aşımına uğradı",
  "host not found": "sunucu bulunamadı",
  "no answer": "yanıt yok",
});

const KNOWN = new Set([
  "connection refused",
  "connection reset",
  "connection failed",
  "connect timeout",
  "host not found",
  "no answer",
]);

/**
 * `reason` in `lang`; a text ending in a known reason (`http://host: connection
 * refused`) has that ending worded, anything else (`HTTP 503`) stays as it is.
 *
 * @example
 * ```ts
 * import { reasonWords } from "./reason_words.ts";
 * if (reasonWords("tr", "connection refused") !== "bağlantı reddedildi") throw new Error();
 * if (reasonWords("tr", "HTTP 503") !== "HTTP 503") throw new Error();
 * ```
 */
export function reasonWords(lang: Lang, reason: string): string {
  for (const known of KNOWN) {
    if (reason === known || reason.endsWith(`: ${known}`)) {
      return reason.slice(0, reason.length - known.length) +
        t(lang, known as Parameters<typeof t>[1]);
    }
  }
  return reason;
}
