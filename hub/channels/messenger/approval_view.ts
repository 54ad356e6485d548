/**
 * An approval as a phone shows it: the desk's one-line sentence for the owner (what
 * will happen, to what), the arguments one per line with long values cut with "…",
 * when it expires, and the buttons Allow once / Allow for this session / Deny /
 * Details; Details shows the arguments in full; once decided, what was decided, by
 * whom, on what. Pure functions over the desk's {@linkcode ApprovalRequest}.
 *
 * @module
 */
import { formatTime, type Lang } from "../../i18n.ts";
import { oneLine } from "../../text.ts";
import type { ApprovalDecided, ApprovalRequest } from "../../desk/mod.ts";
import { t } from "./_messages.ts";
import { chatText, escapeHtml } from "./telegram.ts";

/** The longest argument value shown in the summary. */
const VALUE_MAX = 60;
/** The most characters of the full arguments shown behind Details. */
const DETAILS_MAX = 3_000;

/** What a press of an approval button carries: `ap:<id>:<o|s|n|d>` (< 64 bytes). */
export const APPROVAL_DATA = /^ap:([A-Za-z0-9_-]{1,16}):([osnyd])$/;

/** A span of time as words: "10 minutes", "30 seconds". */
export function span(lang: Lang, ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds >= 120
    ? t(lang, "span_minutes", { n: Math.round(seconds / 60) })
    : t(lang, "span_seconds", { n: seconds });
}

/**
 * The arguments (JSON text) as `name: value` lines, each value on one line, cut with
 * "…", control characters as spaces.
 *
 * @example
 * ```ts
 * import { argLines } from "./approval_view.ts";
 * const lines = argLines(JSON.stringify({ to: "bob.example", text: "a\nb" }));
 * if (lines.join("|") !== "to: bob.example|text: a b") throw new Error(lines.join("|"));
 * ```
 */
export function argLines(args: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    value = args;
  }
  const show = (v: unknown) =>
    chatText(oneLine(typeof v === "string" ? v : JSON.stringify(v) ?? ""), VALUE_MAX);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return value === undefined || args === "" || args === "{}" ? [] : [show(value)];
  }
  return Object.entries(value as Record<string, unknown>).map(([key, v]) =>
    `${chatText(key, 30)}: ${show(v)}`
  );
}

/** The approval's message as HTML: sentence, arguments, expiry (and the full arguments). */
export function approvalHtml(
  lang: Lang,
  request: ApprovalRequest,
  timeoutMs: number,
  details: boolean,
): string {
  const expires = Date.parse(request.expiresAt);
  const lines = [
    `<b>${escapeHtml(request.message)}</b>`,
    // Asked elsewhere (an e-mail of the owner's): said, so the owner knows which.
    ...(request.conversation.startsWith("email:")
      ? [`<i>${escapeHtml(t(lang, "asked_by_email"))}</i>`]
      : []),
    ...argLines(request.args).map(escapeHtml),
    `<i>${
      escapeHtml(t(lang, "approval_expires", {
        time: formatTime(expires).slice(-5),
        span: span(lang, timeoutMs),
      }))
    }</i>`,
  ];
  if (details) {
    let full: string;
    try {
      full = JSON.stringify(JSON.parse(request.args), null, 2);
    } catch {
      full = request.args;
    }
    // The message stays within Telegram's 4,096 characters, whatever the arguments.
    const room = Math.max(200, Math.min(DETAILS_MAX, 3_900 - lines.join("\n").length));
    lines.push(
      escapeHtml(t(lang, "approval_args")),
      `<pre>${escapeHtml(chatText(full.replace(/\t/g, "  "), room))}</pre>`,
    );
  }
  return lines.join("\n");
}

/** The buttons under an approval (Details until the full arguments are shown). */
export function approvalButtons(
  lang: Lang,
  id: string,
  withDetails: boolean,
): { inline_keyboard: { text: string; callback_data: string }[][] } {
  const button = (key: Parameters<typeof t>[1], code: string) => ({
    text: t(lang, key),
    callback_data: `ap:${id}:${code}`,
  });
  return {
    inline_keyboard: [
      [button("approve_once", "o"), button("approve_no", "n")],
      [button("approve_session", "s")],
      ...(withDetails ? [[button("approve_details", "d")]] : []),
    ],
  };
}

/**
 * The decided approval as HTML: the outcome and who decided (or the clock, or a
 * cancel), then the sentence and the arguments that were decided on.
 */
export function decidedHtml(
  lang: Lang,
  decided: ApprovalDecided,
  request: ApprovalRequest,
  timeoutMs: number,
): string {
  const by = decided.by === undefined || decided.by === "messenger"
    ? t(lang, "by_here")
    : t(lang, "by_elsewhere", { channel: decided.by });
  const outcome = decided.decision === "expired"
    ? t(lang, "decided_expired", { span: span(lang, timeoutMs) })
    : decided.decision === "cancelled"
    ? t(lang, "decided_cancelled")
    : t(lang, `decided_${decided.decision}`, { by });
  return [
    `<b>${escapeHtml(outcome)}</b>`,
    escapeHtml(request.message),
    ...argLines(request.args).map(escapeHtml),
  ].join("\n");
}
