/**
 * Web search providers, each spoken in its own wire format: Brave Search API
 * (`GET ?q=&count=` with the `X-Subscription-Token` header, results under `web.results`)
 * and SearXNG (`GET ?q=&format=json`, results under `results`, a key optional as a
 * bearer token). Both give the same short result rows.
 *
 * @module
 */
import type { SearchConfig } from "../config/mod.ts";

/** One search result. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** A provider's answer that could not be used, with its HTTP status when it gave one. */
export class SearchProviderError extends Error {
  override name = "SearchProviderError";
  /** The HTTP status, or `undefined` when the provider was not reached. */
  readonly status: number | undefined;
  constructor(message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.status = status;
  }
}

/** Options for {@linkcode searchWeb}. */
export interface SearchOptions {
  /** `SEARCH_API_KEY`. */
  key?: string | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Asks `config`'s provider for `query`; at most `config.max_results` hits. Throws
 * {@linkcode SearchProviderError} for an answer that is not a result list.
 */
export async function searchWeb(
  config: SearchConfig,
  query: string,
  options: SearchOptions = {},
): Promise<SearchHit[]> {
  const url = new URL(config.url);
  const headers: Record<string, string> = { accept: "application/json" };
  url.searchParams.set("q", query);
  if (config.provider === "brave") {
    url.searchParams.set("count", String(config.max_results));
    if (options.key !== undefined) headers["x-subscription-token"] = options.key;
  } else {
    url.searchParams.set("format", "json");
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  }
  const signal = options.signal === undefined
    ? AbortSignal.timeout(15_000)
    : AbortSignal.any([options.signal, AbortSignal.timeout(15_000)]);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers, signal, redirect: "error" });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new SearchProviderError(`${config.provider} could not be reached`, undefined, {
      cause: error,
    });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SearchProviderError(
      `${config.provider} answered HTTP ${response.status}`,
      response.status,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new SearchProviderError(`${config.provider} answered something that is not JSON`, 200, {
      cause: error,
    });
  }
  const rows = config.provider === "brave"
    ? (body as { web?: { results?: unknown } })?.web?.results
    : (body as { results?: unknown })?.results;
  // Brave leaves `web` out when nothing was found.
  if (rows === undefined && config.provider === "brave") return [];
  if (!Array.isArray(rows)) {
    throw new SearchProviderError(`${config.provider} answered without a result list`, 200);
  }
  return rows.slice(0, config.max_results).map((row) => {
    const r = (row ?? {}) as Record<string, unknown>;
    return {
      title: String(r.title ?? ""),
      url: String(r.url ?? ""),
      snippet: stripTags(String(r.description ?? r.content ?? "")),
    };
  });
}

/** Brave marks the words it matched with `<strong>`; the model needs none of it. */
function stripTags(text: string): string {
  return text.replace(/<[^>]{0,40}>/g, "");
}
