/**
 * Threads: which conversation a mail belongs to and how an answer stays in it. A
 * thread is named by its root Message-ID (the first of `References`, else
 * `In-Reply-To`, else the mail's own), so every mail of it lands in the desk
 * conversation `email:<root>`. An answer carries `In-Reply-To` (the mail answered),
 * `References` (theirs plus that mail) and a `Re:` subject, so every mail program
 * shows it under the question. Its Message-ID is derived from the mail it answers: an
 * answer sent twice (a crash between the send and its record) is one mail to the
 * receiving program.
 *
 * @module
 */
import type { IncomingMail } from "./mail.ts";

/** The root Message-ID of the thread `mail` belongs to (its own when it starts one). */
export function threadRoot(mail: Pick<IncomingMail, "messageId" | "references" | "inReplyTo">):
  | string
  | undefined {
  return mail.references[0] ?? mail.inReplyTo ?? mail.messageId;
}

/** Whether `subject` already says it answers (`Re:`, `RE:`, `Ynt:`, `AW:`, `Sv:`). */
function isReply(subject: string): boolean {
  return /^\s*(re|ynt|aw|sv|vs)\s*:/i.test(subject);
}

/**
 * The answer's subject: `Re: ` before theirs, unless it has one.
 *
 * @example
 * ```ts
 * import { replySubject } from "./thread.ts";
 * if (replySubject("Toplantı") !== "Re: Toplantı" || replySubject("RE: x") !== "RE: x") {
 *   throw new Error();
 * }
 * if (replySubject("  ") !== "Re:") throw new Error();
 * ```
 */
export function replySubject(subject: string): string {
  const s = subject.replace(/[\r\n]+/g, " ").trim();
  if (s === "") return "Re:";
  return isReply(s) ? s : `Re: ${s}`;
}

/**
 * The answer's `References`: theirs (at most the last 20, the root always kept) then
 * the answered mail's id.
 *
 * @example
 * ```ts
 * import { replyReferences } from "./thread.ts";
 * const r = replyReferences({ messageId: "<b@x>", references: ["<a@x>"], inReplyTo: "<a@x>" });
 * if (r.join(" ") !== "<a@x> <b@x>") throw new Error(r.join(" "));
 * ```
 */
export function replyReferences(
  mail: Pick<IncomingMail, "messageId" | "references" | "inReplyTo">,
): string[] {
  const before = mail.references.length > 0
    ? mail.references
    : mail.inReplyTo
    ? [mail.inReplyTo]
    : [];
  const kept = before.length > 20 ? [before[0]!, ...before.slice(-19)] : before;
  return mail.messageId === undefined ? kept : [...kept, mail.messageId];
}

/**
 * The Message-ID of the answer to the mail `messageId`, on the agent's domain: the same
 * every time for the same mail.
 *
 * @example
 * ```ts
 * import { answerMessageId } from "./thread.ts";
 * const a = await answerMessageId("<q1@example.com>", "agent@example.org");
 * if (a !== await answerMessageId("<q1@example.com>", "agent@example.org")) throw new Error();
 * if (!/^<answer\.[0-9a-f]{32}@example\.org>$/.test(a)) throw new Error(a);
 * ```
 */
export async function answerMessageId(messageId: string, agentAddress: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`email-answer:${messageId}`)),
  );
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const domain = agentAddress.slice(agentAddress.lastIndexOf("@") + 1);
  return `<answer.${hex}@${domain}>`;
}
