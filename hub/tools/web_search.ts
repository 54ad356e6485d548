/**
 * The `web_search` tool: one query to the provider `[tools.search]` names, priced and
 * capped like a model call. Every call is a ledger row (`purpose = tool`, the provider,
 * its price; role `web_search`, so `agent spend --by purpose` shows it apart), written
 * as pending before the request (holding the price against a hard cap in the same
 * transaction that checks it, so calls at once never pass the cap) and settled when it
 * ends. A spent budget refuses the call with the spend sentence, before any request.
 * The results are untrusted text.
 *
 * @module
 */
import { z } from "zod";
import type { SearchConfig } from "../config/mod.ts";
import { currentLang, type Lang } from "../i18n.ts";
import type { CallRecord, Ledger, PendingCall } from "../ledger/mod.ts";
import { periodBounds } from "../ledger/mod.ts";
import { budgetSpentSentence } from "../spend/mod.ts";
import type { AgentTool, ToolContext } from "./tool.ts";
import { SearchProviderError, searchWeb } from "./search_providers.ts";
import { untrustedText } from "./untrusted.ts";
import { t } from "./_search_messages.ts";

/** The ledger role of search calls (their budget is this role's). */
export const SEARCH_ROLE = "web_search";

/** What the results may take of the context, in characters. */
const MAX_RESULT_CHARS = 8_000;

/** `web_search`: searches the web through the configured provider (tier 1, priced). */
export const webSearch: AgentTool = {
  name: "web_search",
  tier: 1,
  description:
    "Search the web. Returns titles, URLs and snippets of the top results. Each call costs money; search once with a good query rather than many times.",
  inputSchema: z.object({ query: z.string().min(1).max(400) }),
  // Pages' titles and snippets: outside content, so nothing this turn asks to remember
  // is kept without the owner's approval.
  untrusted: true,
  offered(settings) {
    return settings.search !== undefined;
  },
  async execute(input: { query: string }, context: ToolContext) {
    const lang = currentLang(context.env);
    const config = context.settings?.search;
    if (config === undefined) throw new Error(t(lang, "not_configured"));
    const key = context.env.SEARCH_API_KEY?.trim() || undefined;
    if (config.provider === "brave" && key === undefined) {
      throw new Error(t(lang, "no_key", { provider: config.provider }));
    }
    const call = admit(config, context, lang);
    let hits;
    try {
      hits = await searchWeb(config, input.query, {
        key,
        fetch: context.fetch,
        signal: context.signal,
      });
    } catch (error) {
      // A request the provider refused or never got costs nothing; one it answered does.
      const answered = error instanceof SearchProviderError && error.status === 200;
      call.settle(answered ? config.price_per_call : 0);
      if (error instanceof SearchProviderError) {
        throw new Error(t(lang, "failed", { provider: config.provider, detail: error.message }));
      }
      throw error;
    }
    call.settle(config.price_per_call);
    const text = hits.length === 0
      ? t("en", "nothing")
      : hits.map((h, i) => `${i + 1}. ${h.title}\n   ${h.url}\n   ${h.snippet}`).join("\n");
    return {
      query: input.query,
      ...untrustedText(`web_search (${config.provider})`, text, MAX_RESULT_CHARS),
      cost_usd: config.price_per_call,
    };
  },
};

/** A search call admitted by its budget: settle it with what it cost. */
interface AdmittedCall {
  settle(usd: number): void;
}

/**
 * Checks the budget and writes the call as pending (a hard cap holds its price in the
 * same transaction); throws the spend sentence when the budget is spent. Without a
 * ledger nothing is checked or written (a home that cannot keep one).
 */
function admit(config: SearchConfig, context: ToolContext, lang: Lang): AdmittedCall {
  const ledger = context.ledger;
  if (ledger === undefined || ledger.readOnly) return { settle() {} };
  const now = (context.now ?? Date.now)();
  const pending: PendingCall = {
    call_id: crypto.randomUUID(),
    ts: now,
    pid: Deno.pid,
    role: SEARCH_ROLE,
    provider: config.provider,
    model_id: SEARCH_ROLE,
    input_tokens: 0,
    estimate_usd: config.price_per_call,
    reserved_usd: config.budget?.hard === true ? config.price_per_call : 0,
    channel: context.channel ?? "cli",
    session_id: context.sessionId ?? null,
    peer: null,
    purpose: "tool",
  };
  const budget = config.budget;
  if (budget !== undefined) {
    const { sinceMs, resetMs } = periodBounds(budget.period, now);
    const spent = (spentUsd: number) =>
      new Error(budgetSpentSentence(lang, {
        role: SEARCH_ROLE,
        spentUsd,
        capUsd: budget.usd,
        exhausted: true,
        sinceMs,
        resetMs,
      }));
    if (budget.hard === true) {
      const reservation = ledger.begin(pending, { usd: budget.usd, sinceMs });
      if (!reservation.ok) throw spent(reservation.spentUsd);
      return settler(ledger, pending);
    }
    const spentUsd = ledger.spent(SEARCH_ROLE, sinceMs).usd;
    if (spentUsd >= budget.usd) throw spent(spentUsd);
  }
  ledger.begin(pending);
  return settler(ledger, pending);
}

function settler(ledger: Ledger, pending: PendingCall): AdmittedCall {
  return {
    settle(usd) {
      const row: CallRecord & { call_id: string } = {
        ts: pending.ts,
        role: pending.role,
        provider: pending.provider,
        model_id: pending.model_id,
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        usd,
        channel: pending.channel,
        session_id: pending.session_id,
        peer: null,
        purpose: "tool",
        call_id: pending.call_id,
      };
      ledger.settle(row);
    },
  };
}
