/**
 * Sentences a user reads, in English and Turkish, and the house time format. The
 * language and catalogue primitives are the protocol package's (`@agent/net`), shared
 * with the kit and the Workers; this adds the agent's time zone and time format.
 *
 * @module
 */
export {
  catalogue,
  currentLang,
  format,
  isLang,
  type Lang,
  LANGS,
  type Translator,
  type Vars,
} from "@agent/net/common";

/** The agent's time zone for every date a user reads and every budget period. */
export const TIME_ZONE = "Europe/Istanbul";

/**
 * Formats an instant as `DD.MM.YYYY HH:MM` in Europe/Istanbul.
 *
 * @example
 * ```ts
 * import { formatTime } from "./i18n.ts";
 * if (formatTime(Date.UTC(2026, 0, 31, 21, 5)) !== "01.02.2026 00:05") throw new Error();
 * ```
 */
export function formatTime(epochMs: number): string {
  const z = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(TIME_ZONE);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(z.day)}.${two(z.month)}.${z.year} ${two(z.hour)}:${two(z.minute)}`;
}
